import ArchiveFormat

/// A value of an SQLite column, as a row's key or a journal entry holds it.
package enum SQLiteValue: Hashable, Sendable {
  /// An INTEGER.
  case integer(Int64)
  /// A REAL.
  case real(Double)
  /// TEXT.
  case text(String)
  /// A BLOB.
  case blob([UInt8])
  /// NULL.
  case null

  /// The value as messages print it: numbers bare, text quoted, blobs as `x'…'`.
  package var displayText: String {
    switch self {
    case .integer(let value): return String(value)
    case .real(let value): return String(value)
    case .text(let value):
      let shown = value.count > 64 ? String(value.prefix(64)) + "…" : value
      return "'" + shown.replacingAll("'", with: "''") + "'"
    case .blob(let bytes):
      let hex = Hex.encode(bytes.prefix(32))
      return "x'" + hex + (bytes.count > 32 ? "…" : "") + "'"
    case .null: return "NULL"
    }
  }
}
