import ArchiveFormat
import ArchiveHarness

/// The options that open an encrypted (SQLCipher) SQLite store: the key's source and the settings a user knows.
///
/// A key is never a command-line value, which `ps` and shell history show:
/// it comes from a file (`--key-file`) or an environment variable (`--key-env`).
struct EncryptionOptions {
  /// `--key-file`.
  var keyFile: String?
  /// `--key-env`.
  var keyEnvironment: String?
  /// `--cipher-compatibility`.
  var compatibility: Int?
  /// `--cipher-page-size`.
  var pageSize: Int?
  /// `--cipher-kdf-iter`.
  var kdfIterations: Int?
  /// `--cipher-kdf-algorithm`.
  var kdfAlgorithm: SQLCipherSettings.Hash?
  /// `--cipher-hmac-algorithm`.
  var hmacAlgorithm: SQLCipherSettings.Hash?
  /// `--cipher-plaintext-header-size`.
  var plaintextHeaderSize: Int?
  /// `--cipher-salt`.
  var salt: [UInt8]?

  static let keyFile = Option<String?>.optional(
    "key-file", valueName: "FILE",
    help:
      "An encrypted (SQLCipher) store's key: the passphrase, or x'<64 hex digits>' for a raw key (96 digits: key, then salt). One trailing line break (\\n or \\r\\n) is dropped; every other byte, spaces included, is the key."
  )
  static let keyEnvironment = Option<String?>.optional(
    "key-env", valueName: "VAR",
    help: "An environment variable that holds the key, read as --key-file's text.")
  static let compatibility = Option<Int?>.optional(
    "cipher-compatibility", valueName: "1|2|3|4",
    help: "The SQLCipher major version whose defaults the store uses.",
    defaultDescription: "found from page 1: 4, 3, 2, then 1 is tried",
    convert: ArgumentConversion.integer(in: 1...4))
  static let pageSize = Option<Int?>.optional(
    "cipher-page-size", valueName: "BYTES",
    help: "The store's page size (PRAGMA cipher_page_size).",
    defaultDescription: "the version's, then every power of two from 512 to 65536",
    convert: { text throws(ArgumentValueError) in
      guard let value = Int(text), (512...65536).contains(value), value & (value - 1) == 0 else {
        throw ArgumentValueError("expected a power of two from 512 to 65536")
      }
      return value
    })
  static let kdfIterations = Option<Int?>.optional(
    "cipher-kdf-iter", valueName: "N", help: "PBKDF2 iterations (PRAGMA kdf_iter).",
    defaultDescription: "the version's",
    convert: ArgumentConversion.integer(in: 1...Int(Int32.max)))
  static let kdfAlgorithm = Option<SQLCipherSettings.Hash?>.optional(
    "cipher-kdf-algorithm", valueName: "ALGORITHM",
    help: "The key derivation's hash: PBKDF2_HMAC_SHA1, PBKDF2_HMAC_SHA256 or PBKDF2_HMAC_SHA512.",
    defaultDescription: "the version's", convert: hash)
  static let hmacAlgorithm = Option<SQLCipherSettings.Hash?>.optional(
    "cipher-hmac-algorithm", valueName: "ALGORITHM",
    help: "The page HMAC's hash: HMAC_SHA1, HMAC_SHA256 or HMAC_SHA512.",
    defaultDescription: "the version's", convert: hash)
  static let plaintextHeaderSize = Option<Int?>.optional(
    "cipher-plaintext-header-size", valueName: "BYTES",
    help:
      "Bytes of page 1 kept in the clear (SQLCipher 4; 32 for iOS shared containers); needs --cipher-salt.",
    defaultDescription: "0",
    convert: { text throws(ArgumentValueError) in
      guard let value = Int(text), (0...1024).contains(value), value % 16 == 0 else {
        throw ArgumentValueError("expected a multiple of 16 from 0 to 1024")
      }
      return value
    })
  static let salt = Option<[UInt8]?>.optional(
    "cipher-salt", valueName: "HEX",
    help: "The 16-byte salt as 32 hex digits, for a store with a plaintext header.",
    convert: { text throws(ArgumentValueError) in
      var digits = text
      if digits.hasPrefix("x'"), digits.hasSuffix("'") {
        digits = String(digits.dropFirst(2).dropLast())
      }
      guard digits.utf8.count == 32, let bytes = Hex.decode(digits) else {
        throw ArgumentValueError("expected 32 hex digits")
      }
      return bytes
    })

