import KeyedArchive
import PropertyList

/// Where an inline value sits: a field of an instance (an element of it, for a collection), or a `$top` entry.
struct ValueLocation: Hashable, Sendable {
  /// The instance's index in `$objects`, or -1 for `$top`.
  var object: Int
  /// The field's key (or the `$top` key).
  var field: String
  /// The element's position, for a value inside a Foundation collection's `NS.objects`.
  var element: Int?
}

/// A breadth-first walk of an archive's graph: each object's first key path, and the values that key-path patterns select.
///
/// An object belongs under its first (shortest) path. It is selected by a
/// pattern when that path lies under the pattern, or when a later path
/// matches the pattern exactly; a later path that is a proper prefix of a
/// pattern walks the object's fields again (at most
/// ``maximumRevisits`` times an object), so `items[*].count` reaches an item
/// first met as `featured`. A back-reference (`address.owner` pointing at the
/// root) never selects what lies under its target, so keeping `address` does
/// not keep the whole graph. Each object is expanded a bounded number of
/// times, so shared and cyclic graphs cost linear time.
struct ArchiveLeafWalk {
  /// How many times a later path may walk an object's fields again.
  static let maximumRevisits = 16

  let archive: KeyedArchive
  /// Groups of patterns, such as the kept paths and the scrubbed paths.
  let patternGroups: [[KeyPath]]
  /// Per group, the objects selected.
  private(set) var selectedObjects: [Set<Int>]
  /// Per group, the inline values selected.
  private(set) var selectedValues: [Set<ValueLocation>]
  /// String objects used as dictionary keys; their first path is their dictionary's.
  private(set) var dictionaryKeys: Set<Int> = []
  /// Instances that are Foundation leaves (strings, data, dates, URLs, UUIDs, null), and the objects they refer to.
  private(set) var leafInstances: Set<Int> = []
  /// The first path that reached each object.
  private(set) var firstPath: [Int: KeyPath] = [:]

  private var reached: [Int: [Bool]] = [:]
  private var revisits: [Int: Int] = [:]

  private struct Step {
    var value: PropertyListValue
    var path: KeyPath
    var holder: ValueLocation?
  }

  /// Walks an archive, selecting what each group of patterns names.
  init(archive: KeyedArchive, patternGroups: [[KeyPath]] = []) {
    self.archive = archive
    self.patternGroups = patternGroups
    selectedObjects = patternGroups.map { _ in [] }
    selectedValues = patternGroups.map { _ in [] }
    run()
  }

  /// What an inline field of an instance holds, from the instance's Foundation form.
  enum FieldRole: Equatable {
    /// The value of a Foundation leaf (an `NSString`'s text, an `NSDate`'s time), reached by the leaf's path.
    case leaf(ValueRole)
    /// An `NSDictionary`'s `NS.keys`.
    case dictionaryKeys
    /// A collection's `NS.objects`: each element at the collection's path and its index or key.
    case elements
    /// An ordered set's `NS.object.N`.
    case element(Int)
    /// A field of any other instance, at the instance's path and the field's key.
    case field
  }

  /// What a value stands for, beyond its property-list type.
  enum ValueRole: Equatable {
    case plain, date, uuid, stringBytes
  }

  /// The role of an instance's field, from its Foundation form and key.
  static func role(ofField key: String, in form: FoundationForm?) -> FieldRole {
    switch (form, key) {
    case (.date?, "NS.time"): return .leaf(.date)
    case (.uuid?, "NS.uuidbytes"): return .leaf(.uuid)
    case (.string?, "NS.bytes"): return .leaf(.stringBytes)
    case (.string?, _), (.data?, _), (.url?, _), (.null?, _), (.date?, _), (.uuid?, _):
      return .leaf(.plain)
    case (.dictionary?, "NS.keys"): return .dictionaryKeys
    case (.dictionary?, "NS.objects"), (.array?, "NS.objects"), (.set?, "NS.objects"),
      (.orderedSet?, "NS.objects"):
      return .elements
    case (.orderedSet?, let key) where key.hasPrefix("NS.object."):
      return Int(key.dropFirst("NS.object.".count)).map(FieldRole.element) ?? .field
    default: return .field
    }
  }

  /// The path step to a collection's element: its key for a dictionary, its index otherwise.
  func elementComponent(_ position: Int, dictionaryKeys: [PropertyListValue])
    -> KeyPath.Component
  {
    guard position < dictionaryKeys.count else { return .index(position) }
    return .key(archive.stringValue(of: dictionaryKeys[position]) ?? "[\(position)]")
  }

  /// An object's first path, or `$objects[N]` for an object no path reaches.
  func keyPath(of index: Int) -> KeyPath {
    firstPath[index] ?? KeyPath(components: [.key("$objects"), .index(index)])
  }

