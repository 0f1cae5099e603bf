import ArchiveFormat

/// The secret salt that keys every pseudonym and the date shift of one anonymization run.
///
/// The same key gives the same pseudonyms, so a batch (or a re-run with the
/// same `--salt-file`) keeps shared values equal. Without the key, a
/// pseudonym cannot be traced back by hashing candidate values. A random key
/// lives only in memory and is never written down.
///
/// ```swift
/// let key = AnonymizationKey.random()
/// let fixed = try AnonymizationKey(salt: Array(saltFileContents))
/// ```
package struct AnonymizationKey: Sendable {
  /// The fewest salt bytes a key accepts.
  package static let minimumSaltLength = 16

  /// The HMAC keyed with the salt.
  let hmac: HMACSHA256

  /// Creates a key from a salt, such as the contents of a salt file.
  ///
  /// - Throws: `AnonymizationError` when the salt is shorter than ``minimumSaltLength`` bytes.
  package init(salt: [UInt8]) throws(AnonymizationError) {
    guard salt.count >= Self.minimumSaltLength else {
      throw AnonymizationError(
        .saltTooShort,
        "the salt has \(salt.count) bytes; it needs at least \(Self.minimumSaltLength)")
    }
    hmac = HMACSHA256(key: salt)
  }

  private init(hmac: HMACSHA256) {
    self.hmac = hmac
  }

  /// A key from 32 bytes of the system's secure random number generator.
  package static func random() -> AnonymizationKey {
    var generator = SystemRandomNumberGenerator()
    var salt: [UInt8] = []
    salt.reserveCapacity(32)
    for _ in 0..<4 {
      let word = generator.next()
      for shift in stride(from: 0, to: 64, by: 8) {
        salt.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    return AnonymizationKey(hmac: HMACSHA256(key: salt))
  }

  /// A deterministic stream of choices for one value in one domain, on one attempt.
  func stream(domain: String, value: [UInt8], attempt: Int = 0) -> KeyedStream {
    var message = Array(domain.utf8)
    message.append(0)
    for shift in stride(from: 24, through: 0, by: -8) {
      message.append(UInt8(truncatingIfNeeded: attempt >> shift))
    }
    message += value
    return KeyedStream(seed: hmac.authenticationCode(for: message))
  }
}
