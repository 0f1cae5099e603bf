import TextOutput

/// The SHA-256 digest of FIPS 180-4, for fixture checksums and `dataDigest` expectations.
///
/// CryptoKit is not available on Linux, so the module carries this small
/// implementation. It is checked against the FIPS test vectors and `sha256sum`.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("abc".utf8))
/// let hex = hasher.finalize().hexadecimal
/// ```
public struct SHA256: Sendable {
  /// A finished digest: 32 bytes.
  public struct Digest: Sendable, Hashable, CustomStringConvertible {
    /// The digest's bytes.
    public var bytes: [UInt8]
    /// The digest as 64 lowercase hexadecimal digits.
    public var hexadecimal: String { Hex.encode(bytes) }
    /// The digest in hexadecimal.
    public var description: String { hexadecimal }
  }

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19,
  ]
  private var pending: [UInt8] = []
  private var byteCount: UInt64 = 0

  /// Creates a hasher with nothing hashed yet.
  public init() { pending.reserveCapacity(64) }

  /// Returns the digest of `bytes`.
  public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> Digest where Bytes.Element == UInt8 {
    var hasher = SHA256()
    hasher.update(Array(bytes))
    return hasher.finalize()
  }

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: [UInt8]) {
    byteCount &+= UInt64(bytes.count)
    var index = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, bytes.count)
      pending += bytes[0..<take]
      index = take
      if pending.count == 64 {
        let block = pending
        pending.removeAll(keepingCapacity: true)
        block.withUnsafeBufferPointer { compress($0, from: 0, blocks: 1) }
      }
    }
    let wholeBlocks = (bytes.count - index) / 64
    if wholeBlocks > 0 {
      bytes.withUnsafeBufferPointer { compress($0, from: index, blocks: wholeBlocks) }
      index += wholeBlocks * 64
    }
    if index < bytes.count { pending += bytes[index...] }
  }

  /// Pads the message and returns its digest.
  public mutating func finalize() -> Digest {
    let bitCount = byteCount &* 8
    var tail = pending
    tail.append(0x80)
    while tail.count % 64 != 56 { tail.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
    }
    tail.withUnsafeBufferPointer { compress($0, from: 0, blocks: $0.count / 64) }
    pending.removeAll()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    for word in state {
      bytes += [
        UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
        UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
      ]
    }
    return Digest(bytes: bytes)
  }

  /// Runs the compression function over `blocks` 64-byte blocks starting at `offset`.
  private mutating func compress(
    _ buffer: UnsafeBufferPointer<UInt8>, from offset: Int, blocks: Int
  ) {
    var h0 = state[0]
    var h1 = state[1]
    var h2 = state[2]
    var h3 = state[3]
    var h4 = state[4]
    var h5 = state[5]
    var h6 = state[6]
    var h7 = state[7]
    SHA256.roundConstants.withUnsafeBufferPointer { constants in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
        for block in 0..<blocks {
          let start = offset + block * 64
          for index in 0..<16 {
            let base = start + index * 4
            schedule[index] =
              UInt32(buffer[base]) << 24 | UInt32(buffer[base + 1]) << 16
              | UInt32(buffer[base + 2]) << 8 | UInt32(buffer[base + 3])
          }
          for index in 16..<64 {
            let before15 = schedule[index - 15]
            let before2 = schedule[index - 2]
            let sigma0 = before15.rotatedRight(7) ^ before15.rotatedRight(18) ^ (before15 >> 3)
            let sigma1 = before2.rotatedRight(17) ^ before2.rotatedRight(19) ^ (before2 >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
          }
          var a = h0
          var b = h1
          var c = h2
          var d = h3
          var e = h4
          var f = h5
          var g = h6
          var h = h7
          for index in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let temporary1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temporary2 = sum0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ temporary1
            d = c
            c = b
            b = a
            a = temporary1 &+ temporary2
          }
          h0 &+= a
          h1 &+= b
          h2 &+= c
          h3 &+= d
          h4 &+= e
          h5 &+= f
          h6 &+= g
          h7 &+= h
        }
      }
    }
    state = [h0, h1, h2, h3, h4, h5, h6, h7]
  }
}

extension UInt32 {
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
    (self >> count) | (self << (32 - count))
  }
}
