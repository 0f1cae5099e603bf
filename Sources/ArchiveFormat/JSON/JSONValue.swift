/// A JSON document to write, with object members kept in insertion order unless sorted on output.
///
/// Machine-readable output of the harness (`--format json`) is built as a
/// `JSONValue` and rendered with ``render(sortedKeys:pretty:)``, or streamed
/// through a `JSONWriter` when it is large; both write through the writer,
/// so escaping and number formatting are done in one place.
package enum JSONValue: Hashable, Sendable {
  /// An object; members keep their order unless rendered with sorted keys.
  case object([(String, JSONValue)])
  /// An array.
  case array([JSONValue])
  /// A string.
  case string(String)
  /// A signed integer.
  case integer(Int64)
  /// An unsigned integer (for values above `Int64.max`).
  case unsignedInteger(UInt64)
  /// A finite floating-point number; a non-finite one renders as `null`.
  case number(Double)
  /// A boolean.
  case bool(Bool)
  /// `null`.
  case null

  /// Whether two values are equal, numbers by value and objects by their members in order.
  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    case (.array(let a), .array(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.null, .null): return true
    default: return false
    }
  }

  /// Hashes the value consistently with ``==(_:_:)``.
  package func hash(into hasher: inout Hasher) {
    switch self {
    case .object(let members):
      hasher.combine(members.count)
      for (key, value) in members {
        hasher.combine(key)
        hasher.combine(value)
      }
    case .array(let elements): hasher.combine(elements)
    case .string(let string): hasher.combine(string)
    case .integer(let number): hasher.combine(number)
    case .unsignedInteger(let number): hasher.combine(number)
    case .number(let number): hasher.combine(number)
    case .bool(let flag): hasher.combine(flag)
    case .null: hasher.combine(0)
    }
  }

  /// Renders the document as text.
  ///
  /// - Parameters:
  ///   - sortedKeys: Sorts object members by key (by UTF-8 bytes), for stable output.
  ///   - pretty: Indents with two spaces, one member or element a line.
  /// - Returns: The JSON text, without a trailing newline.
  package func render(sortedKeys: Bool = true, pretty: Bool = true) -> String {
    var writer = JSONWriter(sortedKeys: sortedKeys, pretty: pretty)
    writer.write(self)
    return writer.text()
  }

  /// The JSON text of a double: integral values without a fraction, others in Swift's shortest form.
  static func numberText(_ number: Double) -> String {
    guard number.isFinite else { return "null" }
    if number == number.rounded(.towardZero), abs(number) < 1e15 {
      return number == 0 && number.sign == .minus ? "-0.0" : String(Int64(number)) + ".0"
    }
    return "\(number)"
  }
}
