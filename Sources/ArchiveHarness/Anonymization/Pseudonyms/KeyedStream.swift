import ArchiveFormat

/// A deterministic stream of unbiased choices, expanded from a secret seed in counter mode.
///
/// Block `n` is SHA-256(seed ‖ n). The seed is an HMAC of the value, so the
/// stream is as secret as the salt. Choices use rejection sampling, so every
/// candidate of a class is equally likely, and the algorithm is fixed here
/// (not Swift's `random(in:using:)`), so a salt file gives the same output on
/// every toolchain.
struct KeyedStream {
  private let seed: [UInt8]
  private var block: [UInt8] = []
  private var position = 0
  private var counter: UInt64 = 0

  /// Creates a stream from a seed.
  init(seed: [UInt8]) {
    self.seed = seed
  }

  /// The next byte of the stream.
  mutating func nextByte() -> UInt8 {
    if position == block.count {
      var message = seed
      for shift in stride(from: 56, through: 0, by: -8) {
        message.append(UInt8(truncatingIfNeeded: counter >> UInt64(shift)))
      }
      block = SHA256Checksum.hash(message).bytes
      counter &+= 1
      position = 0
    }
    defer { position += 1 }
    return block[position]
  }

  /// The next `count` bytes.
  mutating func nextBytes(_ count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(0, count))
    for _ in 0..<max(0, count) { bytes.append(nextByte()) }
    return bytes
  }

  /// The next 64-bit word.
  mutating func nextWord() -> UInt64 {
    var word: UInt64 = 0
    for _ in 0..<8 { word = word << 8 | UInt64(nextByte()) }
    return word
  }

  /// A uniform choice in `0..<bound`; 0 when `bound` is not positive.
  ///
  /// A bound up to 256 takes one byte a try, so a long text costs a byte per character.
  mutating func next(below bound: UInt64) -> UInt64 {
    guard bound > 1 else { return 0 }
    if bound <= 256 {
      let limit = 256 - 256 % bound
      while true {
        let byte = UInt64(nextByte())
        if byte < limit { return byte % bound }
      }
    }
    // Reject the top partial range of 2^64 so every value is equally likely.
    let limit = UInt64.max - (UInt64.max % bound + 1) % bound
    while true {
      let word = nextWord()
      if word <= limit { return word % bound }
    }
  }

  /// A uniform choice in `0..<bound`; 0 when `bound` is not positive.
  mutating func next(below bound: Int) -> Int {
    Int(next(below: UInt64(max(0, bound))))
  }

  /// A uniform choice in a closed range.
  mutating func next(in range: ClosedRange<UInt64>) -> UInt64 {
    let span = range.upperBound - range.lowerBound
    if span == UInt64.max { return nextWord() }
    return range.lowerBound + next(below: span + 1)
  }
}
