import ArchiveFormat

/// Where a record lives: a file in a directory store, a row in an SQLite store, or a value in a
/// property-list store.
///
/// Its `description` is what every message about the record prints:
/// the file's path, `DATABASE:TABLE[KEY=VALUE]`, `FILE:KEYPATH` (`PropertyListKeyPath`), or,
/// for a store opened by Core Data entity, `DATABASE:ENTITY[Z_PK=VALUE].ATTRIBUTE`.
///
/// ```swift
/// let id = RecordID.row(
///   database: "Books.sqlite", table: "ZBOOK", keyColumn: "Z_PK", key: .integer(48), rowid: 48,
///   entity: RecordID.Entity(name: "Book", attribute: "cover"))
/// print(id)  // Books.sqlite:Book[Z_PK=48].cover
/// ```
package struct RecordID: Hashable, Sendable, CustomStringConvertible {
  /// The two kinds of place.
  package enum Kind: Hashable, Sendable {
    /// A file: its full path and its path relative to the store's folder.
    case file(path: String, relativePath: String)
    /// A row: the table, the key column's value and, for rowid tables, the rowid.
    case row(table: String, key: SQLiteValue, rowid: Int64?)
    /// A `Data` value of a property list, by its key path from the root.
    case propertyListValue(keyPath: PropertyListKeyPath)
  }

  /// A Core Data entity's attribute, naming a row of its table.
  package struct Entity: Hashable, Sendable {
    /// The row's entity, from `Z_PRIMARYKEY`.
    package var name: String
    /// The attribute, as it was named.
    package var attribute: String

    /// Names a row by its entity and attribute.
    package init(name: String, attribute: String) {
      self.name = name
      self.attribute = attribute
    }
  }

  /// The kind of place.
  package var kind: Kind
  /// The Core Data entity and attribute of a row, when the store was opened by entity.
  package var entity: Entity?
  /// The place, as every message about the record names it.
  package let place: Place
  /// The keyed hash that names a row of an encrypted store instead of its key
  /// (`RecordKeyNaming`); `nil` when the key itself is shown.
  package var keyHash: String?

  /// The place as messages print it.
  package var description: String { place.description }

  /// A file record.
  package static func file(path: String, relativePath: String) -> RecordID {
    RecordID(kind: .file(path: path, relativePath: relativePath), place: Place(file: path))
  }

  /// A row record in the database at `database`; with `entity`, named by it; with a
  /// `naming` that hides keys, named by rowid and a keyed hash of its key.
  package static func row(
    database: String, table: String, keyColumn: String, key: SQLiteValue, rowid: Int64?,
    entity: Entity? = nil, naming: RecordKeyNaming = .clear
  ) -> RecordID {
    // One HMAC a row: the name and the journal's keyHash share it.
    let hash = naming.hash(key)
    let row = Place.Position.row(
      table: entity?.name ?? table,
      key: RecordKeyNaming.label(keyColumn: keyColumn, key: key, rowid: rowid, hash: hash),
      column: entity?.attribute)
    var id = RecordID(
      kind: .row(table: table, key: key, rowid: rowid), entity: entity,
      place: Place(file: database, position: row))
    id.keyHash = hash
    return id
  }

  /// A `Data` value at `keyPath` in the property list at `file`: `FILE:KEYPATH`.
  ///
  /// ```swift
  /// RecordID.propertyListValue(
  ///   file: "com.example.app.plist", keyPath: PropertyListKeyPath([.key("recent"), .index(2)])
  /// ).description  // "com.example.app.plist:recent[2]"
  /// ```
  package static func propertyListValue(file: String, keyPath: PropertyListKeyPath) -> RecordID {
    RecordID(
      kind: .propertyListValue(keyPath: keyPath),
      place: Place(file: file, position: .keyPath(keyPath.description)))
  }
}
