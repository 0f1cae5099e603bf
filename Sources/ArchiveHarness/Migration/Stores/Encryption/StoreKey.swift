import CHarnessCrypto
import Foundation

/// The key of an encrypted store: a passphrase, or a raw key, read from a file or the environment and cleared from memory when released.
///
/// A key is never a command-line value, which `ps` and shell history would show.
/// A key file holds the passphrase as it is, less one trailing line break (`\n` or
/// `\r\n`), which editors add; any other byte, spaces included, is part of the key.
/// A file that holds `x'…'` with 64 hex digits is SQLCipher's raw key (no key
/// derivation); 96 digits are the raw key and then the database's salt.
///
/// ```swift
/// let key = try StoreKey(contentsOfFile: "profiles.key")
/// let store = try SQLiteStore(
///   path: "profiles.db", table: "store", keyColumn: "key", valueColumn: "value",
///   readOnly: true, encryption: StoreEncryption(key: key))
/// ```
package final class StoreKey: @unchecked Sendable {
  /// What the key's bytes are.
  package enum Kind: Sendable, Hashable {
    /// A passphrase, put through PBKDF2 with the database's salt.
    case passphrase
    /// A 32-byte key used as it is.
    case raw
  }

  /// Whether the key is a passphrase or a raw key.
  package let kind: Kind
  /// The salt a 96-digit raw key carries, else `nil`.
  package let salt: [UInt8]?
  private let storage: UnsafeMutableBufferPointer<UInt8>

  /// Makes a key from the text of a key file or variable, as described above.
  ///
  /// - Parameters:
  ///   - bytes: The text; it is copied, and the caller clears its own copy.
  ///   - source: Where it came from, for errors: a path or `$VARIABLE`.
  /// - Throws: `MigrationError` with code `MigrationError.Code.invalidKey` for an
  ///   empty key, or an `x'…'` key that is not 64 or 96 hex digits.
  package init(bytes: [UInt8], source: String) throws(MigrationError) {
    var text = bytes[...]
    if text.last == UInt8(ascii: "\n") {
      text = text.dropLast()
      if text.last == UInt8(ascii: "\r") { text = text.dropLast() }
    }
    guard !text.isEmpty else {
      throw MigrationError(.invalidKey, file: source, "the key is empty")
    }
    let isRaw =
      text.count >= 3 && (text.first == UInt8(ascii: "x") || text.first == UInt8(ascii: "X"))
      && text.dropFirst().first == UInt8(ascii: "'") && text.last == UInt8(ascii: "'")
    if isRaw {
      var digits = Array(text.dropFirst(2).dropLast())
      defer { harness_secure_zero(&digits, digits.count) }
      guard digits.count == 64 || digits.count == 96, let decoded = Self.hex(digits) else {
        throw MigrationError(
          .invalidKey, file: source,
          "a raw key x'…' holds 64 hex digits (the key) or 96 (the key, then the salt); this one holds \(digits.count) characters"
        )
      }
      kind = .raw
      salt = decoded.count == 48 ? Array(decoded[32...]) : nil
      storage = Self.copy(decoded[..<32])
      var scratch = decoded
      harness_secure_zero(&scratch, scratch.count)
    } else {
      kind = .passphrase
      salt = nil
      storage = Self.copy(text)
    }
  }

  /// Reads a key file (see `StoreKey` for how its text is read).
  ///
  /// - Throws: `MigrationError` naming the file when it cannot be read, is not a
  ///   regular file, is larger than 64 KiB, or holds no usable key.
  package convenience init(contentsOfFile path: String) throws(MigrationError) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      // What was given is not echoed: a passphrase passed by mistake as the file's path would
      // reach the terminal, a log or CI's output.
      let reason = MigrationError.systemMessage()
      throw MigrationError(
        .invalidKey, file: "--key-file",
        "cannot read the key file given (\(reason)); its path is not shown, in case it is the "
          + "key itself: give the path of a file that holds the key, or use --key-env")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw MigrationError(.invalidKey, file: path, "the key file is not a regular file")
    }
    guard status.st_size <= 65_536 else {
      throw MigrationError(.invalidKey, file: path, "the key file is larger than 64 KiB")
    }
    guard var data = FileManager.default.contents(atPath: path) else {
      throw MigrationError(.invalidKey, file: path, "cannot read the key file")
    }
    var bytes = [UInt8](data)
    data.resetBytes(in: 0..<data.count)
    defer { harness_secure_zero(&bytes, bytes.count) }
    try self.init(bytes: bytes, source: path)
  }

  /// Reads a key from an environment variable (see `StoreKey` for how its text is read).
  ///
  /// - Throws: `MigrationError` naming `$NAME` when it is unset or empty.
  package convenience init(environmentVariable name: String) throws(MigrationError) {
    guard let value = getenv(name) else {
      throw MigrationError(.invalidKey, file: "$\(name)", "the environment variable is not set")
    }
    let count = strlen(value)
    var bytes = [UInt8](
      UnsafeBufferPointer(
        start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: count))
    defer { harness_secure_zero(&bytes, bytes.count) }
    try self.init(bytes: bytes, source: "$\(name)")
  }

  deinit {
    harness_secure_zero(storage.baseAddress, storage.count)
    storage.deallocate()
  }

  /// Calls `body` with the key's bytes (the passphrase, or the 32-byte raw key).
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws(MigrationError) -> Result)
    throws(MigrationError) -> Result
  {
    try body(UnsafeBufferPointer(storage))
  }

  private static func copy(_ bytes: some Collection<UInt8>) -> UnsafeMutableBufferPointer<UInt8> {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    _ = buffer.initialize(from: bytes)
    return UnsafeMutableBufferPointer(rebasing: buffer[..<bytes.count])
  }

  private static func hex(_ digits: [UInt8]) -> [UInt8]? {
    func value(_ digit: UInt8) -> UInt8? {
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
      default: nil
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index + 1 < digits.count {
      guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }
}
