/// Writes `bplist00` binary property lists, deterministically: the same value always gives the same bytes.
///
/// Scalars (strings, numbers, dates, data, UIDs) are written once and shared,
/// as Apple's writer does; containers are written once per occurrence. Reading
/// what it writes gives an equal value.
///
/// ```swift
/// let bytes = BinaryPropertyListWriter().write(.array([.string("a"), .uid(1)]))
/// ```
package struct BinaryPropertyListWriter: Sendable {
  /// Creates a writer.
  package init() {}

  /// One object to write; a container's references are a range of `Flattener.references`
  /// (a dictionary's keys, then its values), so flattening allocates no array per container.
  private enum Flat {
    case scalar(PropertyListValue)
    /// A string, with whether it is ASCII (known from its hash), so it is not scanned again.
    case string(String, isASCII: Bool)
    case array(start: Int, count: Int)
    case dictionary(start: Int, count: Int)
  }

  private struct Flattener {
    var objects: [Flat] = []
    /// Every container's references, each container's in one run.
    var references: [Int] = []
    // Strings (every dictionary key) and UIDs (every reference in a keyed archive) are most
    // of a list's scalars: each has a table of its own rather than going through
    // PropertyListValue's hashing, with the same equality, so the same scalars are shared.
    var strings = StringTable()
    /// Small UIDs by value: the object index plus one, 0 when not written yet.
    var smallUIDs: [Int] = []
    var uidIndex: [UInt64: Int] = [:]
    var scalarIndex: [PropertyListValue: Int] = [:]
    /// Small integers and booleans by value, so they need no hashing.
    ///
    /// Slots 0 to 255 hold `.integer` 0 to 255, then false and true: the object index plus
    /// one, or 0 when not written yet. Other scalars are hashed in ``scalarIndex``.
    var smallScalars: [Int] = []

    /// UIDs below this are looked up by value in ``smallUIDs``; larger ones are hashed.
    static let smallUIDLimit: UInt64 = 1 << 12

    /// Reserves room for about `count` objects.
    init(expecting count: Int) {
      objects.reserveCapacity(count)
      references.reserveCapacity(2 * count)
    }

    mutating func add(_ value: PropertyListValue) -> Int {
      switch value {
      case .array(let elements):
        let index = objects.count
        objects.append(.array(start: 0, count: 0))
        let start = reserveReferences(elements.count)
        for (position, element) in elements.enumerated() {
          let child = add(element)
          references[start + position] = child
        }
        objects[index] = .array(start: start, count: elements.count)
        return index
      case .dictionary(let dictionary):
        let index = objects.count
        objects.append(.array(start: 0, count: 0))
        let count = dictionary.count
        let start = reserveReferences(2 * count)
        for (position, entry) in dictionary.entries.enumerated() {
          references[start + position] = addString(entry.key)
        }
        for (position, entry) in dictionary.entries.enumerated() {
          let child = add(entry.value)
          references[start + count + position] = child
        }
        objects[index] = .dictionary(start: start, count: count)
        return index
      case .string(let string):
        return addString(string)
      case .uid(let uid):
        return addUID(uid, value)
      case .integer(let number) where (0..<256).contains(number):
        return addSmallScalar(Int(number), value)
      case .bool(let flag):
        return addSmallScalar(flag ? 257 : 256, value)
      default:
        if let existing = scalarIndex[value] {
          return existing
        }
        let index = objects.count
        objects.append(.scalar(value))
        scalarIndex[value] = index
        return index
      }
    }

    /// Finds or writes a small integer or a boolean by its slot in ``smallScalars``.
    private mutating func addSmallScalar(_ slot: Int, _ value: PropertyListValue) -> Int {
      if smallScalars.isEmpty { smallScalars = [Int](repeating: 0, count: 258) }
      if smallScalars[slot] > 0 { return smallScalars[slot] - 1 }
      let index = objects.count
      objects.append(.scalar(value))
      smallScalars[slot] = index + 1
      return index
    }

    /// Appends `count` references to fill in, returning where they start.
    private mutating func reserveReferences(_ count: Int) -> Int {
      let start = references.count
      references.append(contentsOf: repeatElement(0, count: count))
      return start
    }

    private mutating func addUID(_ uid: UInt64, _ value: PropertyListValue) -> Int {
      guard uid < Self.smallUIDLimit else {
        if let existing = uidIndex[uid] { return existing }
        let index = objects.count
        objects.append(.scalar(value))
        uidIndex[uid] = index
        return index
      }
      let slot = Int(uid)
      if slot < smallUIDs.count, smallUIDs[slot] > 0 { return smallUIDs[slot] - 1 }
      if slot >= smallUIDs.count {
        smallUIDs.append(
          contentsOf: repeatElement(0, count: max(slot + 1, 2 * smallUIDs.count) - smallUIDs.count))
      }
      let index = objects.count
      objects.append(.scalar(value))
      smallUIDs[slot] = index + 1
      return index
    }

    mutating func addString(_ string: String) -> Int {
      let key = StringTable.Key(string)
      if let existing = strings.index(of: key) { return existing }
      let index = objects.count
      objects.append(.string(string, isASCII: key.isASCII))
      strings.insert(key, at: index)
      return index
    }
  }

  /// Returns the binary property list for a value.
  package func write(_ value: PropertyListValue) -> [UInt8] {
    var flattener = Flattener(expecting: Self.expectedObjectCount(value))
    let top = flattener.add(value)
    let objects = flattener.objects
    let references = flattener.references
    let referenceSize = Self.byteWidth(UInt64(objects.count))

    var output: [UInt8] = []
    // About a dozen bytes an object (a marker, a few bytes or references, an offset) is typical.
    output.reserveCapacity(64 + 16 * objects.count)
    output.append(contentsOf: "bplist00".utf8)
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(output.count)
      switch object {
      case .scalar(let scalar):
        Self.appendScalar(scalar, to: &output)
      case .string(let string, let isASCII):
        Self.appendString(string, isASCII: isASCII, to: &output)
      case .array(let start, let count):
        Self.appendMarker(0xA0, count: count, to: &output)
        for child in references[start..<(start + count)] {
          Self.appendBigEndian(UInt64(child), width: referenceSize, to: &output)
        }
      case .dictionary(let start, let count):
        // The keys, then the values: one run of 2 × count references.
        Self.appendMarker(0xD0, count: count, to: &output)
        for child in references[start..<(start + 2 * count)] {
          Self.appendBigEndian(UInt64(child), width: referenceSize, to: &output)
        }
      }
    }
    Self.appendOffsetTableAndTrailer(
      offsets, referenceSize: referenceSize, top: top, to: &output)
    return output
  }

  /// Ends a list whose objects are written: the offset table, its entries as wide as the
  /// table's own position needs, then the trailer (offset and reference widths, object count,
  /// top object, table position).
  static func appendOffsetTableAndTrailer(
    _ offsets: [Int], referenceSize: Int, top: Int, to output: inout [UInt8]
  ) {
    let tableOffset = output.count
    let offsetSize = byteWidth(UInt64(tableOffset))
    for offset in offsets {
      appendBigEndian(UInt64(offset), width: offsetSize, to: &output)
    }
    output.append(contentsOf: [0, 0, 0, 0, 0, 0])
    output.append(UInt8(offsetSize))
    output.append(UInt8(referenceSize))
    appendBigEndian(UInt64(offsets.count), width: 8, to: &output)
    appendBigEndian(UInt64(top), width: 8, to: &output)
    appendBigEndian(UInt64(tableOffset), width: 8, to: &output)
  }

  /// A guess at the object count: the top container's values, and the members of its
  /// largest array (a keyed archive's `$objects`), plus one for each key.
  private static func expectedObjectCount(_ value: PropertyListValue) -> Int {
    switch value {
    case .array(let elements): return 1 + elements.count
    case .dictionary(let dictionary):
      var count = 1 + 2 * dictionary.count
      for entry in dictionary.entries {
        if case .array(let elements) = entry.value { count += 2 * elements.count }
      }
      return min(count, 1 << 20)
    default: return 1
    }
  }

  static func byteWidth(_ value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }

  static func appendBigEndian(_ value: UInt64, width: Int, to output: inout [UInt8]) {
    var shift = (width - 1) * 8
    while shift >= 0 {
      output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
      shift -= 8
    }
  }

  static func appendMarker(_ high: UInt8, count: Int, to output: inout [UInt8]) {
    if count < 15 {
      output.append(high | UInt8(count))
    } else {
      output.append(high | 0x0F)
      appendInteger(UInt64(count), to: &output)
    }
  }

  static func appendInteger(_ value: UInt64, to output: inout [UInt8]) {
    let width = byteWidth(value)
    let exponent: UInt8 = width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3
    output.append(0x10 | exponent)
    appendBigEndian(value, width: width, to: &output)
  }

  /// Appends a string object: ASCII as its bytes (marker `0x5`), anything else as UTF-16 (`0x6`).
  static func appendString(_ string: String, isASCII: Bool, to output: inout [UInt8]) {
    if isASCII {
      appendMarker(0x50, count: string.utf8.count, to: &output)
      if string.utf8.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) == nil {
        output.append(contentsOf: string.utf8)
      }
    } else {
      appendMarker(0x60, count: string.utf16.count, to: &output)
      for unit in string.utf16 {
        output.append(UInt8(unit >> 8))
        output.append(UInt8(unit & 0xFF))
      }
    }
  }

  private static func appendScalar(_ value: PropertyListValue, to output: inout [UInt8]) {
    switch value {
    case .bool(let flag):
      output.append(flag ? 0x09 : 0x08)
    case .integer(let number):
      if number >= 0 {
        appendInteger(UInt64(number), to: &output)
      } else {
        output.append(0x13)
        appendBigEndian(UInt64(bitPattern: number), width: 8, to: &output)
      }
    case .unsignedInteger(let number):
      output.append(0x14)
      appendBigEndian(0, width: 8, to: &output)
      appendBigEndian(number, width: 8, to: &output)
    case .real(let number):
      output.append(0x23)
      appendBigEndian(number.bitPattern, width: 8, to: &output)
    case .date(let seconds):
      output.append(0x33)
      appendBigEndian(seconds.bitPattern, width: 8, to: &output)
    case .data(let bytes):
      appendMarker(0x40, count: bytes.count, to: &output)
      output.append(contentsOf: bytes)
    case .string(let string):
      appendString(string, isASCII: string.utf8.allSatisfy { $0 < 0x80 }, to: &output)
    case .uid(let number):
      let width = byteWidth(number)
      output.append(0x80 | UInt8(width - 1))
      appendBigEndian(number, width: width, to: &output)
    case .array, .dictionary:
      // Containers are flattened before this point.
      break
    }
  }
}

