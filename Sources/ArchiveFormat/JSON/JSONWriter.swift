/// Writes JSON text a token at a time into a byte buffer, handing it to a sink in chunks as it grows.
///
/// Every JSON text of the harness is written by this one writer: `JSONValue`
/// renders through it, and a large document (`inspect --format json`) is
/// streamed through it without a value tree or a whole-document string.
/// Pretty output indents with two spaces, one member or element a line;
/// empty containers stay `{}` and `[]`. With sorted keys, an object's members
/// are reordered by key (by UTF-8 bytes) when the object is closed, so a
/// sorted document is handed to the sink only once its outermost object is
/// closed, unless that object is opened with ``beginObjectInKeyOrder()``: its
/// members, written by the caller in key order, go to the sink as they finish.
///
/// ```swift
/// var writer = JSONWriter(sortedKeys: false, pretty: false)
/// writer.beginObject()
/// writer.key("name")
/// writer.write(.string("Ada"))
/// writer.endObject()
/// writer.text()  // {"name":"Ada"}
/// ```
package struct JSONWriter {
  /// Whether object members are sorted by key (by UTF-8 bytes) when each object is closed.
  package let sortedKeys: Bool
  /// Whether the text is indented, one member or element a line.
  package let pretty: Bool

  private var bytes: [UInt8] = []
  private var depth = 0
  /// Whether the innermost open container has no member or element yet.
  private var isEmpty = true
  /// Whether a key was just written, so the next value follows it directly.
  private var afterKey = false
  /// For each open object when keys are sorted: its members' keys and where each begins, or
  /// `nil` for an object whose members come in key order already.
  private var openObjects: [[(key: String, start: Int)]?] = []
  /// How many of the open objects wait to be sorted; nothing is handed to the sink meanwhile.
  private var objectsToSort = 0
  private let chunkSize: Int
  /// ``indentationLine``, held here so that each line break reads no global.
  private let indentation = JSONWriter.indentationLine
  private let sink: ((String) -> Void)?

  /// Creates a writer.
  ///
  /// - Parameters:
  ///   - sortedKeys: Sorts object members by key (by UTF-8 bytes), for stable output.
  ///   - pretty: Indents with two spaces, one member or element a line.
  ///   - chunkSize: How many bytes collect before they go to the sink.
  ///   - sink: Receives the text in chunks, each ending between two tokens; `nil` keeps it all
  ///     for ``text()``.
  package init(
    sortedKeys: Bool = true, pretty: Bool = true, chunkSize: Int = 1 << 16,
    sink: ((String) -> Void)? = nil
  ) {
    self.sortedKeys = sortedKeys
    self.pretty = pretty
    self.chunkSize = max(1, chunkSize)
    self.sink = sink
    bytes.reserveCapacity(sink == nil ? 256 : self.chunkSize + 4096)
  }

  /// Opens an object, as a value: after a key, as an array element, or at the top.
  package mutating func beginObject() {
    beginValue()
    bytes.append(UInt8(ascii: "{"))
    open()
    if sortedKeys {
      openObjects.append([])
      objectsToSort += 1
    }
  }

  /// Opens an object whose members the caller writes in key order (by UTF-8 bytes) already.
  ///
  /// Its members are not held back to be sorted, so with a sink a long
  /// document streams: each finished member can be handed on while the
  /// object is still open. Objects inside it are sorted as usual. The text
  /// is the one ``beginObject()`` gives when the keys come in that order.
  ///
  /// ```swift
  /// var writer = JSONWriter(sink: { chunk in print(chunk, terminator: "") })
  /// writer.beginObjectInKeyOrder()
  /// writer.key("cases")
  /// writer.beginArray()  // elements go to the sink as the buffer fills
  /// writer.endArray()
  /// writer.key("summary")
  /// writer.write(.object([("total", .integer(0))]))
  /// writer.endObject()
  /// writer.endLine()
  /// ```
  package mutating func beginObjectInKeyOrder() {
    beginValue()
    bytes.append(UInt8(ascii: "{"))
    open()
    if sortedKeys { openObjects.append(nil) }
  }

  /// Closes the innermost object, sorting its members first when keys are sorted.
  package mutating func endObject() {
    if sortedKeys, let last = openObjects.popLast(), let members = last {
      objectsToSort -= 1
      if members.count > 1 { sortMembers(members) }
    }
    close(UInt8(ascii: "}"))
  }

  /// Opens an array, as a value: after a key, as an array element, or at the top.
  package mutating func beginArray() {
    beginValue()
    bytes.append(UInt8(ascii: "["))
    open()
  }

  /// Closes the innermost array.
  package mutating func endArray() {
    close(UInt8(ascii: "]"))
  }

  /// Writes the next member's key in the innermost object; its value follows.
  ///
  /// - Parameter name: The member's name, escaped as a JSON string.
  package mutating func key(_ name: String) {
    beginKey(name)
    appendString(name)
    endKey()
  }

  /// Writes the next member's key from UTF-8 bytes, which must be valid UTF-8; its value follows.
  ///
  /// The text equals ``key(_:)``'s for the same string, without making one:
  /// a reader can write keys straight from the bytes it holds.
  ///
  /// ```swift
  /// Array("name".utf8).withUnsafeBufferPointer { writer.key(utf8: $0) }
  /// ```
  ///
  /// - Parameter utf8: The key's bytes, valid UTF-8 (ASCII is).
  package mutating func key(utf8: UnsafeBufferPointer<UInt8>) {
    beginKey(String(decoding: utf8, as: UTF8.self))
    appendString(utf8: utf8)
    endKey()
  }

  /// Writes a string value from UTF-8 bytes, which must be valid UTF-8.
  ///
  /// The text equals `write(.string(…))`'s for the same string, without making one.
  ///
  /// ```swift
  /// Array("Ada".utf8).withUnsafeBufferPointer { writer.string(utf8: $0) }
  /// ```
  ///
  /// - Parameter utf8: The string's bytes, valid UTF-8 (ASCII is).
  package mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
    beginValue()
    appendString(utf8: utf8)
  }

  /// Everything before a key's text: a full chunk to the sink, the key's place kept for
  /// sorting (its name made only when keys are sorted), and the separator.
  private mutating func beginKey(_ name: @autoclosure () -> String) {
    flushIfFull()
    if sortedKeys, let last = openObjects.indices.last, openObjects[last] != nil {
      openObjects[last]?.append((name(), bytes.count))
    }
    separate()
  }

  /// The colon after a key, and a space when pretty.
  private mutating func endKey() {
    if pretty {
      bytes.append(UInt8(ascii: ":"))
      bytes.append(UInt8(ascii: " "))
    } else {
      bytes.append(UInt8(ascii: ":"))
    }
    afterKey = true
  }

  /// Writes a whole value: after a key, as an array element, or at the top.
  ///
  /// - Parameter value: The value; its objects' members are sorted if ``sortedKeys`` is set.
  package mutating func write(_ value: JSONValue) {
    switch value {
    case .object(let members):
      beginObject()
      for (name, member) in members {
        key(name)
        write(member)
      }
      endObject()
    case .array(let elements):
      beginArray()
      for element in elements { write(element) }
      endArray()
    case .string(let string):
      beginValue()
      appendString(string)
    case .integer(let number):
      beginValue()
      if number < 0 { bytes.append(UInt8(ascii: "-")) }
      appendDigits(number.magnitude)
    case .unsignedInteger(let number):
      beginValue()
      appendDigits(number)
    case .number(let number):
      beginValue()
      bytes.append(contentsOf: JSONValue.numberText(number).utf8)
    case .bool(let flag):
      beginValue()
      bytes.append(contentsOf: flag ? Self.trueText : Self.falseText)
    case .null:
      beginValue()
      bytes.append(contentsOf: Self.nullText)
    }
  }

  /// Ends the text with a line feed and hands everything written so far to the sink.
  package mutating func endLine() {
    bytes.append(UInt8(ascii: "\n"))
    flush()
  }

  /// Hands everything written so far to the sink, if there is one.
  package mutating func flush() {
    guard let sink, !bytes.isEmpty else { return }
    sink(String(decoding: bytes, as: UTF8.self))
    bytes.removeAll(keepingCapacity: true)
  }

  /// The text written and not yet handed to a sink: the whole document when there is none.
  ///
  /// - Returns: The text.
  package func text() -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  // MARK: - Structure

  private static let trueText = Array("true".utf8)
  private static let falseText = Array("false".utf8)
  private static let nullText = Array("null".utf8)

  /// Starts a value: nothing after a key, else a separator inside a container.
  private mutating func beginValue() {
    if afterKey {
      afterKey = false
      return
    }
    flushIfFull()
    if depth > 0 { separate() }
  }

  /// The comma before every member or element but the first, and the line break when pretty.
  private mutating func separate() {
    if !isEmpty { bytes.append(UInt8(ascii: ",")) }
    isEmpty = false
    if pretty { newline(depth) }
  }

  private mutating func open() {
    depth += 1
    isEmpty = true
  }

  private mutating func close(_ bracket: UInt8) {
    depth -= 1
    if !isEmpty && pretty { newline(depth) }
    bytes.append(bracket)
    isEmpty = false
  }

  /// A line feed and the indentation of a level, for the usual depths.
  private static let indentationLine =
    [UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: 128)

  private mutating func newline(_ level: Int) {
    let width = 2 * level
    if width < indentation.count {
      indentation.withUnsafeBufferPointer { line in
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[...width]))
      }
    } else {
      bytes.append(UInt8(ascii: "\n"))
      bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width))
    }
  }

  /// Appends the decimal digits of a number, without making a string.
  private mutating func appendDigits(_ number: UInt64) {
    guard number >= 10 else {
      bytes.append(UInt8(ascii: "0") + UInt8(number))
      return
    }
    // UInt64.max has 20 digits.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var rest = number
      var start = 20
      while rest > 0 {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// Sends full chunks to the sink; only while no object waits to be sorted.
  private mutating func flushIfFull() {
    guard sink != nil, bytes.count >= chunkSize, objectsToSort == 0 else { return }
    flush()
  }

  /// Reorders the members of the object just written, from the first key to the end of the buffer.
  ///
  /// Each member's bytes run from its separator (`,` and the line break) to the next
  /// member's; the first has no comma, so commas are taken off and put back in the new order.
  private mutating func sortMembers(_ members: [(key: String, start: Int)]) {
    let order = members.indices.sorted {
      members[$0].key.utf8.lexicographicallyPrecedes(members[$1].key.utf8)
    }
    guard order != Array(members.indices) else { return }
    let end = bytes.count
    var sorted: [UInt8] = []
    sorted.reserveCapacity(end - members[0].start)
    for (position, index) in order.enumerated() {
      var start = members[index].start
      if index > 0 { start += 1 }  // the comma
      if position > 0 { sorted.append(UInt8(ascii: ",")) }
      let stop = index + 1 < members.count ? members[index + 1].start : end
      sorted.append(contentsOf: bytes[start..<stop])
    }
    bytes.replaceSubrange(members[0].start..<end, with: sorted)
  }

  // MARK: - Strings

  /// Appends a JSON string: quotes, backslashes and control characters escaped, the rest as it is.
  private mutating func appendString(_ string: String) {
    var string = string
    string.withUTF8 { appendString(utf8: $0) }
  }

  /// Appends a JSON string from valid UTF-8 bytes, escaped as ``appendString(_:)`` escapes.
  private mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    var run = 0
    for index in utf8.indices {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
      appendEscape(byte)
      run = index + 1
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func appendEscape(_ byte: UInt8) {
    let short: UInt8? =
      switch byte {
      case UInt8(ascii: "\""): UInt8(ascii: "\"")
      case UInt8(ascii: "\\"): UInt8(ascii: "\\")
      case UInt8(ascii: "\n"): UInt8(ascii: "n")
      case UInt8(ascii: "\r"): UInt8(ascii: "r")
      case UInt8(ascii: "\t"): UInt8(ascii: "t")
      case 0x08: UInt8(ascii: "b")
      case 0x0C: UInt8(ascii: "f")
      default: nil
      }
    bytes.append(UInt8(ascii: "\\"))
    if let short {
      bytes.append(short)
    } else {
      bytes.append(UInt8(ascii: "u"))
      bytes.append(contentsOf: Hex.digits(UInt16(byte)).utf8)
    }
  }
}
