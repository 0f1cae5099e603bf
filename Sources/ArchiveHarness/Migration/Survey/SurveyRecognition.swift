import ArchiveFormat

/// The cheap first look at a value: could it be a keyed archive (a property list by its first
/// bytes), or what else is it? Only candidates are then read with the bounded reader.
enum SurveyRecognition: Equatable {
  /// Starts like a property list: `bplist` magic, or XML that opens a `<plist>`.
  case propertyList(PropertyListFormat)
  /// Something else.
  case other(SurveyOtherKind)

  /// How far into an XML value `<plist` is looked for after `<?xml`.
  static let xmlLookahead = 1024

  /// Recognises a value from its bytes.
  static func recognise(_ bytes: UnsafeRawBufferPointer) -> SurveyRecognition {
    if bytes.count >= 8, bytes[0] == 0x62, bytes[1] == 0x70, bytes[2] == 0x6C,
      bytes[3] == 0x69, bytes[4] == 0x73, bytes[5] == 0x74
    {
      return .propertyList(.binary)  // "bplist"
    }
    if let start = firstMarkup(bytes) {
      if startsWith(bytes, at: start, "<plist") || startsWith(bytes, at: start, "<!DOCTYPE plist") {
        return .propertyList(.xml)
      }
      if startsWith(bytes, at: start, "<?xml") {
        let end = min(bytes.count, start + xmlLookahead)
        if contains(bytes, from: start, to: end, "<plist") { return .propertyList(.xml) }
        return .other(.xml)
      }
    }
    return .other(otherKind(bytes))
  }

  /// The kind of a value that does not start like a property list.
  static func otherKind(_ bytes: UnsafeRawBufferPointer) -> SurveyOtherKind {
    if bytes.isEmpty { return .empty }
    if bytes.count >= 16, startsWith(bytes, at: 0, "SQLite format 3") && bytes[15] == 0 {
      return .sqliteDatabase
    }
    guard isText(bytes) else { return .binary }
    var first = 0
    while first < bytes.count, isSpace(bytes[first]) { first += 1 }
    var last = bytes.count - 1
    while last > first, isSpace(bytes[last]) { last -= 1 }
    if first < bytes.count {
      let open = bytes[first]
      let close = bytes[last]
      if (open == UInt8(ascii: "{") && close == UInt8(ascii: "}"))
        || (open == UInt8(ascii: "[") && close == UInt8(ascii: "]"))
      {
        return .json
      }
      if open == UInt8(ascii: "<"), startsWith(bytes, at: first, "<?xml") { return .xml }
    }
    return .text
  }

  /// Where markup starts after a UTF-8 byte-order mark and white space, if it starts with `<`.
  private static func firstMarkup(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var index = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    return index < bytes.count && bytes[index] == UInt8(ascii: "<") ? index : nil
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func startsWith(_ bytes: UnsafeRawBufferPointer, at start: Int, _ text: String)
    -> Bool
  {
    let pattern = Array(text.utf8)
    guard bytes.count - start >= pattern.count else { return false }
    for (offset, byte) in pattern.enumerated() where bytes[start + offset] != byte {
      return false
    }
    return true
  }

  private static func contains(
    _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, _ text: String
  ) -> Bool {
    let pattern = Array(text.utf8)
    guard end - start >= pattern.count else { return false }
    for index in start...(end - pattern.count) where bytes[index] == pattern[0] {
      if startsWith(bytes, at: index, text) { return true }
    }
    return false
  }

  /// Whether the bytes are UTF-8 text without control characters other than tab and line breaks.
  ///
  /// Sequences are checked for their lead and continuation bytes; overlong forms and
  /// surrogates are not told apart, which is enough to name a kind.
  private static func isText(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte < 0x80 {
        if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F {
          return false
        }
        index += 1
        continue
      }
      let length: Int
      switch byte {
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: return false
      }
      guard index + length <= count else { return false }
      for next in (index + 1)..<(index + length) where bytes[next] & 0xC0 != 0x80 {
        return false
      }
      index += length
    }
    return true
  }
}
