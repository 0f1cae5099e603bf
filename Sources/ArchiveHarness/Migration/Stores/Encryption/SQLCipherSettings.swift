import ArchiveFormat
import CHarnessCrypto
import CHarnessSQLCipher
import Foundation

/// How an SQLCipher database is encrypted: page size, key derivation, page HMAC and plaintext header.
///
/// Nothing here is secret, so a migration journal records it. Each major
/// version of SQLCipher has its defaults (``defaults(compatibility:)``); a
/// store may differ from them in any one setting.
///
/// ```swift
/// var settings = SQLCipherSettings.defaults(compatibility: 3)
/// settings.pageSize = 4096
/// ```
package struct SQLCipherSettings: Sendable, Hashable, CustomStringConvertible {
  /// A hash function the key derivation or the page HMAC uses.
  package enum Hash: String, Sendable, Hashable, CaseIterable {
    /// SHA-1: key derivation and HMAC of versions 1 to 3.
    case sha1 = "SHA1"
    /// SHA-256.
    case sha256 = "SHA256"
    /// SHA-512: key derivation and HMAC of version 4.
    case sha512 = "SHA512"

    /// The name SQLCipher's PRAGMAs use: `PBKDF2_HMAC_SHA512`, `HMAC_SHA1`.
    func pragmaName(kdf: Bool) -> String { (kdf ? "PBKDF2_HMAC_" : "HMAC_") + rawValue }

    /// Reads `SHA1`, `HMAC_SHA1` or `PBKDF2_HMAC_SHA1` (any case).
    package init?(name: String) {
      var text = name.uppercased()
      for prefix in ["PBKDF2_HMAC_", "HMAC_"] where text.hasPrefix(prefix) {
        text.removeFirst(prefix.count)
      }
      self.init(rawValue: text.replacingOccurrences(of: "-", with: ""))
    }

    /// The digest's size in bytes: 20, 32 or 64.
    var byteCount: Int {
      switch self {
      case .sha1: 20
      case .sha256: 32
      case .sha512: 64
      }
    }

    var code: Int32 {
      switch self {
      case .sha1: Int32(HARNESS_HASH_SHA1.rawValue)
      case .sha256: Int32(HARNESS_HASH_SHA256.rawValue)
      case .sha512: Int32(HARNESS_HASH_SHA512.rawValue)
      }
    }
  }

  /// The SQLCipher major version whose defaults these started from (1 to 4).
  package var compatibility: Int
  /// The page size in bytes.
  package var pageSize: Int
  /// PBKDF2 iterations over a passphrase.
  package var kdfIterations: Int
  /// The hash of the key derivation.
  package var kdfAlgorithm: Hash
  /// The hash of the page HMAC; `nil` for none (version 1).
  package var hmacAlgorithm: Hash?
  /// Bytes of page 1 kept in the clear (0, or a multiple of 16 such as 32); the salt is then given separately.
  package var plaintextHeaderSize: Int
  /// The salt, for a database with a plaintext header; otherwise it is read from the file.
  package var salt: [UInt8]?

  /// Creates settings.
  package init(
    compatibility: Int, pageSize: Int, kdfIterations: Int, kdfAlgorithm: Hash,
    hmacAlgorithm: Hash?, plaintextHeaderSize: Int = 0, salt: [UInt8]? = nil
  ) {
    self.compatibility = compatibility
    self.pageSize = pageSize
    self.kdfIterations = kdfIterations
    self.kdfAlgorithm = kdfAlgorithm
    self.hmacAlgorithm = hmacAlgorithm
    self.plaintextHeaderSize = plaintextHeaderSize
    self.salt = salt
  }

  /// The defaults of an SQLCipher major version, 1 to 4 (others get version 4's).
  package static func defaults(compatibility: Int) -> SQLCipherSettings {
    switch compatibility {
    case 1:
      SQLCipherSettings(
        compatibility: 1, pageSize: 1024, kdfIterations: 4000, kdfAlgorithm: .sha1,
        hmacAlgorithm: nil)
    case 2:
      SQLCipherSettings(
        compatibility: 2, pageSize: 1024, kdfIterations: 4000, kdfAlgorithm: .sha1,
        hmacAlgorithm: .sha1)
    case 3:
      SQLCipherSettings(
        compatibility: 3, pageSize: 1024, kdfIterations: 64000, kdfAlgorithm: .sha1,
        hmacAlgorithm: .sha1)
    default:
      SQLCipherSettings(
        compatibility: 4, pageSize: 4096, kdfIterations: 256_000, kdfAlgorithm: .sha512,
        hmacAlgorithm: .sha512)
    }
  }

  /// Whether these are exactly a version's defaults (no plaintext header).
  package var isDefault: Bool {
    var plain = self
    plain.salt = nil
    return plain == Self.defaults(compatibility: compatibility)
  }

  /// `SQLCipher 4 defaults`, or the version and what differs: `SQLCipher 3 defaults, page size 4096`.
  package var description: String {
    let base = Self.defaults(compatibility: compatibility)
    var differences: [String] = []
    if pageSize != base.pageSize { differences.append("page size \(pageSize)") }
    if kdfIterations != base.kdfIterations { differences.append("KDF iterations \(kdfIterations)") }
    if kdfAlgorithm != base.kdfAlgorithm {
      differences.append("KDF \(kdfAlgorithm.pragmaName(kdf: true))")
    }
    if hmacAlgorithm != base.hmacAlgorithm {
      differences.append("HMAC \(hmacAlgorithm.map { $0.pragmaName(kdf: false) } ?? "none")")
    }
    if plaintextHeaderSize != 0 { differences.append("plaintext header \(plaintextHeaderSize)") }
    return (["SQLCipher \(compatibility) defaults"] + differences).joined(separator: ", ")
  }

  /// The C form, for the codec.
  var cSettings: harness_cipher_settings {
    harness_cipher_settings(
      page_size: UInt32(clamping: pageSize), kdf_iterations: UInt32(clamping: kdfIterations),
      kdf_hash: kdfAlgorithm.code, hmac_hash: (hmacAlgorithm ?? .sha1).code,
      use_hmac: hmacAlgorithm == nil ? 0 : 1,
      plaintext_header_size: UInt32(clamping: plaintextHeaderSize))
  }
}

