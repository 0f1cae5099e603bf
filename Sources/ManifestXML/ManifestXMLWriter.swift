import Manifest
import TextOutput

/// Small helpers for writing manifest XML text by hand.
package enum ManifestXMLWriter {
  /// Whether a name fits the schema's `ClassName`: non-empty, no whitespace, valid XML text.
  package static func isClassName(_ name: String) -> Bool {
    !name.isEmpty && XMLText.isValid(name)
      && !name.unicodeScalars.contains { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
  }

  /// ` key="…"` for a non-empty key path, or nothing for the root.
  package static func keyAttribute(_ key: String) -> String {
    key.isEmpty ? "" : " key=\"\(XMLText.escaped(key))\""
  }

  /// A double in `xs:double` form that reads back to the same value.
  package static func double(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-INF" : "INF" }
    return "\(value)"
  }
}
