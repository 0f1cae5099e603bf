import CHarnessCrypto

/// HMAC-SHA-256 (RFC 2104), from the system's cryptography: OpenSSL's libcrypto on Linux,
/// CommonCrypto on Darwin, through the package's CHarnessCrypto target.
///
/// The anonymizer keys every pseudonym with it, so that a pseudonym cannot be
/// reversed by hashing candidate values without the salt. A key longer than a block
/// is hashed first, as RFC 2104 says. Checked against the RFC 4231 test vectors.
///
/// ```swift
/// let hmac = HMACSHA256(key: Array("key".utf8))
/// let code = hmac.authenticationCode(for: Array("The quick brown fox".utf8))
/// ```
package struct HMACSHA256: Sendable {
  /// The size of a code, in bytes.
  private static let codeSize = 32

  private let key: [UInt8]

  /// Creates an HMAC with a key of any length.
  package init(key: [UInt8]) {
    self.key = key
  }

  /// Returns the 32-byte authentication code of a message.
  package func authenticationCode(for message: [UInt8]) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: Self.codeSize) { code, count in
      let status = key.withUnsafeBytes { key in
        message.withUnsafeBytes { message in
          harness_hmac(
            HARNESS_HASH_SHA256, key.baseAddress, key.count, message.baseAddress, message.count,
            nil, 0, code.baseAddress)
        }
      }
      precondition(status == 1, "HMAC-SHA-256: the system's cryptography library failed")
      count = Self.codeSize
    }
  }
}