/// The strings a `BinaryPropertyListWriter` has written, each with its object index, found by value.
///
/// Equality is `String`'s (canonical equivalence), exactly as a `[String: Int]`
/// would share strings. ASCII strings (nearly every key and class name in a
/// keyed archive) live in an open-addressed table hashed over their bytes
/// with FNV-1a: between two ASCII strings canonical equivalence is byte
/// equality, so this table needs no `Hasher` and no normalization. A
/// non-ASCII string can still equal an ASCII one (U+212A KELVIN SIGN equals
/// `K`), so from the first non-ASCII string on, every string is also kept in,
/// and a miss is looked up in, a `[String: Int]`.
private struct StringTable {
  /// Per slot, the position in ``ascii`` plus one, or 0 when free; the count is a power of two.
  private var slots = [Int](repeating: 0, count: 64)
  /// The ASCII strings in insertion order, with their hashes and object indices.
  private var ascii: [(string: String, hash: UInt64, index: Int)] = []
  /// Every string, once a non-ASCII one has been seen; `nil` until then.
  private var all: [String: Int]?

  /// A string with its hash, computed once for a lookup and the insertion after it.
  struct Key {
    let string: String
    let hash: UInt64
    let isASCII: Bool

    init(_ string: String) {
      self.string = string
      (hash, isASCII) = StringTable.hash(string)
    }
  }

