/// Where a record lives: a file in a directory store, or a row in an SQLite store.
///
/// Its ``description`` is what every message about the record prints:
/// the file's path, or `DATABASE:TABLE[KEY=VALUE]`.
public struct RecordID: Hashable, Sendable, CustomStringConvertible {
  /// The two kinds of place.
  public enum Kind: Hashable, Sendable {
    /// A file: its full path and its path relative to the store's folder.
    case file(path: String, relativePath: String)
    /// A row: the table, the key column's value and, for rowid tables, the rowid.
    case row(table: String, key: SQLiteValue, rowid: Int64?)
  }

  /// The kind of place.
  public var kind: Kind
  /// The place as messages print it.
  public let description: String

  /// A file record.
  public static func file(path: String, relativePath: String) -> RecordID {
    RecordID(kind: .file(path: path, relativePath: relativePath), description: path)
  }

  /// A row record in the database at `database`.
  public static func row(
    database: String, table: String, keyColumn: String, key: SQLiteValue, rowid: Int64?
  ) -> RecordID {
    RecordID(
      kind: .row(table: table, key: key, rowid: rowid),
      description: "\(database):\(table)[\(keyColumn)=\(key.displayText)]")
  }
}
