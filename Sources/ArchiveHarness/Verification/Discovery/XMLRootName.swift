/// The local name of an XML document's root element, read from its first bytes without parsing
/// the document: what manifest discovery needs to tell a manifest from a class map file.
///
/// UTF-8 (with or without a byte-order mark) and UTF-16 in either byte order are read; the
/// XML declaration, processing instructions, comments and a document type declaration before
/// the root are skipped, however long; a namespace prefix (`m:manifest`) is dropped. Only the
/// first 1 MiB is looked at.
///
/// ```swift
/// XMLRootName.localName(of: Array("<?xml version=\"1.0\"?><m:manifest/>".utf8))  // "manifest"
/// ```
enum XMLRootName {
  /// How much of a file discovery reads.
  static let maximumScanned = 1 << 20

  /// The root element's local name, or nil when the bytes show none.
  static func localName(of bytes: [UInt8]) -> String? {
    let scalars = text(of: bytes.prefix(maximumScanned))
    var index = scalars.startIndex
    while index < scalars.endIndex {
      guard scalars[index] == "<" else {
        index = scalars.index(after: index)
        continue
      }
      let rest = scalars[index...]
      if rest.starts(with: "<?".unicodeScalars) {
        guard let end = find("?>", in: scalars, from: index) else { return nil }
        index = end
      } else if rest.starts(with: "<!--".unicodeScalars) {
        guard let end = find("-->", in: scalars, from: index) else { return nil }
        index = end
      } else if rest.starts(with: "<!".unicodeScalars) {
        guard let end = find(">", in: scalars, from: index) else { return nil }
        index = end
      } else {
        let name = rest.dropFirst().prefix {
          !($0 == ">" || $0 == "/" || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r")
        }
        let text = String(String.UnicodeScalarView(name))
        guard !text.isEmpty else { return nil }
        return text.split(separator: ":").last.map(String.init)
      }
    }
    return nil
  }

  /// The index just past the first `needle` at or after `start`.
  private static func find(
    _ needle: String, in scalars: [Unicode.Scalar], from start: Int
  ) -> Int? {
    let pattern = Array(needle.unicodeScalars)
    var index = start
    while index + pattern.count <= scalars.count {
      if scalars[index..<(index + pattern.count)].elementsEqual(pattern) {
        return index + pattern.count
      }
      index += 1
    }
    return nil
  }

  /// The bytes as Unicode scalars: UTF-16 when a byte-order mark or a NUL pattern says so,
  /// UTF-8 otherwise (ill-formed bytes become U+FFFD, which no markup needs).
  private static func text(of bytes: ArraySlice<UInt8>) -> [Unicode.Scalar] {
    let bytes = Array(bytes)
    var littleEndian: Bool?
    var body = bytes[...]
    if bytes.starts(with: [0xFF, 0xFE]) {
      littleEndian = true
      body = bytes.dropFirst(2)
    } else if bytes.starts(with: [0xFE, 0xFF]) {
      littleEndian = false
      body = bytes.dropFirst(2)
    } else if bytes.count >= 2, bytes[0] == 0x3C, bytes[1] == 0 {
      littleEndian = true
    } else if bytes.count >= 2, bytes[0] == 0, bytes[1] == 0x3C {
      littleEndian = false
    }
    guard let littleEndian else {
      let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      return Array(String(decoding: bytes[start...], as: UTF8.self).unicodeScalars)
    }
    var units: [UInt16] = []
    units.reserveCapacity(body.count / 2)
    var index = body.startIndex
    while index + 1 < body.endIndex {
      let low = UInt16(body[index])
      let high = UInt16(body[index + 1])
      units.append(littleEndian ? low | high << 8 : high | low << 8)
      index += 2
    }
    return Array(String(decoding: units, as: UTF16.self).unicodeScalars)
  }
}
