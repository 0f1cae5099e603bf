import ArchiveFormat

/// The pieces typed values share in the JSON report: a `type` member, then the value's members.
///
/// A value is written as data, never as a description: `{"type": "string",
/// "value": "Bern"}`, `{"type": "integer", "value": 1}`, `{"type": "date",
/// "value": "2021-03-04T10:00:00.000Z", "seconds": 636544800}`.
enum TypedValueJSON {
  /// An object whose first member is `"type": name`, followed by the given members.
  static func typed(_ name: String, _ members: (String, JSONValue)...) -> JSONValue {
    .object([("type", .string(name))] + members)
  }

  /// A real: a JSON number, or `"nan"`, `"inf"` or `"-inf"`, which JSON numbers cannot express.
  static func real(_ number: Double) -> JSONValue {
    if number.isNaN { return .string("nan") }
    if number.isInfinite { return .string(number < 0 ? "-inf" : "inf") }
    return .number(number)
  }

  /// A date's members: `value` in ISO 8601 (UTC, milliseconds) when it has one, and `seconds`
  /// since 2001-01-01T00:00:00Z.
  static func date(_ seconds: Double) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = []
    if let text = ISO8601.formatExpanded(seconds, fractionalDigits: 3) {
      members.append(("value", .string(text)))
    }
    members.append(("seconds", real(seconds)))
    return members
  }

  /// An integer written in decimal: a JSON number when it fits 64 bits, else its digits.
  static func integer(_ digits: String) -> JSONValue {
    if let number = Int64(digits) { return .integer(number) }
    if let number = UInt64(digits) { return .unsignedInteger(number) }
    return .string(digits)
  }

  /// An optional integer, or nothing.
  static func member(_ name: String, _ value: Int?) -> [(String, JSONValue)] {
    value.map { [(name, .integer(Int64($0)))] } ?? []
  }

  /// An optional real, or nothing.
  static func member(_ name: String, _ value: Double?) -> [(String, JSONValue)] {
    value.map { [(name, real($0))] } ?? []
  }
}
