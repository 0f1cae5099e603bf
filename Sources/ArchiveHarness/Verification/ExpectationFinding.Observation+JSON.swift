import ArchiveFormat
import ArchiveManifest

extension ExpectationFinding.Observation {
  /// The observation as data: `type` names what was found (`string`, `absent`, `count`, …), then its values.
  ///
  /// ```swift
  /// ExpectationFinding.Observation.value(.integer(1)).jsonValue.render()
  /// // {"type": "integer", "value": 1}
  /// ExpectationFinding.Observation.count(3).jsonValue.render()
  /// // {"type": "count", "value": 3}
  /// ```
  package var jsonValue: JSONValue {
    typealias JSON = TypedValueJSON
    switch self {
    case .value(let leaf): return Self.json(leaf)
    case .object(let className, let count):
      return .object(
        [("type", .string("object")), ("class", .string(className))]
          + JSON.member("count", count))
    case .present: return JSON.typed("present")
    case .absent: return JSON.typed("absent")
    case .noElements: return JSON.typed("noElements")
    case .allMatch(let count): return JSON.typed("allMatch", ("elements", .integer(Int64(count))))
    case .className(let name): return JSON.typed("class", ("name", .string(name)))
    case .digest(let length, let sha256):
      return JSON.typed(
        "dataDigest", ("length", .integer(Int64(length))), ("sha256", .string(sha256)))
    case .utf16Length(let length):
      return JSON.typed("utf16Length", ("value", .integer(Int64(length))))
    case .count(let count): return JSON.typed("count", ("value", .integer(Int64(count))))
    case .uncountable(let value): return JSON.typed("uncountable", ("value", value.jsonValue))
    case .someElementsFail(let first, let failing, let total):
      return JSON.typed(
        "someElementsFail", ("first", first.jsonValue), ("failing", .integer(Int64(failing))),
        ("elements", .integer(Int64(total))))
    case .malformedKeyPath: return JSON.typed("malformedKeyPath")
    case .unresolvable(let reason): return JSON.typed("unresolvable", ("reason", .string(reason)))
    case .archiveOutsideFolder: return JSON.typed("archiveOutsideFolder")
    case .unreadableArchive: return JSON.typed("unreadableArchive")
    case .oversizedArchive(let size, let maxSize):
      return JSON.typed(
        "oversizedArchive", ("size", .integer(Int64(size))), ("maxSize", .integer(Int64(maxSize))))
    case .malformedArchive(let reason):
      return JSON.typed("malformedArchive", ("reason", .string(reason)))
    }
  }

  private static func json(_ leaf: ArchiveLeaf) -> JSONValue {
    typealias JSON = TypedValueJSON
    switch leaf {
    case .null: return JSON.typed("null")
    case .string(let value): return JSON.typed("string", ("value", .string(value)))
    case .integer(let value): return JSON.typed("integer", ("value", .integer(value)))
    case .unsignedInteger(let value):
      return JSON.typed("integer", ("value", .unsignedInteger(value)))
    case .real(let value): return JSON.typed("real", ("value", JSON.real(value)))
    case .bool(let value): return JSON.typed("bool", ("value", .bool(value)))
    case .date(let seconds): return .object([("type", .string("date"))] + JSON.date(seconds))
    case .data(let bytes):
      return JSON.typed(
        "data", ("length", .integer(Int64(bytes.count))),
        ("sha256", .string(SHA256Checksum.hash(bytes).hexadecimal)))
    case .uuid(let bytes): return JSON.typed("uuid", ("value", .string(uuidText(bytes))))
    case .url(let value): return JSON.typed("url", ("value", .string(value)))
    case .object(let className, _, let count):
      return Self.object(className: className, count: count).jsonValue
    }
  }
}
