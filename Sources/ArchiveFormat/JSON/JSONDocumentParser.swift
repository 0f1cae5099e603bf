/// A strict RFC 8259 parser over UTF-8 bytes, with a nesting limit.
struct JSONDocumentParser {
  private let bytes: [UInt8]
  private var position = 0
  private let maximumDepth = 512

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func parseDocument() throws(JSONDocumentError) -> JSONDocument {
    let value = try parseValue(depth: 0)
    skipWhitespace()
    guard position == bytes.count else { throw failure("text after the value") }
    return value
  }

  private func failure(_ message: String) -> JSONDocumentError {
    JSONDocumentError(offset: position, message: message)
  }

  private mutating func skipWhitespace() {
    while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
      position += 1
    }
  }

  private mutating func parseValue(depth: Int) throws(JSONDocumentError) -> JSONDocument {
    guard depth < maximumDepth else { throw failure("nesting deeper than \(maximumDepth)") }
    skipWhitespace()
    guard position < bytes.count else { throw failure("the text ends where a value should start") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    default: return try parseNumber()
    }
  }

  private mutating func parseLiteral(_ word: String, _ value: JSONDocument)
    throws(JSONDocumentError) -> JSONDocument
  {
    let spelled = Array(word.utf8)
    guard bytes[position...].starts(with: spelled) else { throw failure("unknown literal") }
    position += spelled.count
    return value
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONDocumentError) {
    skipWhitespace()
    guard position < bytes.count, bytes[position] == byte else { throw failure("expected \(what)") }
    position += 1
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  private mutating func parseObject(depth: Int) throws(JSONDocumentError) -> JSONDocument {
    position += 1
    var members: [String: JSONDocument] = [:]
    if consume(UInt8(ascii: "}")) { return .object(members) }
    repeat {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw failure("expected a member name")
      }
      let start = position
      let name = try parseString()
      guard members[name] == nil else {
        throw JSONDocumentError(offset: start, message: "duplicate member '\(name)'")
      }
      try expect(UInt8(ascii: ":"), "':' after a member name")
      members[name] = try parseValue(depth: depth + 1)
    } while consume(UInt8(ascii: ","))
    try expect(UInt8(ascii: "}"), "',' or '}' in an object")
    return .object(members)
  }

  private mutating func parseArray(depth: Int) throws(JSONDocumentError) -> JSONDocument {
    position += 1
    var elements: [JSONDocument] = []
    if consume(UInt8(ascii: "]")) { return .array(elements) }
    repeat {
      elements.append(try parseValue(depth: depth + 1))
    } while consume(UInt8(ascii: ","))
    try expect(UInt8(ascii: "]"), "',' or ']' in an array")
    return .array(elements)
  }

  private mutating func parseString() throws(JSONDocumentError) -> String {
    position += 1
    var scalars = String.UnicodeScalarView()
    var run = position
    func flush(_ end: Int) {
      scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
    }
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        flush(position)
        position += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush(position)
        position += 1
        scalars.append(try parseEscape())
        run = position
      case 0..<0x20:
        throw failure("a control character inside a string")
      default:
        position += 1
      }
    }
    throw failure("the text ends inside a string")
  }

  private mutating func parseEscape() throws(JSONDocumentError) -> Unicode.Scalar {
    guard position < bytes.count else { throw failure("the text ends inside an escape") }
    let byte = bytes[position]
    position += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try parseHexUnit()
      if (0xD800..<0xDC00).contains(unit) {
        guard bytes[position...].starts(with: Array("\\u".utf8)) else {
          throw failure("a high surrogate without its low surrogate")
        }
        position += 2
        let low = try parseHexUnit()
        guard (0xDC00..<0xE000).contains(low),
          let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        else { throw failure("a high surrogate without its low surrogate") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(unit) else { throw failure("a lone low surrogate") }
      return scalar
    default:
      throw failure("an unknown escape")
    }
  }

  private mutating func parseHexUnit() throws(JSONDocumentError) -> UInt32 {
    guard position + 4 <= bytes.count,
      let unit = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
    else { throw failure("a \\u escape without four hexadecimal digits") }
    position += 4
    return unit
  }

  private mutating func parseNumber() throws(JSONDocumentError) -> JSONDocument {
    let start = position
    func digits() -> Int {
      let first = position
      while position < bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
      {
        position += 1
      }
      return position - first
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
    let integerStart = position
    let integerDigits = digits()
    guard integerDigits > 0 else { throw failure("an unexpected character") }
    guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
      throw failure("a number with a leading zero")
    }
    var isIntegerLiteral = true
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      isIntegerLiteral = false
      guard digits() > 0 else { throw failure("a fraction without digits") }
    }
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
    {
      position += 1
      isIntegerLiteral = false
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard digits() > 0 else { throw failure("an exponent without digits") }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isIntegerLiteral {
      // Exact or refused, never rounded through a double: a rowid or a key above 2^53 must
      // come back as the value written. `-0` is the integer 0.
      if let value = Int64(text) { return .integer(value) }
      if let value = UInt64(text) { return .unsignedInteger(value) }
      throw JSONDocumentError(
        offset: start,
        message: "an integer outside the 64-bit range (\(Int64.min) to \(UInt64.max))")
    }
    guard let value = Double(text), value.isFinite else {
      throw JSONDocumentError(offset: start, message: "a number that does not fit a double")
    }
    return .number(value)
  }
}
