/// A place in a store that can hold keyed archives: a column of a table, a folder, or one file.
///
/// A survey counts what each place holds. Sources of records (an SQLite database, a folder)
/// name their places with this type, so another store kind is one more case here and one more
/// source, with the census and the reports unchanged.
///
/// ```swift
/// let place = SurveyPlace.column(table: "ZBOOK", column: "ZCOVER")
/// print(place)  // ZBOOK.ZCOVER
/// ```
package enum SurveyPlace: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// A column of an SQLite table.
  case column(table: String, column: String)
  /// A folder's own files (not those of its subfolders), by its path relative to the store;
  /// `.` is the store's folder itself.
  case folder(relativePath: String)
  /// A single archive file.
  case file(path: String)
  /// A `Data` value of a property-list store, by its key path (`profile.current`, `recent[2]`).
  case keyPath(String)

  /// `TABLE.COLUMN`, the folder's relative path, or the file's path.
  package var description: String {
    switch self {
    case .column(let table, let column): "\(table).\(column)"
    case .folder(let relativePath): relativePath
    case .file(let path): path
    case .keyPath(let keyPath): keyPath
    }
  }

  /// The kind's name, as JSON writes it: `column`, `folder` or `file`.
  package var kindName: String {
    switch self {
    case .column: "column"
    case .folder: "folder"
    case .file: "file"
    case .keyPath: "key-path"
    }
  }

  /// Orders places by kind, then by name (UTF-8 bytes), so reports are stable.
  package static func < (lhs: SurveyPlace, rhs: SurveyPlace) -> Bool {
    switch (lhs, rhs) {
    case (.column(let a, let b), .column(let c, let d)):
      a == c ? b.utf8.lexicographicallyPrecedes(d.utf8) : a.utf8.lexicographicallyPrecedes(c.utf8)
    case (.folder(let a), .folder(let b)), (.file(let a), .file(let b)),
      (.keyPath(let a), .keyPath(let b)):
      a.utf8.lexicographicallyPrecedes(b.utf8)
    default:
      lhs.kindName < rhs.kindName
    }
  }
}

/// The column that identifies a table's rows, as `migrate --key-column` would use it, and why it was chosen.
///
/// ```swift
/// let key = SurveyKeyColumn(column: "Z_PK", kind: .integerPrimaryKey)
/// print(key.kind.explanation)  // the INTEGER PRIMARY KEY (the rowid)
/// ```
package struct SurveyKeyColumn: Hashable, Sendable {
  /// How the key column was found, in the order a survey prefers them.
  package enum Kind: String, Hashable, Sendable {
    /// An `INTEGER PRIMARY KEY`: the rowid under another name.
    case integerPrimaryKey = "integer-primary-key"
    /// A primary key of one column that is not the rowid (a `TEXT PRIMARY KEY`, say).
    case primaryKey = "primary-key"
    /// A column of text that a unique index (or a `UNIQUE` constraint) covers alone.
    case uniqueText = "unique-text"

    /// What the kind means, for people.
    package var explanation: String {
      switch self {
      case .integerPrimaryKey: "the INTEGER PRIMARY KEY (the rowid)"
      case .primaryKey: "the single-column PRIMARY KEY"
      case .uniqueText: "a UNIQUE text column"
      }
    }
  }

  /// The column, as the schema spells it.
  package var column: String
  /// How it was found.
  package var kind: Kind

  /// Names a key column.
  package init(column: String, kind: Kind) {
    self.column = column
    self.kind = kind
  }
}

/// What a value that is not a keyed archive looks like, so that a report can say what wrote it.
///
/// A Core Data attribute with another value transformer holds JSON or a plain property list;
/// a folder holds other files. The kinds are told apart from the bytes alone, cheaply.
///
/// ```swift
/// let kind = SurveyOtherKind.of(Array("{\"a\": 1}".utf8))  // .json
/// ```
package enum SurveyOtherKind: String, CaseIterable, Hashable, Sendable {
  /// No bytes.
  case empty
  /// A property list that is not a keyed archive (an array, or a dictionary without `$archiver`).
  case propertyList = "property-list"
  /// JSON: UTF-8 text from `{` to `}` or `[` to `]`.
  case json
  /// XML that is not a property list.
  case xml
  /// An SQLite database file.
  case sqliteDatabase = "sqlite-database"
  /// UTF-8 text without control characters (other than tab and line breaks).
  case text
  /// Anything else: images, compressed or encrypted bytes, another serializer's format.
  case binary

  /// The kind of bytes that are not a property list (the caller has checked that).
  package static func of(_ bytes: [UInt8]) -> SurveyOtherKind {
    bytes.withUnsafeBytes { SurveyRecognition.otherKind($0) }
  }
}
