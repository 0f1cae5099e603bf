import ArchiveFormat

/// How a row is named where a person or a file sees it: by its key, or, for an encrypted
/// store, by its rowid and a keyed hash of its key.
///
/// An encrypted store's keys can be personal data (a user's email as the key of
/// a cached profile). Its reports, its journal and its messages name a row as
/// `rowid=42 key#3fa9c1d2e4b5a6f7`: the first 16 hex digits of an HMAC-SHA-256
/// of the key, keyed by a secret derived from the store's key and salt. The same
/// row gets the same name in the store and in its backup, in every run with the
/// same key, and the name cannot be traced back without the key. `--show-keys`
/// names rows by their keys again.
///
/// ```swift
/// let naming = store.recordNaming
/// print(naming.label(keyColumn: "email", key: .text("ada@example.com"), rowid: 42))
/// // rowid=42 key#3fa9c1d2e4b5a6f7
/// ```
package struct RecordKeyNaming: Sendable {
  private let hmac: HMACSHA256?

  /// Rows named by their keys, as a store in the clear names them.
  package static let clear = RecordKeyNaming(hmac: nil)

  private init(hmac: HMACSHA256?) {
    self.hmac = hmac
  }

  /// Rows named by a keyed hash of their keys.
  ///
  /// - Parameter secret: The hash's key: a secret only the store's key gives.
  init(hashingWith secret: [UInt8]) {
    hmac = HMACSHA256(key: secret)
  }

  /// Whether rows are named by a keyed hash rather than by their keys.
  package var hidesKeys: Bool { hmac != nil }

  /// The keyed hash of a key value: 16 hex digits, or `nil` when keys are shown.
  ///
  /// - Parameter key: The key column's value.
  /// - Returns: The hash, such as `3fa9c1d2e4b5a6f7`.
  package func hash(_ key: SQLiteValue) -> String? {
    guard let hmac else { return nil }
    return String(Hex.encode(hmac.authenticationCode(for: Self.canonicalBytes(key))).prefix(16))
  }

  /// A row's name inside its table's brackets: `email='ada@example.com'`, or
  /// `rowid=42 key#3fa9c1d2e4b5a6f7` when keys are hidden.
  ///
  /// - Parameters:
  ///   - keyColumn: The key column's name.
  ///   - key: The key's value.
  ///   - rowid: The row's rowid, when the table has one.
  /// - Returns: The name.
  package func label(keyColumn: String, key: SQLiteValue, rowid: Int64?) -> String {
    Self.label(keyColumn: keyColumn, key: key, rowid: rowid, hash: hash(key))
  }

  /// A row's name from a hash computed already: by its key when `hash` is `nil`.
  static func label(keyColumn: String, key: SQLiteValue?, rowid: Int64?, hash: String?)
    -> String
  {
    guard let hash else { return "\(keyColumn)=\(key?.displayText ?? "?")" }
    return (rowid.map { "rowid=\($0) " } ?? "") + "key#" + hash
  }

  /// The bytes hashed for a key: its storage class and its value, so `1` and `'1'` differ.
  private static func canonicalBytes(_ key: SQLiteValue) -> [UInt8] {
    switch key {
    case .integer(let number): Array("i:\(number)".utf8)
    case .real(let number): Array("r:\(number.bitPattern)".utf8)
    case .text(let text): Array("t:".utf8) + Array(text.utf8)
    case .blob(let bytes): Array("b:".utf8) + bytes
    case .null: Array("n:".utf8)
    }
  }
}
