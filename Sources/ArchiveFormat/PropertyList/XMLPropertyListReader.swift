/// Reads XML property lists (`<plist version="1.0">`) with a small, bounded, non-validating scanner.
///
/// It accepts exactly the property-list vocabulary. It never loads a DTD,
/// never expands an entity other than the five predefined ones and character
/// references, and refuses an internal DTD subset, so entity bombs and
/// external entities cannot reach it.
struct XMLPropertyListReader: ~Copyable {
  private let bytes: UnsafeRawBufferPointer
  private let limits: PropertyListLimits
  /// Whether a dictionary that repeats a key is an error rather than keeping the last value.
  private let refusesRepeatedKeys: Bool
  private var position = 0
  private var valueCount = 0

  init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits, refusesRepeatedKeys: Bool = false)
  {
    self.bytes = bytes
    self.limits = limits
    self.refusesRepeatedKeys = refusesRepeatedKeys
  }

  /// Whether the bytes look like an XML document (after an optional BOM and white space).
  static func looksLikeXML(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      index = 3
    }
    while index < bytes.count, isSpace(bytes[index]) {
      index += 1
    }
    return index < bytes.count && bytes[index] == UInt8(ascii: "<")
  }

  mutating func read() throws(PropertyListError) -> PropertyListValue {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      position = 3
    }
    try skipMisc(allowDoctype: true)
    let (name, selfClosing, tagStart) = try readStartTag()
    let value: PropertyListValue
    if name == "plist" {
      guard !selfClosing else {
        throw error(at: tagStart, "the plist element is empty")
      }
      try skipMisc(allowDoctype: false)
      let (inner, innerClosing, innerStart) = try readStartTag()
      value = try readValue(named: inner, selfClosing: innerClosing, at: innerStart, depth: 0)
      try skipMisc(allowDoctype: false)
      try readEndTag("plist")
    } else {
      value = try readValue(named: name, selfClosing: selfClosing, at: tagStart, depth: 0)
    }
    try skipMisc(allowDoctype: false)
    guard position == bytes.count else {
      throw error(at: position, "content after the end of the property list")
    }
    return value
  }

  // MARK: - Values

  private mutating func readValue(
    named name: String, selfClosing: Bool, at start: Int, depth: Int
  ) throws(PropertyListError) -> PropertyListValue {
    guard depth <= limits.maximumDepth else {
      throw PropertyListError(
        .limitExceeded, at: start, line: lineColumn(start).line, column: lineColumn(start).column,
        "nesting deeper than the limit of \(limits.maximumDepth) levels")
    }
    valueCount += 1
    guard valueCount <= limits.maximumObjectCount else {
      throw PropertyListError(
        .limitExceeded, at: start, line: lineColumn(start).line, column: lineColumn(start).column,
        "more than the limit of \(limits.maximumObjectCount) values")
    }
    switch name {
    case "dict":
      return try readDictionary(selfClosing: selfClosing, at: start, depth: depth)
    case "array":
      var elements: [PropertyListValue] = []
      if selfClosing { return .array(elements) }
      while true {
        try skipMisc(allowDoctype: false)
        if try atEndTag() {
          try readEndTag("array")
          return .array(elements)
        }
        let (child, childClosing, childStart) = try readStartTag()
        guard elements.count < limits.maximumContainerCount else {
          throw error(
            at: childStart,
            "array of more than the limit of \(limits.maximumContainerCount) elements",
            code: .limitExceeded)
        }
        elements.append(
          try readValue(named: child, selfClosing: childClosing, at: childStart, depth: depth + 1))
      }
    case "string":
      return .string(selfClosing ? "" : try readText(closing: "string"))
    case "key":
      throw error(at: start, "a key outside a dictionary")
    case "integer":
      let text = selfClosing ? "" : try readText(closing: "integer")
      return try parseInteger(text, at: start)
    case "real":
      let text = trimmed(selfClosing ? "" : try readText(closing: "real"))
      guard let value = parseReal(text) else {
        throw error(at: start, "'\(text.prefix(40))' is not a real number", code: .invalidNumber)
      }
      return .real(value)
    case "true", "false":
      if !selfClosing {
        let text = try readText(closing: name)
        guard trimmed(text).isEmpty else {
          throw error(at: start, "the \(name) element must be empty")
        }
      }
      return .bool(name == "true")
    case "date":
      let text = trimmed(selfClosing ? "" : try readText(closing: "date"))
      guard let seconds = ISO8601.parse(text) else {
        throw error(at: start, "'\(text.prefix(40))' is not an ISO 8601 date", code: .invalidNumber)
      }
      return .date(seconds)
    case "data":
      let text = selfClosing ? "" : try readText(closing: "data")
      guard let decoded = Base64.decode(text) else {
        throw error(at: start, "data element is not valid base64")
      }
      return .data(decoded)
    default:
      throw error(at: start, "unknown element <\(name.prefix(40))>")
    }
  }

  private mutating func readDictionary(
    selfClosing: Bool, at start: Int, depth: Int
  ) throws(PropertyListError) -> PropertyListValue {
    var dictionary = PropertyListDictionary()
    if selfClosing { return .dictionary(dictionary) }
    // Positions of the keys read so far, so that a repeated key costs no scan.
    var positions: [String: Int] = [:]
    while true {
      try skipMisc(allowDoctype: false)
      if try atEndTag() {
        try readEndTag("dict")
        break
      }
      let (keyTag, keyClosing, keyStart) = try readStartTag()
      guard keyTag == "key" else {
        throw error(at: keyStart, "expected <key> in a dictionary, found <\(keyTag.prefix(40))>")
      }
      let key = keyClosing ? "" : try readText(closing: "key")
      try skipMisc(allowDoctype: false)
      let (valueTag, valueClosing, valueStart) = try readStartTag()
      guard dictionary.count < limits.maximumContainerCount else {
        throw error(
          at: valueStart,
          "dictionary of more than the limit of \(limits.maximumContainerCount) entries",
          code: .limitExceeded)
      }
      let value = try readValue(
        named: valueTag, selfClosing: valueClosing, at: valueStart, depth: depth + 1)
      if let position = positions[key] {
        if refusesRepeatedKeys {
          let (line, column) = lineColumn(keyStart)
          let repeated = BinaryPropertyListReader.repeatedKey(key, at: keyStart)
          throw PropertyListError(
            repeated.code, at: keyStart, line: line, column: column, repeated.message)
        }
        dictionary.replaceValue(at: position, with: value)
      } else {
        positions[key] = dictionary.count
        dictionary.appendUnchecked(key: key, value: value)
      }
    }
    // The XML form of a keyed-archive UID: <dict><key>CF$UID</key><integer>n</integer></dict>.
    if dictionary.count == 1, let only = dictionary.entries.first, only.key == "CF$UID" {
      switch only.value {
      case .integer(let value) where value >= 0 && value <= Int64(UInt32.max):
        return .uid(UInt64(value))
      default:
        break
      }
    }
    return .dictionary(dictionary)
  }

  private func parseInteger(_ raw: String, at start: Int) throws(PropertyListError)
    -> PropertyListValue
  {
    let text = trimmed(raw)
    var digits = Substring(text)
    var negative = false
    if digits.hasPrefix("-") {
      negative = true
      digits = digits.dropFirst()
    } else if digits.hasPrefix("+") {
      digits = digits.dropFirst()
    }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else {
      throw error(at: start, "'\(text.prefix(40))' is not an integer", code: .invalidNumber)
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw error(
          at: start, "'\(text.prefix(40))' is below the 64-bit range", code: .invalidNumber)
      }
      return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
    }
    return .integer(unsigned: magnitude)
  }

  private func parseReal(_ text: String) -> Double? {
    switch text.lowercased() {
    case "nan": return .nan
    case "inf", "+inf", "infinity", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default:
      guard !text.isEmpty, text.utf8.allSatisfy({ Self.isRealCharacter($0) }) else { return nil }
      return Double(text)
    }
  }

  private static func isRealCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
      UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
      return true
    default:
      return false
    }
  }

  // MARK: - Markup

  /// Skips white space, comments and processing instructions, and a DOCTYPE where allowed.
  private mutating func skipMisc(allowDoctype: Bool) throws(PropertyListError) {
    while true {
      while position < bytes.count, Self.isSpace(bytes[position]) {
        position += 1
      }
      // Fast path: the next thing is an element or text, not markup to skip.
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "<"),
        bytes[position + 1] == UInt8(ascii: "?") || bytes[position + 1] == UInt8(ascii: "!")
      else { return }
      if hasPrefix("<?") {
        try skip(past: "?>", from: position, what: "processing instruction")
      } else if hasPrefix("<!--") {
        try skip(past: "-->", from: position, what: "comment")
      } else if hasPrefix("<!DOCTYPE") {
        guard allowDoctype else {
          throw error(at: position, "a DOCTYPE after the document started")
        }
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
          if bytes[position] == UInt8(ascii: "[") {
            throw error(
              at: position,
              "an internal DTD subset is not allowed (entities are never expanded)")
          }
          position += 1
        }
        guard position < bytes.count else {
          throw error(at: start, "unterminated DOCTYPE", code: .truncated)
        }
        position += 1
      } else {
        return
      }
    }
  }

  private mutating func skip(past terminator: String, from start: Int, what: String)
    throws(PropertyListError)
  {
    let needle = Array(terminator.utf8)
    var index = start
    while index + needle.count <= bytes.count {
      if bytes[index] == needle[0], matches(needle, at: index) {
        position = index + needle.count
        return
      }
      index += 1
    }
    throw error(at: start, "unterminated \(what)", code: .truncated)
  }

  private func matches(_ needle: [UInt8], at index: Int) -> Bool {
    guard index + needle.count <= bytes.count else { return false }
    for offset in 0..<needle.count where bytes[index + offset] != needle[offset] {
      return false
    }
    return true
  }

  private func hasPrefix(_ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    let start = prefix.utf8Start
    for offset in 0..<count where bytes[position + offset] != start[offset] {
      return false
    }
    return true
  }

  private func atEndTag() throws(PropertyListError) -> Bool {
    guard position < bytes.count else {
      throw error(at: position, "unexpected end of document", code: .truncated)
    }
    return hasPrefix("</")
  }

  /// Reads `<name attr="…">` or `<name/>`, returning the name, whether it closed itself, and where it began.
  private mutating func readStartTag() throws(PropertyListError) -> (String, Bool, Int) {
    let start = position
    guard position < bytes.count else {
      throw error(at: position, "unexpected end of document", code: .truncated)
    }
    guard bytes[position] == UInt8(ascii: "<"), !hasPrefix("</") else {
      throw error(at: position, "expected an element")
    }
    position += 1
    let name = readName()
    guard !name.isEmpty else {
      throw error(at: start, "expected an element name")
    }
    // Fast paths: `<name>` and `<name/>`, the plist vocabulary's usual forms.
    if position < bytes.count, bytes[position] == UInt8(ascii: ">") {
      position += 1
      return (name, false, start)
    }
    if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "/"),
      bytes[position + 1] == UInt8(ascii: ">")
    {
      position += 2
      return (name, true, start)
    }
    // Attributes are skipped; quoted values may hold '>'.
    var quote: UInt8? = nil
    while position < bytes.count {
      let byte = bytes[position]
      if let open = quote {
        if byte == open { quote = nil }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
      } else if byte == UInt8(ascii: ">") {
        let selfClosing = position > start && bytes[position - 1] == UInt8(ascii: "/")
        position += 1
        return (name, selfClosing, start)
      } else if byte == UInt8(ascii: "<") {
        throw error(at: position, "'<' inside the tag <\(name.prefix(40))>")
      }
      position += 1
    }
    throw error(at: start, "unterminated tag <\(name.prefix(40))>", code: .truncated)
  }

  private mutating func readEndTag(_ name: String) throws(PropertyListError) {
    let start = position
    guard hasPrefix("</") else {
      throw error(at: position, "expected </\(name)>")
    }
    position += 2
    // Compare the name in place; build a string only for the error message.
    var matched = true
    for byte in name.utf8 {
      guard position < bytes.count, bytes[position] == byte else {
        matched = false
        break
      }
      position += 1
    }
    while matched, position < bytes.count, Self.isSpace(bytes[position]) {
      position += 1
    }
    guard matched, position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
      position = start + 2
      let found = readName()
      throw error(at: start, "expected </\(name)>, found </\(found.prefix(40))")
    }
    position += 1
  }

  private mutating func readName() -> String {
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      if Self.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
        || byte == UInt8(ascii: "<")
      {
        break
      }
      position += 1
    }
    return String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }

  /// Reads character data up to `</closing>`, decoding references and CDATA sections.
  private mutating func readText(closing: String) throws(PropertyListError) -> String {
    let start = position
    // Fast path: plain text up to '<' with no references, the common case.
    var scan = position
    while scan < bytes.count, bytes[scan] != UInt8(ascii: "<"), bytes[scan] != UInt8(ascii: "&") {
      scan += 1
    }
    if scan < bytes.count, bytes[scan] == UInt8(ascii: "<"), scan + 1 < bytes.count,
      bytes[scan + 1] == UInt8(ascii: "/")
    {
      guard scan - start <= limits.maximumStringLength else {
        throw error(
          at: start, "text longer than the limit of \(limits.maximumStringLength) bytes",
          code: .limitExceeded)
      }
      guard
        let text = String(validUTF8: UnsafeRawBufferPointer(rebasing: bytes[start..<scan]))
      else {
        throw error(at: start, "text is not valid UTF-8", code: .invalidString)
      }
      position = scan
      try readEndTag(closing)
      return text
    }
    var output: [UInt8] = []
    while true {
      // Checked on every turn, so that references and CDATA count too.
      guard output.count <= limits.maximumStringLength else {
        throw error(
          at: start, "text longer than the limit of \(limits.maximumStringLength) bytes",
          code: .limitExceeded)
      }
      guard position < bytes.count else {
        throw error(at: start, "unterminated <\(closing)> element", code: .truncated)
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: "<") {
        if hasPrefix("<![CDATA[") {
          let contentStart = position + 9
          try skip(past: "]]>", from: contentStart, what: "CDATA section")
          output.append(contentsOf: bytes[contentStart..<(position - 3)])
          continue
        }
        if hasPrefix("<!--") {
          try skip(past: "-->", from: position, what: "comment")
          continue
        }
        try readEndTag(closing)
        break
      }
      if byte == UInt8(ascii: "&") {
        try readReference(into: &output)
        continue
      }
      output.append(byte)
      position += 1
    }
    guard output.count <= limits.maximumStringLength else {
      throw error(
        at: start, "text longer than the limit of \(limits.maximumStringLength) bytes",
        code: .limitExceeded)
    }
    guard let text = String(validUTF8: output) else {
      throw error(at: start, "text is not valid UTF-8", code: .invalidString)
    }
    return text
  }

  private mutating func readReference(into output: inout [UInt8]) throws(PropertyListError) {
    let start = position
    var end = position + 1
    while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") {
      end += 1
    }
    guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
      throw error(at: start, "unterminated entity reference")
    }
    let name = String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)
    position = end + 1
    let scalar: Unicode.Scalar?
    switch name {
    case "lt": scalar = "<"
    case "gt": scalar = ">"
    case "amp": scalar = "&"
    case "quot": scalar = "\""
    case "apos": scalar = "'"
    default:
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
      } else if name.hasPrefix("#") {
        scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
      } else {
        throw error(at: start, "unknown entity '&\(name);' (only predefined entities are expanded)")
      }
    }
    guard let scalar else {
      throw error(
        at: start, "character reference '&\(name);' is not a Unicode scalar", code: .invalidString)
    }
    output.append(contentsOf: String(Character(scalar)).utf8)
  }

  private func trimmed(_ text: String) -> String {
    let view = text.utf8
    guard let first = view.firstIndex(where: { !Self.isSpace($0) }),
      let last = view.lastIndex(where: { !Self.isSpace($0) })
    else { return "" }
    return String(text[first...last])
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private func lineColumn(_ offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    var index = 0
    let end = min(offset, bytes.count)
    while index < end {
      if bytes[index] == 0x0A {
        line += 1
        column = 1
      } else {
        column += 1
      }
      index += 1
    }
    return (line, column)
  }

  private func error(
    at offset: Int, _ message: String, code: PropertyListError.Code = .invalidXML
  ) -> PropertyListError {
    let (line, column) = lineColumn(offset)
    return PropertyListError(code, at: offset, line: line, column: column, message)
  }
}