extension SQLCipherSettings {
  /// The settings as a migration journal's header records them (never the key).
  var journalValue: JSONValue {
    .object([
      ("compatibility", .integer(Int64(compatibility))), ("pageSize", .integer(Int64(pageSize))),
      ("kdfIterations", .integer(Int64(kdfIterations))),
      ("kdfAlgorithm", .string(kdfAlgorithm.rawValue)),
      ("hmacAlgorithm", hmacAlgorithm.map { .string($0.rawValue) } ?? .null),
      ("plaintextHeaderSize", .integer(Int64(plaintextHeaderSize))),
      ("salt", salt.map { .string(Hex.encode($0)) } ?? .null),
    ])
  }

  /// Reads the settings back from a journal header's `cipher` member; `nil` when a member is
  /// missing, of another type (`true` is not `1`) or out of SQLCipher's ranges.
  init?(journalValue object: [String: JSONDocument]) {
    func integer(_ name: String) -> Int? {
      object[name]?.int64Value.flatMap { Int(exactly: $0) }
    }
    guard let compatibility = integer("compatibility"), let pageSize = integer("pageSize"),
      let iterations = integer("kdfIterations"),
      let kdf = object["kdfAlgorithm"]?.stringValue.flatMap(Hash.init(name:))
    else { return nil }
    // A journal is read back from disk: settings out of SQLCipher's ranges (a key derivation
    // that would run for hours, a page size SQLite never uses) make it malformed.
    guard (1...10_000_000).contains(iterations), (512...65536).contains(pageSize),
      pageSize & (pageSize - 1) == 0, (1...4).contains(compatibility)
    else { return nil }
    let hmacName = object["hmacAlgorithm"]?.stringValue
    let hmac = hmacName.flatMap(Hash.init(name:))
    if hmacName != nil, hmac == nil { return nil }
    let header: Int
    switch object["plaintextHeaderSize"] {
    case nil: header = 0
    case let value?:
      guard let size = value.int64Value.flatMap({ Int(exactly: $0) }) else { return nil }
      header = size
    }
    guard (0...1024).contains(header), header % 16 == 0 else { return nil }
    let salt = object["salt"]?.stringValue.flatMap(Hex.decode)
    self.init(
      compatibility: compatibility, pageSize: pageSize, kdfIterations: iterations,
      kdfAlgorithm: kdf, hmacAlgorithm: hmac, plaintextHeaderSize: header, salt: salt)
  }
}
