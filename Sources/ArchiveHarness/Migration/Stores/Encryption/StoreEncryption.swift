import ArchiveFormat
import CHarnessCrypto
import CHarnessSQLCipher
import Foundation
import _ArchiveHarnessSystem

/// What is known of an encrypted store before it is opened: its key, and any settings the user states.
///
/// A setting left `nil` is found: each SQLCipher version's defaults (4, 3, 2,
/// then 1) are tried against page 1's HMAC, at the version's page size and then
/// at every other, with one key derivation per version for the whole run.
///
/// ```swift
/// let encryption = StoreEncryption(key: try StoreKey(environmentVariable: "PROFILES_KEY"))
/// let cipher = try encryption.open(path: "profiles.db")
/// print(cipher.settings)  // SQLCipher 4 defaults
/// ```
package struct StoreEncryption: Sendable {
  /// The key.
  package var key: StoreKey
  /// The SQLCipher major version whose defaults to start from; `nil` tries 4, 3, 2 and 1.
  package var compatibility: Int?
  /// The page size; `nil` tries the version's, then every other.
  package var pageSize: Int?
  /// PBKDF2 iterations.
  package var kdfIterations: Int?
  /// The key derivation's hash.
  package var kdfAlgorithm: SQLCipherSettings.Hash?
  /// The page HMAC's hash.
  package var hmacAlgorithm: SQLCipherSettings.Hash?
  /// The plaintext header's size (SQLCipher 4's `cipher_plaintext_header_size`).
  package var plaintextHeaderSize: Int?
  /// The salt, which a plaintext header keeps out of the file (16 bytes).
  package var salt: [UInt8]?

  /// Describes an encrypted store by its key, and by the settings the user states.
  package init(
    key: StoreKey, compatibility: Int? = nil, pageSize: Int? = nil, kdfIterations: Int? = nil,
    kdfAlgorithm: SQLCipherSettings.Hash? = nil, hmacAlgorithm: SQLCipherSettings.Hash? = nil,
    plaintextHeaderSize: Int? = nil, salt: [UInt8]? = nil
  ) {
    self.key = key
    self.compatibility = compatibility
    self.pageSize = pageSize
    self.kdfIterations = kdfIterations
    self.kdfAlgorithm = kdfAlgorithm
    self.hmacAlgorithm = hmacAlgorithm
    self.plaintextHeaderSize = plaintextHeaderSize
    self.salt = salt
  }

  /// Describes a store whose settings are known exactly, as a migration journal records them.
  package init(key: StoreKey, settings: SQLCipherSettings) {
    self.init(
      key: key, compatibility: settings.compatibility, pageSize: settings.pageSize,
      kdfIterations: settings.kdfIterations, kdfAlgorithm: settings.kdfAlgorithm,
      hmacAlgorithm: settings.hmacAlgorithm, plaintextHeaderSize: settings.plaintextHeaderSize,
      salt: settings.salt)
    if settings.hmacAlgorithm == nil { noHMAC = true }
  }

  /// Set when the settings say there is no page HMAC (SQLCipher 1's layout).
  var noHMAC = false

  private static let pageSizes = [1024, 4096, 8192, 16384, 32768, 65536, 2048, 512]

  /// The candidates to try, by key derivation: each with its page sizes in order.
  private func candidates() -> [SQLCipherSettings] {
    let versions = compatibility.map { [$0] } ?? [4, 3, 2, 1]
    var result: [SQLCipherSettings] = []
    for version in versions {
      var settings = SQLCipherSettings.defaults(compatibility: version)
      if let kdfIterations { settings.kdfIterations = kdfIterations }
      if let kdfAlgorithm { settings.kdfAlgorithm = kdfAlgorithm }
      if let hmacAlgorithm { settings.hmacAlgorithm = hmacAlgorithm }
      if noHMAC { settings.hmacAlgorithm = nil }
      settings.plaintextHeaderSize = plaintextHeaderSize ?? 0
      let sizes =
        pageSize.map { [$0] } ?? [settings.pageSize]
        + Self.pageSizes.filter { $0 != settings.pageSize }
      for size in sizes {
        var candidate = settings
        candidate.pageSize = size
        result.append(candidate)
      }
    }
    return result
  }

  /// Finds the store's settings and derives its keys, once.
  ///
  /// - Parameter path: The database file.
  /// - Returns: The keys and the settings that matched page 1.
  /// - Throws: `MigrationError`: `MigrationError.Code.notEncrypted` for a
  ///   plain SQLite file; `MigrationError.Code.damagedPage` at page 1 when page 1
  ///   fails its HMAC check but another page verifies with the key (so the key is right
  ///   and page 1 is damaged), or when a raw key decrypts page 1's header but the salt
  ///   fails every HMAC; `MigrationError.Code.wrongKey` naming what was tried when
  ///   nothing matched (a wrong key, other settings, not SQLCipher, or a damaged page 1
  ///   that no other page could tell from a wrong key).
  package func open(path: String) throws(MigrationError) -> SQLCipherKeys {
    let read: [UInt8]?
    do {
      // Page 1, and the pages after it that can show the key is right when page 1 fails.
      read = try DurableFile.readPrefix(path, count: 131_072)
    } catch {
      throw MigrationError(.storeNotFound, file: path, error.message)
    }
    guard let prefix = read else {
      throw MigrationError(.storeNotFound, file: path, "cannot read the database")
    }
    let header = Array("SQLite format 3\0".utf8)
    let headerSize = plaintextHeaderSize ?? 0
    if headerSize == 0, prefix.starts(with: header) {
      let reserve = prefix.count > 20 ? Int(prefix[20]) : 0
      let hint =
        reserve >= 16
        ? "; it reserves \(reserve) bytes a page, as SQLCipher does: if it is SQLCipher 4 with a plaintext header, give --cipher-plaintext-header-size 32 and its --cipher-salt"
        : ": drop --key-file and --key-env"
      throw MigrationError(
        .notEncrypted, file: path,
        "the database is not encrypted (its header is SQLite's own)\(hint)")
    }
    guard prefix.count >= 512 else {
      throw MigrationError(
        .wrongKey, file: path,
        "the file holds \(prefix.count) bytes, less than one page: it is not an SQLCipher database")
    }
    let salt: [UInt8]
    if headerSize > 0 {
      guard let given = self.salt ?? key.salt, given.count == 16 else {
        throw MigrationError(
          .invalidKey, file: path,
          "a plaintext header keeps the salt out of the file: give --cipher-salt (32 hex digits) or a raw key of 96 hex digits"
        )
      }
      salt = given
    } else {
      salt = key.salt ?? Array(prefix[0..<16])
    }

    var derived: [String: SQLCipherCodec] = [:]
    var tried: [String] = []
    for candidate in candidates() where candidate.pageSize <= prefix.count {
      let derivation = "\(candidate.kdfAlgorithm.rawValue)/\(candidate.kdfIterations)"
      let base: SQLCipherCodec
      if let existing = derived[derivation] {
        base = existing
      } else {
        base = try SQLCipherCodec(key: key, settings: candidate, salt: salt, path: path)
        derived[derivation] = base
      }
      guard let codec = base.variant(candidate) else { continue }
      tried.append("SQLCipher \(candidate.compatibility)")
      let status = codec.check(firstPage: prefix)
      if status == HARNESS_CIPHER_OK {
        var settings = candidate
        if headerSize > 0 { settings.salt = salt }
        return SQLCipherKeys(
          codec: codec, settings: settings,
          recordNaming: try Self.recordNaming(key: key, salt: salt))
      }
      // A damaged page 1 fails like a wrong key; another page that verifies shows the key is right.
      if status == HARNESS_CIPHER_HMAC_MISMATCH, let page = codec.verifiedPage(in: prefix) {
        throw MigrationError(
          .damagedPage, place: Place(file: path, position: .page(1)),
          "page 1 fails its HMAC check, while page \(page) verifies with the same key and \(candidate): the key is right, and page 1 was changed or damaged after SQLCipher wrote it"
            + (headerSize > 0
              ? " (or \(headerSize) is not the store's --cipher-plaintext-header-size)" : "")
            + ". Page 1 holds the schema, so no record can be read")
      }
    }
    if let settings = try rawKeyDecryptsHeader(prefix) {
      throw MigrationError(
        .damagedPage, place: Place(file: path, position: .page(1)),
        "page 1's salt (its first 16 bytes) was changed or damaged: the raw key decrypts page 1's header with \(settings), but no page's HMAC verifies with the HMAC key derived from this salt"
      )
    }
    let stated = pageSize.map { "page size \($0)" } ?? "page sizes 512 to 65,536"
    throw MigrationError(
      .wrongKey, file: path,
      "the key does not open the database: page 1 did not verify with \(Self.list(tried)) settings (\(stated)). It may be a wrong key, settings other than those (--cipher-compatibility, --cipher-page-size, --cipher-kdf-iter, --cipher-kdf-algorithm, --cipher-hmac-algorithm, --cipher-plaintext-header-size with --cipher-salt), a file that is not an SQLCipher database, or a page 1 changed or damaged after SQLCipher wrote it (its salt, its first 16 bytes, or the rest of it): no other page verified with these settings either, which would have shown that the key is right"
    )
  }

  /// The settings a raw key decrypts page 1's header with when no HMAC verifies: then only the
  /// salt, from which the HMAC key (and not a raw key's encryption key) is derived, can be wrong.
  private func rawKeyDecryptsHeader(_ prefix: [UInt8]) throws(MigrationError)
    -> SQLCipherSettings?
  {
    guard key.kind == .raw, key.salt == nil, salt == nil, (plaintextHeaderSize ?? 0) == 0 else {
      return nil
    }
    for candidate in candidates() where candidate.pageSize <= prefix.count {
      guard let hmac = candidate.hmacAlgorithm else { continue }
      let reserve = (16 + hmac.byteCount + 15) / 16 * 16
      let iv = Array(prefix[(candidate.pageSize - reserve)..<(candidate.pageSize - reserve + 16)])
      let block = Array(prefix[16..<32])
      var plain = [UInt8](repeating: 0, count: 16)
      defer { clearBytes(&plain) }
      let decrypted = try key.withBytes { bytes in
        harness_aes256_cbc(0, bytes.baseAddress, iv, block, &plain, 16)
      }
      // Bytes 16 to 23 of SQLite's header: the page size, the versions, the reserve, and the
      // payload fractions 64, 32 and 32.
      let size = Int(plain[0]) << 8 | Int(plain[1])
      if decrypted == 1, size == candidate.pageSize || (size == 1 && candidate.pageSize == 65536),
        Int(plain[4]) >= reserve, plain[5] == 64, plain[6] == 32, plain[7] == 32
      {
        return candidate
      }
    }
    return nil
  }

  /// The naming that hides an encrypted store's record keys: an HMAC keyed by a secret
  /// derived from the store's key and salt, so that only the key gives the names.
  private static func recordNaming(key: StoreKey, salt: [UInt8]) throws(MigrationError)
    -> RecordKeyNaming
  {
    let secret = try key.withBytes { bytes throws(MigrationError) in
      HMACSHA256(key: Array(bytes)).authenticationCode(
        for: Array("archive-harness record names\u{0}".utf8) + salt)
    }
    return RecordKeyNaming(hashingWith: secret)
  }

  private static func list(_ items: [String]) -> String {
    var unique: [String] = []
    for item in items where !unique.contains(item) { unique.append(item) }
    guard unique.count > 1, let last = unique.last else { return unique.first ?? "no" }
    return unique.dropLast().joined(separator: ", ") + " and " + last
  }
}

