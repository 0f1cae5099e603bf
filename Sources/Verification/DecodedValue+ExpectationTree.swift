import Decoding
import KeyedArchive
import Manifest

extension DecodedValue {
  /// The decoded object as a tree the expectation engine can evaluate, so field expectations
  /// are checked against what the app decoded as well as against the archive.
  var expectationTree: ExpectationTree {
    switch self {
    case .null: return .leaf(.null)
    case .bool(let flag): return .leaf(.bool(flag))
    case .integer(let number): return .leaf(.integer(number))
    case .double(let number): return .leaf(.real(number))
    case .string(let string): return .leaf(.string(string))
    case .data(let bytes): return .leaf(.data(bytes))
    case .date(let seconds): return .leaf(.date(seconds))
    case .uuid(let text): return .leaf(.string(text))
    case .url(let text): return .leaf(.url(text))
    case .array(let name, let elements), .set(let name, let elements),
      .orderedSet(let name, let elements):
      return .collection(className: name, elements: elements.map(\.expectationTree))
    case .dictionary(let name, let entries):
      return .dictionary(
        className: name,
        entries: entries.map {
          ExpectationTree.Entry(Self.keyText($0.key), $0.value.expectationTree)
        })
    case .object(let name, let fields):
      return .object(
        className: name,
        fields: fields.map { ExpectationTree.Entry($0.key, $0.value.expectationTree) })
    case .cycleReference(let name), .opaque(let name):
      return .leaf(.object(className: name, index: -1, count: nil))
    }
  }

  private static func keyText(_ key: DecodedValue) -> String {
    if case .string(let text) = key { return text }
    return key.description
  }
}
