/// Assembles `bplist00` bytes from raw object encodings, with a trailer the test controls.
///
/// Tests use it to write malformed lists that no writer would produce:
/// offsets outside the file, absurd counts, unusual integer widths.
package struct BinaryPlistBuilder {
  /// The raw encoding of each object, marker byte first.
  package var objects: [[UInt8]]
  /// The top object index.
  package var top: UInt64 = 0
  /// The offset-table entry size; `nil` picks the smallest that fits.
  package var offsetSize: UInt8? = nil
  /// The object reference size.
  package var referenceSize: UInt8 = 1
  /// Overrides the declared object count.
  package var declaredObjectCount: UInt64? = nil
  /// Overrides the declared offset-table offset.
  package var declaredTableOffset: UInt64? = nil
  /// Overrides individual offset-table entries, by object index.
  package var offsetOverrides: [Int: UInt64] = [:]

  /// Creates a builder over raw objects.
  package init(objects: [[UInt8]]) {
    self.objects = objects
  }

  /// The assembled bytes.
  package func build() -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt64] = []
    for object in objects {
      offsets.append(UInt64(bytes.count))
      bytes.append(contentsOf: object)
    }
    let table = UInt64(bytes.count)
    let size = offsetSize ?? (table <= 0xFF ? 1 : table <= 0xFFFF ? 2 : 4)
    for (index, offset) in offsets.enumerated() {
      Self.append(offsetOverrides[index] ?? offset, width: Int(size), to: &bytes)
    }
    bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, size, referenceSize])
    Self.append(declaredObjectCount ?? UInt64(objects.count), width: 8, to: &bytes)
    Self.append(top, width: 8, to: &bytes)
    Self.append(declaredTableOffset ?? table, width: 8, to: &bytes)
    return bytes
  }

  /// Appends a big-endian integer of `width` bytes (0 to 8; wider widths pad with zeros).
  package static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
    for position in stride(from: width - 1, through: 0, by: -1) {
      bytes.append(position >= 8 ? 0 : UInt8(truncatingIfNeeded: value >> UInt64(position * 8)))
    }
  }

  /// The encoding of an ASCII string object.
  package static func ascii(_ text: String) -> [UInt8] {
    let utf8 = Array(text.utf8)
    precondition(utf8.count < 15, "short strings only")
    return [0x50 | UInt8(utf8.count)] + utf8
  }

  /// The encoding of an array object of one-byte references.
  package static func array(_ references: [UInt8]) -> [UInt8] {
    precondition(references.count < 15, "short arrays only")
    return [0xA0 | UInt8(references.count)] + references
  }

  /// The encoding of a dictionary object of one-byte references.
  package static func dictionary(keys: [UInt8], values: [UInt8]) -> [UInt8] {
    precondition(keys.count < 15 && keys.count == values.count, "short, matched dictionaries only")
    return [0xD0 | UInt8(keys.count)] + keys + values
  }

  /// The encoding of a one-byte UID.
  package static func uid(_ value: UInt8) -> [UInt8] {
    [0x80, value]
  }
}
