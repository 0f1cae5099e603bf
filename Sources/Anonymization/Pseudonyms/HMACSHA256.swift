import Checksum

/// HMAC-SHA-256 (RFC 2104), built on the Checksum module's ``SHA256``.
///
/// The anonymizer keys every pseudonym with it, so that a pseudonym cannot be
/// reversed by hashing candidate values without the salt. The hashers that
/// have absorbed the padded key are kept, so each code costs two finishing
/// passes, not four. Checked against the RFC 4231 test vectors.
///
/// ```swift
/// let hmac = HMACSHA256(key: Array("key".utf8))
/// let code = hmac.authenticationCode(for: Array("The quick brown fox".utf8))
/// ```
public struct HMACSHA256: Sendable {
  /// The block size of SHA-256, in bytes.
  static let blockSize = 64

  private let inner: SHA256
  private let outer: SHA256

  /// Creates an HMAC with a key of any length; a key longer than a block is hashed first.
  public init(key: [UInt8]) {
    var block = key.count > Self.blockSize ? SHA256.hash(key).bytes : key
    block += [UInt8](repeating: 0, count: Self.blockSize - block.count)
    var inner = SHA256()
    inner.update(block.map { $0 ^ 0x36 })
    var outer = SHA256()
    outer.update(block.map { $0 ^ 0x5C })
    self.inner = inner
    self.outer = outer
  }

  /// Returns the 32-byte authentication code of a message.
  public func authenticationCode(for message: [UInt8]) -> [UInt8] {
    var innerHasher = inner
    innerHasher.update(message)
    var outerHasher = outer
    outerHasher.update(innerHasher.finalize().bytes)
    return outerHasher.finalize().bytes
  }
}
