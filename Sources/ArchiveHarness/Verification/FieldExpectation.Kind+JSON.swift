import ArchiveFormat
import ArchiveManifest

extension FieldExpectation.Kind {
  /// The expectation as data: `type` is the manifest element (`string`, `maxLength`, …), then its values.
  ///
  /// ```swift
  /// FieldExpectation.Kind.string("Berlin").jsonValue.render()
  /// // {"type": "string", "value": "Berlin"}
  /// FieldExpectation.Kind.maxLength(40).jsonValue.render()
  /// // {"type": "maxLength", "utf16": 40}
  /// ```
  package var jsonValue: JSONValue {
    typealias JSON = TypedValueJSON
    switch self {
    case .string(let value): return JSON.typed("string", ("value", .string(value)))
    case .integer(let digits): return JSON.typed("integer", ("value", JSON.integer(digits)))
    case .real(let value, let tolerance):
      return JSON.typed("real", ("value", JSON.real(value)), ("tolerance", JSON.real(tolerance)))
    case .bool(let value): return JSON.typed("bool", ("value", .bool(value)))
    case .date(let seconds, let tolerance):
      return .object(
        [("type", .string("date"))] + JSON.date(seconds) + [("tolerance", JSON.real(tolerance))])
    case .data(let bytes):
      return JSON.typed(
        "data", ("length", .integer(Int64(bytes.count))),
        ("sha256", .string(SHA256Checksum.hash(bytes).hexadecimal)))
    case .dataDigest(let sha256, let length):
      return .object(
        [("type", .string("dataDigest")), ("sha256", .string(sha256))]
          + JSON.member("length", length))
    case .null: return JSON.typed("null")
    case .className(let name): return JSON.typed("class", ("name", .string(name)))
    case .present: return JSON.typed("present")
    case .absent: return JSON.typed("absent")
    case .maxLength(let limit): return JSON.typed("maxLength", ("utf16", .integer(Int64(limit))))
    case .range(let minimum, let maximum):
      return .object(
        [("type", .string("range"))] + JSON.member("min", minimum) + JSON.member("max", maximum))
    case .count(let equals, let minimum, let maximum):
      return .object(
        [("type", .string("count"))] + JSON.member("equals", equals)
          + JSON.member("min", minimum) + JSON.member("max", maximum))
    case .oneOf(let values):
      return JSON.typed("oneOf", ("values", .array(values.map(JSONValue.string))))
    case .matches(let pattern): return JSON.typed("matches", ("pattern", .string(pattern)))
    }
  }
}
