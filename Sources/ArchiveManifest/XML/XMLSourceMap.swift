/// Where each element and attribute of a well-formed XML text starts, and where elements end.
///
/// libxml2 records only a line per node, so this scanner walks the same text
/// once more and records positions in document order. It trusts that libxml2
/// has already checked the text is well formed and has no DOCTYPE, so it only
/// needs to skip comments, processing instructions and CDATA sections.
package struct XMLSourceMap {
  /// A position in the text: byte offset plus 1-based line and column.
  package struct Position: Hashable {
    package var offset: Int
    package var line: Int
    package var column: Int
  }

  /// One attribute as written in a start tag.
  package struct Attribute {
    package var qualifiedName: String
    package var position: Position
  }

  /// One element as written.
  package struct Element {
    package var qualifiedName: String
    /// The position of the `<` of the start tag.
    package var start: Position
    package var attributes: [Attribute]
    /// The offset just past the start tag's `>`.
    package var startTagEnd: Int
    /// Whether the element is written `<name/>`.
    package var isSelfClosing: Bool
    /// The offset of the end tag's `<`, or of the start tag's `/>` when self-closing.
    package var endTagStart: Int
    /// The offset just past the whole element.
    package var end: Int
    /// The index of the enclosing element, if any.
    package var parent: Int?
  }

  /// The elements in document order.
  package private(set) var elements: [Element] = []

  /// Scans `bytes`, a UTF-8 XML text.
  package init(bytes: [UInt8]) {
    var cursor = Cursor(bytes: bytes)
    cursor.skipByteOrderMark()
    var open: [Int] = []
    while !cursor.isAtEnd {
      guard cursor.current == UInt8(ascii: "<") else {
        cursor.advance()
        continue
      }
      if cursor.hasPrefix("<!--") {
        cursor.skip(past: "-->")
      } else if cursor.hasPrefix("<![CDATA[") {
        cursor.skip(past: "]]>")
      } else if cursor.hasPrefix("<?") {
        cursor.skip(past: "?>")
      } else if cursor.hasPrefix("<!") {
        cursor.skipDeclaration()
      } else if cursor.hasPrefix("</") {
        let endTagStart = cursor.position.offset
        cursor.skip(past: ">")
        if let index = open.popLast() {
          elements[index].endTagStart = endTagStart
          elements[index].end = cursor.position.offset
        }
      } else {
        scanStartTag(&cursor, open: &open)
      }
    }
  }

  private mutating func scanStartTag(_ cursor: inout Cursor, open: inout [Int]) {
    let start = cursor.position
    cursor.advance()
    let name = cursor.readName()
    var attributes: [Attribute] = []
    var selfClosing = false
    var slashOffset = 0
    while !cursor.isAtEnd {
      cursor.skipWhitespace()
      guard let byte = cursor.current else { break }
      if byte == UInt8(ascii: ">") {
        cursor.advance()
        break
      }
      if byte == UInt8(ascii: "/") {
        selfClosing = true
        slashOffset = cursor.position.offset
        cursor.advance()
        continue
      }
      let attributeStart = cursor.position
      let attributeName = cursor.readName()
      if attributeName.isEmpty {
        cursor.advance()
        continue
      }
      cursor.skipWhitespace()
      if cursor.current == UInt8(ascii: "=") { cursor.advance() }
      cursor.skipWhitespace()
      if let quote = cursor.current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
        cursor.advance()
        while let byte = cursor.current, byte != quote { cursor.advance() }
        cursor.advance()
      }
      attributes.append(Attribute(qualifiedName: attributeName, position: attributeStart))
    }
    let end = cursor.position.offset
    elements.append(
      Element(
        qualifiedName: name, start: start, attributes: attributes, startTagEnd: end,
        isSelfClosing: selfClosing, endTagStart: selfClosing ? slashOffset : end,
        end: end, parent: open.last))
    if !selfClosing { open.append(elements.count - 1) }
  }

}

/// A byte cursor that keeps the line and column of its position.
private struct Cursor {
  let bytes: [UInt8]
  private(set) var position = XMLSourceMap.Position(offset: 0, line: 1, column: 1)

  init(bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { position.offset >= bytes.count }
  var current: UInt8? { isAtEnd ? nil : bytes[position.offset] }

  /// Steps over a UTF-8 byte order mark without counting a column for it.
  mutating func skipByteOrderMark() {
    if position.offset == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position.offset = 3 }
  }

  mutating func advance() {
    guard let byte = current else { return }
    position.offset += 1
    if byte == UInt8(ascii: "\n") {
      position.line += 1
      position.column = 1
    } else if let next = current, next & 0xC0 == 0x80 {
      // Inside a multi-byte scalar: the column moves once, on its last byte.
    } else {
      position.column += 1
    }
  }

  func hasPrefix(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard position.offset + count <= bytes.count else { return false }
    let prefix = UnsafeBufferPointer(start: text.utf8Start, count: count)
    for index in 0..<count where bytes[position.offset + index] != prefix[index] {
      return false
    }
    return true
  }

  mutating func skip(past terminator: StaticString) {
    while !isAtEnd, !hasPrefix(terminator) { advance() }
    for _ in 0..<terminator.utf8CodeUnitCount { advance() }
  }

  /// Skips a markup declaration, including a bracketed internal subset.
  mutating func skipDeclaration() {
    var brackets = 0
    while let byte = current {
      advance()
      if byte == UInt8(ascii: "[") { brackets += 1 }
      if byte == UInt8(ascii: "]") { brackets -= 1 }
      if byte == UInt8(ascii: ">"), brackets <= 0 { return }
    }
  }

  mutating func skipWhitespace() {
    while let byte = current,
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    {
      advance()
    }
  }

  mutating func readName() -> String {
    let start = position.offset
    while let byte = current {
      let isDelimiter =
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
      if isDelimiter { break }
      advance()
    }
    return String(decoding: bytes[start..<position.offset], as: UTF8.self)
  }
}
