/// Strings quoted the way a Swift string literal spells them, for trees, findings and descriptions.
///
/// Quotes and backslashes are escaped, newline, tab and carriage return
/// become `\n`, `\t` and `\r`, and other control characters become
/// `\u{…}`, so a quoted value always stays on one line.
///
/// ```swift
/// SwiftLiteral.quoted("say \"hi\"\r\n")              // "\"say \\\"hi\\\"\\r\\n\""
/// SwiftLiteral.quoted("abcdef", maximumScalars: 3)  // "\"abc…\""
/// ```
public enum SwiftLiteral {
  /// Quotes text as a Swift string literal would spell it.
  ///
  /// - Parameters:
  ///   - text: Any text.
  ///   - maximumScalars: When set, keeps at most this many scalars and marks the cut with `…`.
  /// - Returns: The text in double quotes, on one line.
  public static func quoted(_ text: String, maximumScalars: Int? = nil) -> String {
    var result = "\""
    ScalarEscaping.append(text, to: &result, maximumScalars: maximumScalars) { scalar in
      switch scalar {
      case "\"": "\\\""
      case "\\": "\\\\"
      case "\n": "\\n"
      case "\t": "\\t"
      case "\r": "\\r"
      default: scalar.value < 0x20 ? "\\u{\(String(scalar.value, radix: 16))}" : nil
      }
    }
    return result + "\""
  }
}