/// An encrypted store's derived keys and the settings that opened it; connections share it.
///
/// It holds the keys in memory for the run and clears them when released; it
/// never prints them. ``settings`` are what a journal records.
package final class SQLCipherKeys: Sendable {
  /// The settings page 1 verified with (the salt only for a plaintext header).
  package let settings: SQLCipherSettings
  let codec: SQLCipherCodec
  /// How the store's rows are named in reports and the journal: by rowid and a keyed hash.
  package let recordNaming: RecordKeyNaming

  init(codec: SQLCipherCodec, settings: SQLCipherSettings, recordNaming: RecordKeyNaming) {
    self.codec = codec
    self.settings = settings
    self.recordNaming = recordNaming
  }
}

/// The C codec: keys and settings, cleared and freed with the object.
final class SQLCipherCodec: @unchecked Sendable {
  let pointer: OpaquePointer
  let settings: SQLCipherSettings

  init(key: StoreKey, settings: SQLCipherSettings, salt: [UInt8], path: String)
    throws(MigrationError)
  {
    var cSettings = settings.cSettings
    var status = HARNESS_CIPHER_OK
    let made = try key.withBytes { bytes throws(MigrationError) in
      guard bytes.count == 32 || key.kind == .passphrase else {
        throw MigrationError(.invalidKey, file: path, "a raw key holds 32 bytes")
      }
      return harness_cipher_codec_new(
        &cSettings, bytes.baseAddress, bytes.count, key.kind == .raw ? 1 : 0, salt, &status)
    }
    guard let made else {
      throw MigrationError(
        .invalidOptions, file: path,
        status == HARNESS_CIPHER_BAD_SETTINGS
          ? "the cipher settings are out of range (\(settings))"
          : "the key derivation failed")
    }
    pointer = made
    self.settings = settings
  }

