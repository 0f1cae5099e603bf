/// Text for XML 1.0 documents: escaping for content and attributes, and the characters XML allows.
///
/// One escaper serves every XML the harness writes (JUnit reports, migration
/// reports, authored manifests). It escapes the markup characters, writes tab,
/// line feed and carriage return as character references (so attribute-value
/// normalization and line-end handling keep them), and replaces every other
/// character XML 1.0 cannot carry, such as U+0001, with `?`: the `Char`
/// production excludes them even as `&#1;`.
///
/// ```swift
/// XMLText.escaped("a < b & \"c\"\n")   // "a &lt; b &amp; &quot;c&quot;&#10;"
/// XMLText.escaped("bell\u{7}")        // "bell?"
/// XMLText.isValid("bell\u{7}")        // false
/// ```
package enum XMLText {
  /// What a character that XML 1.0 cannot carry becomes.
  package static let replacement = "?"

  /// Escapes text for element content or a double-quoted attribute value.
  ///
  /// - Parameter text: Any text.
  /// - Returns: Text that reads back as the original, except that characters XML 1.0
  ///   cannot carry are replaced with ``replacement``.
  package static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    ScalarEscaping.append(text, to: &result) { scalar in
      switch scalar {
      case "&": "&amp;"
      case "<": "&lt;"
      case ">": "&gt;"
      case "\"": "&quot;"
      case "\t", "\n", "\r": "&#\(scalar.value);"
      default: isAllowed(scalar) ? nil : replacement
      }
    }
    return result
  }

  /// Whether XML 1.0 can carry a character (the `Char` production).
  ///
  /// - Parameter scalar: A Unicode scalar.
  /// - Returns: `true` for tab, line feed, carriage return and U+0020…U+D7FF,
  ///   U+E000…U+FFFD, U+10000…U+10FFFF.
  package static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9, 0xA, 0xD: true
    case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
    default: false
    }
  }

  /// Whether every character of a text may appear in an XML 1.0 document.
  ///
  /// - Parameter text: Any text.
  /// - Returns: Whether ``isAllowed(_:)`` holds for each of its scalars.
  package static func isValid(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy(isAllowed)
  }
}