  /// Every option, for the commands that declare them.
  static let options: [any CommandOption] = [
    keyFile, keyEnvironment, compatibility, pageSize, kdfIterations, kdfAlgorithm, hmacAlgorithm,
    plaintextHeaderSize, salt,
  ]

  private static let hash: ArgumentConverter<SQLCipherSettings.Hash> = {
    text throws(ArgumentValueError) in
    guard let hash = SQLCipherSettings.Hash(name: text) else {
      throw ArgumentValueError("expected SHA1, SHA256 or SHA512 (with or without its prefix)")
    }
    return hash
  }

  /// Reads the options.
  ///
  /// - Throws: `UsageError` for both key sources at once, or cipher settings without a key.
  init(_ arguments: ParsedArguments) throws {
    keyFile = arguments[Self.keyFile]
    keyEnvironment = arguments[Self.keyEnvironment]
    compatibility = arguments[Self.compatibility]
    pageSize = arguments[Self.pageSize]
    kdfIterations = arguments[Self.kdfIterations]
    kdfAlgorithm = arguments[Self.kdfAlgorithm]
    hmacAlgorithm = arguments[Self.hmacAlgorithm]
    plaintextHeaderSize = arguments[Self.plaintextHeaderSize]
    salt = arguments[Self.salt]
    if keyFile != nil, keyEnvironment != nil {
      throw UsageError(message: "give the key once: --key-file or --key-env, not both")
    }
    let settingsGiven =
      compatibility != nil || pageSize != nil || kdfIterations != nil || kdfAlgorithm != nil
      || hmacAlgorithm != nil || plaintextHeaderSize != nil || salt != nil
    if settingsGiven, !isGiven {
      throw UsageError(message: "cipher settings need the store's key: --key-file or --key-env")
    }
  }

  /// Whether a key was given.
  var isGiven: Bool { keyFile != nil || keyEnvironment != nil }

  /// The key, when one was given.
  func key() throws -> StoreKey? {
    do throws(MigrationError) {
      return try MigrationRun.key(file: keyFile, environmentVariable: keyEnvironment)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// The cipher settings given on the command line; the rest are found.
  var cipher: MigrationRun.CipherOptions {
    var cipher = MigrationRun.CipherOptions()
    cipher.compatibility = compatibility
    cipher.pageSize = pageSize
    cipher.kdfIterations = kdfIterations
    cipher.kdfAlgorithm = kdfAlgorithm
    cipher.hmacAlgorithm = hmacAlgorithm
    cipher.plaintextHeaderSize = plaintextHeaderSize
    cipher.salt = salt
    return cipher
  }

  /// Gives a migration run the key's source and the cipher settings.
  func apply(to options: inout MigrationRun.Options) {
    options.keyFile = keyFile
    options.keyEnvironmentVariable = keyEnvironment
    options.cipher = cipher
  }

  /// Opens an encrypted store's keys, printing which settings matched; nil without a key.
  func open(_ path: String, console: Console) throws -> SQLCipherKeys? {
    do throws(MigrationError) {
      guard
        let keys = try MigrationRun.openKeys(
          path: path, keyFile: keyFile, environmentVariable: keyEnvironment, cipher: cipher)
      else { return nil }
      console.diagnose(.note, file: path, category: nil, MigrationRun.verifiedNote(keys))
      return keys
    } catch {
      throw CommandFailure(error)
    }
  }

}