  /// A path as text, `(root)` for the root itself.
  static func text(_ path: KeyPath) -> String {
    let text = path.description
    return text.isEmpty ? "(root)" : text
  }

  private mutating func run() {
    var queue: [Step] = archive.top.entries.map {
      Step(
        value: $0.value, path: KeyPath(topKey: $0.key, components: []),
        holder: ValueLocation(object: -1, field: $0.key))
    }
    var head = 0
    while head < queue.count {
      let step = queue[head]
      head += 1
      let under = patternGroups.map { matches($0, step.path, exactly: false) }
      guard case .uid(let uid) = step.value else {
        if let holder = step.holder {
          for group in under.indices where under[group] { selectedValues[group].insert(holder) }
        }
        continue
      }
      let index = Int(uid)
      if let flags = reached[index] {
        var updated = flags
        for group in patternGroups.indices where !flags[group] {
          if matches(patternGroups[group], step.path, exactly: true) { updated[group] = true }
        }
        if updated != flags {
          reached[index] = updated
        } else if isProperPrefixOfPattern(step.path),
          revisits[index, default: 0] < Self.maximumRevisits
        {
          revisits[index, default: 0] += 1
        } else {
          continue
        }
      } else {
        reached[index] = under
        firstPath[index] = step.path
      }
      let flags = reached[index] ?? under
      for group in flags.indices where flags[group] { selectedObjects[group].insert(index) }
      guard let instance = archive.instance(at: index) else { continue }
      let form = archive.foundationForm(of: instance)
      if case .dictionary(let keys, _)? = form {
        for key in keys {
          guard case .uid(let keyIndex) = key else { continue }
          dictionaryKeys.insert(Int(keyIndex))
          // A key is reported at its dictionary's path, never at a path that spells it out.
          if firstPath[Int(keyIndex)] == nil { firstPath[Int(keyIndex)] = step.path }
        }
      }
      switch form {
      case .string?, .data?, .date?, .uuid?, .url?, .null?:
        leafInstances.insert(index)
        markReferences(of: instance, flags: flags, path: step.path)
        continue
      default:
        break
      }
      let isCollection = form?.isCollection ?? false
      let hasObjectsArray = instance.fields["NS.objects"] != nil
      for (position, child) in archive.children(of: .object(index)).enumerated() {
        let holder: ValueLocation?
        if isCollection {
          holder =
            hasObjectsArray
            ? ValueLocation(object: index, field: "NS.objects", element: position)
            : ValueLocation(object: index, field: "NS.object.\(position)")
        } else if case .key(let key) = child.component {
          holder = ValueLocation(object: index, field: key)
        } else {
          holder = nil
        }
        queue.append(
          Step(value: child.value, path: step.path.appending(child.component), holder: holder))
      }
    }
  }

  /// Marks what a Foundation leaf refers to (an `NSString`'s string object, an `NSURL`'s base) as part of the leaf.
  private mutating func markReferences(of instance: ArchiveInstance, flags: [Bool], path: KeyPath) {
    var pending = instance.fields.entries.map(\.value)
    var seen: Set<Int> = []
    while let value = pending.popLast() {
      guard case .uid(let uid) = value else { continue }
      let index = Int(uid)
      guard index != 0, !seen.contains(index) else { continue }
      seen.insert(index)
      if firstPath[index] == nil { firstPath[index] = path }
      for group in flags.indices where flags[group] { selectedObjects[group].insert(index) }
      if let referenced = archive.instance(at: index) {
        leafInstances.insert(index)
        pending += referenced.fields.entries.map(\.value)
      }
    }
  }

  /// Whether a pattern names this path, or (unless `exactly`) one of its ancestors.
  private func matches(_ patterns: [KeyPath], _ path: KeyPath, exactly: Bool) -> Bool {
    patterns.contains { pattern in
      guard pattern.components.count <= path.components.count,
        !exactly || pattern.components.count == path.components.count
      else { return false }
      return Self.componentsMatch(pattern, path, count: pattern.components.count)
    }
  }

  /// Whether the path is a proper prefix of some pattern, so a later path through it may still match one.
  private func isProperPrefixOfPattern(_ path: KeyPath) -> Bool {
    patternGroups.contains { patterns in
      patterns.contains { pattern in
        pattern.components.count > path.components.count
          && Self.componentsMatch(pattern, path, count: path.components.count)
      }
    }
  }

  /// Whether the first `count` components of a pattern match those of a path, `[*]` matching any index (as ``KeyedArchive/evaluate(_:limits:)`` does).
  static func componentsMatch(_ pattern: KeyPath, _ path: KeyPath, count: Int) -> Bool {
    guard pattern.topKey == path.topKey else { return false }
    for (expected, actual) in zip(pattern.components.prefix(count), path.components.prefix(count)) {
      switch (expected, actual) {
      case (.wildcard, .index): continue
      default: if expected != actual { return false }
      }
    }
    return true
  }
}
