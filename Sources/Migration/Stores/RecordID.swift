/// Where a record lives: a file in a directory store, a row in an SQLite store, or a value in a
/// property-list store.
///
/// Its ``description`` is what every message about the record prints:
/// the file's path, `DATABASE:TABLE[KEY=VALUE]`, or `FILE:KEYPATH` (``PropertyListKeyPath``).
public struct RecordID: Hashable, Sendable, CustomStringConvertible {
  /// The two kinds of place.
  public enum Kind: Hashable, Sendable {
    /// A file: its full path and its path relative to the store's folder.
    case file(path: String, relativePath: String)
    /// A row: the table, the key column's value and, for rowid tables, the rowid.
    case row(table: String, key: SQLiteValue, rowid: Int64?)
    /// A `Data` value of a property list, by its key path from the root.
    case propertyListValue(keyPath: PropertyListKeyPath)
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

  /// A `Data` value at `keyPath` in the property list at `file`: `FILE:KEYPATH`.
  ///
  /// ```swift
  /// RecordID.propertyListValue(
  ///   file: "com.example.app.plist", keyPath: PropertyListKeyPath([.key("recent"), .index(2)])
  /// ).description  // "com.example.app.plist:recent[2]"
  /// ```
  public static func propertyListValue(file: String, keyPath: PropertyListKeyPath) -> RecordID {
    RecordID(kind: .propertyListValue(keyPath: keyPath), description: "\(file):\(keyPath)")
  }
}
