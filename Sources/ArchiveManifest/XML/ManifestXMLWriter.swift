import ArchiveFormat

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

  /// The `<store>` element for a store shape, indented by `indent`, ending in a newline.
  package static func storeElement(_ shape: Manifest.StoreShape, indent: String = "  ") -> String {
    var attributes = " kind=\"\(shape.kind.rawValue)\""
    for (name, value) in [
      ("table", shape.table), ("keyColumn", shape.keyColumn), ("valueColumn", shape.valueColumn),
      ("entity", shape.entity), ("attribute", shape.attribute),
    ] {
      if let value { attributes += " \(name)=\"\(XMLText.escaped(value))\"" }
    }
    guard !shape.keyPaths.isEmpty else { return "\(indent)<store\(attributes)/>\n" }
    var text = "\(indent)<store\(attributes)>\n"
    for keyPath in shape.keyPaths {
      text += "\(indent)  <keyPath>\(XMLText.escaped(keyPath))</keyPath>\n"
    }
    return text + "\(indent)</store>\n"
  }
}