  private init(pointer: OpaquePointer, settings: SQLCipherSettings) {
    self.pointer = pointer
    self.settings = settings
  }

  /// The same keys with other settings of the same key derivation, or nil when out of range.
  func variant(_ settings: SQLCipherSettings) -> SQLCipherCodec? {
    if settings == self.settings { return self }
    var cSettings = settings.cSettings
    guard let made = harness_cipher_codec_variant(pointer, &cSettings, nil) else { return nil }
    return SQLCipherCodec(pointer: made, settings: settings)
  }

  /// Checks page 1 (the file's first page-size bytes).
  func check(firstPage bytes: [UInt8]) -> harness_cipher_status {
    guard bytes.count >= settings.pageSize else { return HARNESS_CIPHER_BAD_SETTINGS }
    var plain = [UInt8](repeating: 0, count: settings.pageSize)
    defer { clearBytes(&plain) }
    return bytes.withUnsafeBufferPointer { page in
      plain.withUnsafeMutableBufferPointer { out in
        harness_cipher_decrypt_page(pointer, 1, page.baseAddress, out.baseAddress)
      }
    }
  }

  /// The first page after page 1, among those `bytes` holds whole (at most 16), whose HMAC
  /// verifies; nil when none does, or when the settings have no HMAC to verify.
  func verifiedPage(in bytes: [UInt8]) -> Int? {
    let size = settings.pageSize
    guard settings.hmacAlgorithm != nil, bytes.count >= 2 * size else { return nil }
    var plain = [UInt8](repeating: 0, count: size)
    defer { clearBytes(&plain) }
    for number in 2...min(bytes.count / size, 17) {
      let status = bytes.withUnsafeBufferPointer { page in
        plain.withUnsafeMutableBufferPointer { out in
          harness_cipher_decrypt_page(
            pointer, UInt32(number), page.baseAddress.map { $0 + (number - 1) * size },
            out.baseAddress)
        }
      }
      if status == HARNESS_CIPHER_OK { return number }
    }
    return nil
  }

