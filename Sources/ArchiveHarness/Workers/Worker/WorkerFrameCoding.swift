import ArchiveCoder

/// Builds a binary worker frame: bytes, 8-byte integers and length-prefixed fields (4-byte
/// big-endian lengths).
struct WorkerFrameWriter {
  private(set) var bytes: [UInt8] = []

  /// A writer whose frame has room for `capacity` bytes before it grows.
  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  mutating func append(byte: UInt8) {
    bytes.append(byte)
  }

  mutating func append(length: Int) {
    let value = UInt32(truncatingIfNeeded: length)
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value))
  }

  /// Appends 8 bytes, big-endian.
  mutating func append(integer: Int64) {
    let value = UInt64(bitPattern: integer)
    for shift in stride(from: 56, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }

  mutating func append(field: [UInt8]) {
    append(length: field.count)
    bytes += field
  }

  mutating func append(string: String) {
    append(length: string.utf8.count)
    bytes.append(contentsOf: string.utf8)
  }

  /// Appends a count, then each string.
  mutating func append(strings: [String]) {
    append(length: strings.count)
    for string in strings { append(string: string) }
  }
}

/// Reads a binary worker frame, checking every length against what is left.
struct WorkerFrameReader {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The bytes not read yet.
  var remaining: Int { bytes.count - offset }

  mutating func byte() throws(WorkerProtocolError) -> UInt8 {
    guard offset < bytes.count else { throw WorkerProtocolError("a frame ends early") }
    offset += 1
    return bytes[offset - 1]
  }

  mutating func length() throws(WorkerProtocolError) -> Int {
    guard bytes.count - offset >= 4 else { throw WorkerProtocolError("a frame ends early") }
    let value = bytes[offset..<offset + 4].reduce(0) { ($0 << 8) | Int($1) }
    offset += 4
    return value
  }

  /// Reads a count of items that take at least `minimumSize` bytes each, refusing one that
  /// the rest of the frame cannot hold.
  mutating func count(ofItemsAtLeast minimumSize: Int) throws(WorkerProtocolError) -> Int {
    let count = try length()
    guard count <= remaining / max(1, minimumSize) else {
      throw WorkerProtocolError("a count of \(count) runs past the end of its frame")
    }
    return count
  }

  /// Reads 8 bytes, big-endian.
  mutating func integer() throws(WorkerProtocolError) -> Int64 {
    guard bytes.count - offset >= 8 else { throw WorkerProtocolError("a frame ends early") }
    let value = bytes[offset..<offset + 8].reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
    offset += 8
    return Int64(bitPattern: value)
  }

  mutating func field() throws(WorkerProtocolError) -> [UInt8] {
    Array(try fieldBytes())
  }

  mutating func string() throws(WorkerProtocolError) -> String {
    String(decoding: try fieldBytes(), as: UTF8.self)
  }

  /// Reads a count, then that many strings.
  mutating func strings() throws(WorkerProtocolError) -> [String] {
    let count = try count(ofItemsAtLeast: 4)
    var strings: [String] = []
    strings.reserveCapacity(count)
    for _ in 0..<count { strings.append(try string()) }
    return strings
  }

  func expectEnd() throws(WorkerProtocolError) {
    guard offset == bytes.count else {
      throw WorkerProtocolError("\(bytes.count - offset) unexpected bytes at the end of a frame")
    }
  }

  private mutating func fieldBytes() throws(WorkerProtocolError) -> ArraySlice<UInt8> {
    let count = try length()
    guard bytes.count - offset >= count else {
      throw WorkerProtocolError("a field of \(count) bytes runs past the end of its frame")
    }
    offset += count
    return bytes[offset - count..<offset]
  }
}