  /// The object index of a string equal to the key's, or `nil`.
  ///
  /// The first non-ASCII key starts the dictionary of every string, before it is looked up,
  /// since it may equal an ASCII string already written.
  mutating func index(of key: Key) -> Int? {
    if key.isASCII {
      if let position = find(key.string, hash: key.hash) { return ascii[position].index }
      return all?[key.string]
    }
    if all == nil { startDictionary() }
    return all?[key.string]
  }

  /// Puts every ASCII string written so far into the dictionary of all strings.
  private mutating func startDictionary() {
    var table: [String: Int] = [:]
    table.reserveCapacity(ascii.count + 1)
    for entry in ascii {
      table[entry.string] = entry.index
    }
    all = table
  }

  /// Records a string that ``index(of:)`` did not find.
  mutating func insert(_ key: Key, at index: Int) {
    let string = key.string
    let hash = key.hash
    if key.isASCII {
      if ascii.isEmpty { ascii.reserveCapacity(slots.count / 2) }
      if 2 * (ascii.count + 1) > slots.count { grow() }
      ascii.append((string, hash, index))
      place(ascii.count - 1, hash: hash)
      all?[string] = index
    } else {
      if all == nil { startDictionary() }
      all?[string] = index
    }
  }

  private func find(_ string: String, hash: UInt64) -> Int? {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 {
      let position = slots[slot] - 1
      if ascii[position].hash == hash && ascii[position].string == string { return position }
      slot = (slot + 1) & mask
    }
    return nil
  }

  private mutating func place(_ position: Int, hash: UInt64) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = position + 1
  }

  private mutating func grow() {
    slots = [Int](repeating: 0, count: 2 * slots.count)
    for position in ascii.indices {
      place(position, hash: ascii[position].hash)
    }
  }

  /// FNV-1a over the UTF-8 bytes, and whether every byte is ASCII.
  static func hash(_ string: String) -> (UInt64, Bool) {
    func fold(_ bytes: some Sequence<UInt8>) -> (UInt64, Bool) {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      var union: UInt8 = 0
      for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        union |= byte
      }
      return (hash, union < 0x80)
    }
    if let result = string.utf8.withContiguousStorageIfAvailable({ fold($0) }) {
      return result
    }
    return fold(string.utf8)
  }
}
