/// A place in the archive's graph that a key path or a printer has reached.
package enum ArchiveNode: Hashable, Sendable {
  /// `$null`, or a missing reference.
  case null
  /// A value: inline in a field, or stored directly in `$objects`.
  case value(PropertyListValue)
  /// The instance at this index in `$objects`.
  case object(Int)
}

extension KeyedArchive {
  /// The node a field or `$top` value refers to.
  package func node(for value: PropertyListValue) -> ArchiveNode {
    guard case .uid(let uid) = value else { return .value(value) }
    switch object(at: Int(uid)) {
    case .null?, nil: return .null
    case .value(let stored)?: return .value(stored)
    case .instance?, .classDescription?: return .object(Int(uid))
    }
  }

  /// The root node: `$top.root`, or `nil` when the archive has no `root` entry.
  package var root: ArchiveNode? {
    top["root"].map(node(for:))
  }

  /// The leaf a node shows: its value, its Foundation value, or its class.
  package func leaf(of node: ArchiveNode) -> ArchiveLeaf {
    switch node {
    case .null:
      return .null
    case .value(let value):
      switch value {
      case .string(let string): return .string(string)
      case .integer(let number): return .integer(number)
      case .unsignedInteger(let number): return .unsignedInteger(number)
      case .real(let number): return .real(number)
      case .bool(let flag): return .bool(flag)
      case .date(let seconds): return .date(seconds)
      case .data(let bytes): return .data(bytes)
      case .uid(let uid): return leaf(of: self.node(for: .uid(uid)))
      case .array(let elements):
        return .object(className: "array", index: -1, count: elements.count)
      case .dictionary(let dictionary):
        return .object(className: "dictionary", index: -1, count: dictionary.count)
      }
    case .object(let index):
      guard let instance = instance(at: index) else {
        if case .classDescription(let description)? = object(at: index) {
          return .object(className: description.name, index: index, count: nil)
        }
        return .null
      }
      return instanceLeaf(instance, at: index)
    }
  }

  /// The children of a node, each with the key path component that reaches it.
  ///
  /// Foundation collections show their elements (`[0]`, `[1]`, …) and
  /// dictionaries their string keys; other instances show their fields.
  package func children(of node: ArchiveNode) -> [(
    component: ArchiveKeyPath.Component, value: PropertyListValue
  )] {
    switch node {
    case .null:
      return []
    case .value(let value):
      switch value {
      case .array(let elements):
        return elements.enumerated().map { (.index($0.offset), $0.element) }
      case .dictionary(let dictionary):
        return dictionary.entries.map { (.key($0.key), $0.value) }
      default:
        return []
      }
    case .object(let index):
      guard let instance = instance(at: index) else { return [] }
      switch foundationForm(of: instance) {
      case .array(let values)?, .set(let values)?, .orderedSet(let values)?:
        return values.enumerated().map { (.index($0.offset), $0.element) }
      case .dictionary(let keys, let values)?:
        return zip(keys, values).enumerated().map { position, pair in
          (.key(stringValue(of: pair.0) ?? "[\(position)]"), pair.1)
        }
      case .string?, .date?, .data?, .uuid?, .url?, .null?:
        return []
      case nil:
        return instance.fields.entries.map { (.key($0.key), $0.value) }
      }
    }
  }
}

extension ArchiveObjectLookup {
  /// The leaf of the instance at `index` (``KeyedArchive/leaf(of:)`` of `.object(index)`), with
  /// references followed through this lookup.
  func instanceLeaf(_ instance: ArchiveInstance, at index: Int) -> ArchiveLeaf {
    switch readFoundationForm(of: instance) {
    case .string(let string)?: return .string(string)
    case .date(let seconds)?: return .date(seconds)
    case .data(let bytes)?: return .data(bytes)
    case .uuid(let bytes)?: return .uuid(bytes)
    case .null?: return .null
    case .url(let base, let relative)?:
      return .url(urlText(base: base, relative: relative))
    case let form?:
      return .object(className: instance.className, index: index, count: form.elements?.count)
    case nil:
      return .object(className: instance.className, index: index, count: nil)
    }
  }

  /// A URL's text; a base is followed one level only, so a URL that is its own base cannot loop.
  private func urlText(base: PropertyListValue?, relative: PropertyListValue) -> String {
    let relativeText = readStringValue(of: relative) ?? ""
    guard let base, case .uid(let uid) = base, let baseInstance = lookUpInstance(at: Int(uid)),
      case .url(_, let baseRelative)? = readFoundationForm(of: baseInstance)
    else { return relativeText }
    return (readStringValue(of: baseRelative) ?? "") + relativeText
  }
}
