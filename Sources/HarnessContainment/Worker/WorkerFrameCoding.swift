import HarnessCoder

/// Builds a binary worker frame: bytes and length-prefixed fields (4-byte big-endian lengths).
struct WorkerFrameWriter {
  private(set) var bytes: [UInt8] = []

  mutating func append(byte: UInt8) {
    bytes.append(byte)
  }

  mutating func append(length: Int) {
    let value = UInt32(truncatingIfNeeded: length)
    bytes += [
      UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
      UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
    ]
  }

  mutating func append(field: [UInt8]) {
    append(length: field.count)
    bytes += field
  }

  mutating func append(string: String) {
    append(field: Array(string.utf8))
  }
}

/// Reads a binary worker frame, checking every length against what is left.
struct WorkerFrameReader {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

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

  mutating func field() throws(WorkerProtocolError) -> [UInt8] {
    let count = try length()
    guard bytes.count - offset >= count else {
      throw WorkerProtocolError("a field of \(count) bytes runs past the end of its frame")
    }
    offset += count
    return Array(bytes[offset - count..<offset])
  }

  mutating func string() throws(WorkerProtocolError) -> String {
    String(decoding: try field(), as: UTF8.self)
  }

  func expectEnd() throws(WorkerProtocolError) {
    guard offset == bytes.count else {
      throw WorkerProtocolError("\(bytes.count - offset) unexpected bytes at the end of a frame")
    }
  }
}
