import TextOutput

/// A JSON document to write, with object members kept in insertion order unless sorted on output.
///
/// Every machine-readable output of the harness (`--format json`) is built as
/// a `JSONValue` and rendered with ``render(sortedKeys:pretty:)``, so escaping
/// and number formatting are done in one place.
public enum JSONValue: Hashable, Sendable {
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
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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
  public func hash(into hasher: inout Hasher) {
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
  public func render(sortedKeys: Bool = true, pretty: Bool = true) -> String {
    var output = ""
    append(to: &output, sortedKeys: sortedKeys, pretty: pretty, indent: 0)
    return output
  }

  private func append(to output: inout String, sortedKeys: Bool, pretty: Bool, indent: Int) {
    switch self {
    case .object(let members):
      if members.isEmpty {
        output += "{}"
        return
      }
      let ordered =
        sortedKeys ? members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) } : members
      output += "{"
      for (position, (key, value)) in ordered.enumerated() {
        if position > 0 { output += "," }
        if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
        Self.appendString(key, to: &output)
        output += pretty ? ": " : ":"
        value.append(to: &output, sortedKeys: sortedKeys, pretty: pretty, indent: indent + 1)
      }
      if pretty { output += "\n" + String(repeating: "  ", count: indent) }
      output += "}"
    case .array(let elements):
      if elements.isEmpty {
        output += "[]"
        return
      }
      output += "["
      for (position, element) in elements.enumerated() {
        if position > 0 { output += "," }
        if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
        element.append(to: &output, sortedKeys: sortedKeys, pretty: pretty, indent: indent + 1)
      }
      if pretty { output += "\n" + String(repeating: "  ", count: indent) }
      output += "]"
    case .string(let string):
      Self.appendString(string, to: &output)
    case .integer(let number):
      output += String(number)
    case .unsignedInteger(let number):
      output += String(number)
    case .number(let number):
      output += Self.numberText(number)
    case .bool(let flag):
      output += flag ? "true" : "false"
    case .null:
      output += "null"
    }
  }

  /// The JSON text of a double: integral values without a fraction, others in Swift's shortest form.
  static func numberText(_ number: Double) -> String {
    guard number.isFinite else { return "null" }
    if number == number.rounded(.towardZero), abs(number) < 1e15 {
      return number == 0 && number.sign == .minus ? "-0.0" : String(Int64(number)) + ".0"
    }
    return "\(number)"
  }

  static func appendString(_ string: String, to output: inout String) {
    output += "\""
    ScalarEscaping.append(string, to: &output) { scalar in
      switch scalar {
      case "\"": "\\\""
      case "\\": "\\\\"
      case "\n": "\\n"
      case "\r": "\\r"
      case "\t": "\\t"
      case "\u{08}": "\\b"
      case "\u{0C}": "\\f"
      default: scalar.value < 0x20 ? "\\u" + Hex.digits(UInt16(scalar.value)) : nil
      }
    }
    output += "\""
  }
}
