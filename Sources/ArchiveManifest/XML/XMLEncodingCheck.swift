import Foundation

/// Refuses manifest text that is not UTF-8 before libxml2 sees it.
///
/// libxml2 honours an XML declaration's `encoding`, so without this check a
/// manifest declaring `encoding="UTF-7"` would be decoded as UTF-7. Manifests
/// are UTF-8, with or without a byte-order mark; anything else is refused at
/// line 1 with the encoding named.
enum XMLEncodingCheck {
  /// The encoding names that mean UTF-8, in lowercase.
  private static let utf8Names: Set<String> = ["utf-8", "utf8"]

  /// Returns why `bytes` cannot be read as a UTF-8 manifest, or nil when it can.
  static func problem(in bytes: [UInt8]) -> String? {
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
      return "the document must be encoded as UTF-8"
    }
    if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.contains(0) {
      return "the document must be encoded as UTF-8"
    }
    if let declared = declaredEncoding(in: bytes),
      !utf8Names.contains(declared.lowercased())
    {
      return "the document must be encoded as UTF-8, but its XML declaration names encoding "
        + "'\(declared)'; write encoding=\"UTF-8\" or leave the encoding out"
    }
    return nil
  }

  /// Returns the `encoding` pseudo-attribute of the document's XML declaration, if any.
  static func declaredEncoding(in bytes: [UInt8]) -> String? {
    var text = bytes[...]
    if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
    guard text.starts(with: Array("<?xml".utf8)) else { return nil }
    // The declaration ends at the first "?>"; it is short, so look no further than 1 KiB.
    let window = text.prefix(1024)
    guard let end = indexOf([0x3F, 0x3E], in: window) else { return nil }
    let declaration = String(decoding: window[window.startIndex..<end], as: UTF8.self)
    guard let name = declaration.range(of: "encoding") else { return nil }
    var rest = declaration[name.upperBound...].drop(while: \.isWhitespace)
    guard rest.first == "=" else { return nil }
    rest = rest.dropFirst().drop(while: \.isWhitespace)
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    let value = rest.dropFirst().prefix(while: { $0 != quote })
    return String(value)
  }

  private static func indexOf(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    var index = haystack.startIndex
    while index <= haystack.endIndex - needle.count {
      if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}