  deinit {
    harness_cipher_codec_free(pointer)
  }
}

/// Clears a buffer that held plaintext or key bytes, in a way the compiler keeps.
func clearBytes(_ bytes: inout [UInt8]) {
  bytes.withUnsafeMutableBytes { raw in harness_secure_zero(raw.baseAddress, raw.count) }
}

/// A VFS registered for one connection's life: the codec's, or a plain one that only reads.
final class CipherVFS {
  private static let counter = Locked(0)
  let pointer: OpaquePointer
  let name: String
  /// The codec, kept alive as long as the VFS.
  let codec: SQLCipherCodec?

  init(codec: SQLCipherCodec?, readOnly: Bool, path: String) throws(MigrationError) {
    let number = Self.counter.withLock { count in
      count += 1
      return count
    }
    let name = "archive-harness-\(getpid())-\(number)"
    guard
      let made = harness_cipher_vfs_register(name, codec?.pointer, readOnly ? 1 : 0)
    else {
      throw MigrationError(.sqlite, file: path, "cannot register the harness's SQLite VFS")
    }
    pointer = made
    self.name = name
    self.codec = codec
  }

  /// The first page that failed its check or a write that was refused, as an error; nil when none.
  func failure(path: String) -> MigrationError? {
    var page: UInt32 = 0
    var kind: Int32 = 0
    let status = harness_cipher_vfs_failure(pointer, &page, &kind)
    let file = kind == 1 ? "\(path)-wal" : kind == 2 ? "\(path)-journal" : path
    switch status {
    case HARNESS_CIPHER_OK: return nil
    case HARNESS_CIPHER_HMAC_MISMATCH, HARNESS_CIPHER_BAD_HEADER:
      return MigrationError(
        .damagedPage, place: Place(file: file, position: .page(Int(page))),
        kind == 1
          ? "the -wal's frame of page \(page) fails its HMAC check: it was changed or damaged after SQLCipher wrote it"
          : kind == 2
            ? "the rollback journal's image of page \(page) fails its HMAC check: it was changed or damaged after it was written"
            : "page \(page) fails its HMAC check: it was changed or damaged after SQLCipher wrote it"
      )
    case HARNESS_CIPHER_REFUSED_WRITE:
      return MigrationError(
        .sqlite, file: file,
        "SQLite asked for a write that would not keep the file SQLCipher's (a temporary file, a WAL frame, or a partial page); it was refused"
      )
    default:
      return MigrationError(.sqlite, file: file, "the cipher failed (status \(status.rawValue))")
    }
  }

  /// Forgets the recorded failure, so that the next one is recorded (a reader that goes on past a damaged page).
  func clearFailure() {
    harness_cipher_vfs_clear_failure(pointer)
  }

  deinit {
    harness_cipher_vfs_unregister(pointer)
  }
}
