import ArchiveCoder
import ArchiveFormat
import ArchiveManifest

extension DecodedValue {
  /// The decoded object as a tree the expectation engine can evaluate, so field expectations
  /// are checked against what the app decoded as well as against the archive.
  ///
  /// A shared object's later references resolve to the subtree built for its first one; the
  /// tree shares that value rather than copying it, so building stays linear.
  var expectationTree: ExpectationTree {
    var objects: [Int: ExpectationTree] = [:]
    var ordinal = 0
    return tree(objects: &objects, ordinal: &ordinal)
  }

  private func tree(objects: inout [Int: ExpectationTree], ordinal: inout Int) -> ExpectationTree {
    // Objects get ordinals in the order the describer first met them: pre-order, as here.
    let isObject: Bool
    switch self {
    case .array, .set, .orderedSet, .dictionary, .object: isObject = true
    default: isObject = false
    }
    let mine = ordinal
    if isObject { ordinal += 1 }
    let result: ExpectationTree
    switch self {
    case .null, .noObject: result = .leaf(.null)
    case .bool(let flag): result = .leaf(.bool(flag))
    case .integer(let number): result = .leaf(.integer(number))
    case .double(let number): result = .leaf(.real(number))
    case .string(let string): result = .leaf(.string(string))
    case .data(let bytes): result = .leaf(.data(bytes))
    case .date(let seconds): result = .leaf(.date(seconds))
    case .uuid(let text): result = .leaf(.string(text))
    case .url(let text): result = .leaf(.url(text))
    case .array(let name, let elements), .set(let name, let elements),
      .orderedSet(let name, let elements):
      result = .collection(
        className: name, elements: elements.map { $0.tree(objects: &objects, ordinal: &ordinal) })
    case .dictionary(let name, let entries):
      result = .dictionary(
        className: name,
        entries: entries.map {
          ExpectationTree.Entry(
            Self.keyText($0.key), $0.value.tree(objects: &objects, ordinal: &ordinal))
        })
    case .object(let name, let fields):
      result = .object(
        className: name,
        fields: fields.map {
          ExpectationTree.Entry($0.key, $0.value.tree(objects: &objects, ordinal: &ordinal))
        })
    case .sharedReference(let name, let index):
      result = objects[index] ?? .leaf(.object(className: name, index: -1, count: nil))
    case .cycleReference(let name), .opaque(let name):
      result = .leaf(.object(className: name, index: -1, count: nil))
    }
    if isObject { objects[mine] = result }
    return result
  }

  private static func keyText(_ key: DecodedValue) -> String {
    if case .string(let text) = key { return text }
    return key.description
  }
}
