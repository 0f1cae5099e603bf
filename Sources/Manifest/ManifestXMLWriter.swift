/// Small helpers for writing manifest XML text by hand.
enum ManifestXMLWriter {
  /// Escapes text for element content or a double-quoted attribute value.
  ///
  /// Tab, line feed and carriage return become character references so that
  /// attribute-value normalization and line-end handling keep them.
  static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "\t": result += "&#9;"
      case "\n": result += "&#10;"
      case "\r": result += "&#13;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether every scalar of the text may appear in an XML 1.0 document.
  static func isXMLText(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      switch scalar.value {
      case 0x9, 0xA, 0xD: return true
      case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
      default: return false
      }
    }
  }

  /// Whether a name fits the schema's `ClassName`: non-empty, no whitespace, valid XML text.
  static func isClassName(_ name: String) -> Bool {
    !name.isEmpty && isXMLText(name)
      && !name.unicodeScalars.contains { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
  }

  /// ` key="…"` for a non-empty key path, or nothing for the root.
  static func keyAttribute(_ key: String) -> String {
    key.isEmpty ? "" : " key=\"\(escape(key))\""
  }

  /// A double in `xs:double` form that reads back to the same value.
  static func double(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-INF" : "INF" }
    return "\(value)"
  }
}
