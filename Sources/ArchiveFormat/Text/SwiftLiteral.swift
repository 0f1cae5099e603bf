/// Strings quoted the way a Swift string literal spells them, for trees, findings and descriptions.
///
/// Quotes and backslashes are escaped, newline, tab and carriage return
/// become `\n`, `\t` and `\r`, and other control characters (C0, DEL, C1) become
/// `\u{…}`, so a quoted value always stays on one line.
///
/// ```swift
/// SwiftLiteral.quoted("say \"hi\"\r\n")              // "\"say \\\"hi\\\"\\r\\n\""
/// SwiftLiteral.quoted("abcdef", maximumScalars: 3)  // "\"abc…\""
/// ```
package enum SwiftLiteral {
  /// Quotes text as a Swift string literal would spell it.
  ///
  /// - Parameters:
  ///   - text: Any text.
  ///   - maximumScalars: When set, keeps at most this many scalars and marks the cut with `…`.
  /// - Returns: The text in double quotes, on one line.
  package static func quoted(_ text: String, maximumScalars: Int? = nil) -> String {
    var result = "\""
    ScalarEscaping.append(text, to: &result, maximumScalars: maximumScalars) { scalar in
      switch scalar {
      case "\"": "\\\""
      case "\\": "\\\\"
      case "\n": "\\n"
      case "\t": "\\t"
      case "\r": "\\r"
      default: controlEscape(scalar)
      }
    }
    return result + "\""
  }

  /// Escapes the control characters of text that is printed as it is, such as a line a child
  /// process wrote to standard error: `\n`, `\t`, `\r` and `\u{…}` as ``quoted(_:maximumScalars:)``
  /// writes them, so no escape sequence reaches a terminal; quotes and backslashes stay.
  ///
  /// ```swift
  /// SwiftLiteral.escapingControlCharacters("red \u{1B}[31m\n")  // "red \\u{1b}[31m\\n"
  /// ```
  ///
  /// - Parameter text: Any text.
  /// - Returns: The text on one line, with no control character.
  package static func escapingControlCharacters(_ text: String) -> String {
    var result = ""
    ScalarEscaping.append(text, to: &result) { scalar in
      switch scalar {
      case "\n": "\\n"
      case "\t": "\\t"
      case "\r": "\\r"
      default: controlEscape(scalar)
      }
    }
    return result
  }

  /// `\u{…}` for a control character (C0, DEL and C1), else `nil`.
  static func controlEscape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F: "\\u{\(String(scalar.value, radix: 16))}"
    default: nil
    }
  }
}
