import ArchiveFormat
import CHarnessSQLite

/// A store of archives in one SQLite table: a key column and a value column holding blobs.
///
/// It covers key–value stores such as SecureKeyValueStore's and
/// SecureStoreCache's tables, and Core Data transformable attributes
/// (`ZENTITY.ZATTRIBUTE`). Identifiers are checked against the schema and
/// quoted; values are read in pages by rowid (or by key for `WITHOUT ROWID`
/// tables), so memory stays bounded. NULL and non-blob values come back as
/// records to report, never to touch. WAL databases work.
///
/// ```swift
/// let store = try SQLiteStore(path: "cache.sqlite", table: "cache", keyColumn: "key", valueColumn: "value", readOnly: true)
/// while case let batch = try store.nextBatch(maximumCount: 500), !batch.isEmpty { … }
/// ```
package final class SQLiteStore: RecordStore {
  /// The database file.
  package let path: String
  /// The table, as it is spelled in the schema.
  package let table: String
  /// The key column, as it is spelled in the schema.
  package let keyColumn: String
  /// The value column, as it is spelled in the schema.
  package let valueColumn: String
  /// Whether the table has rowids (it is not `WITHOUT ROWID`); pages and updates then use them.
  package let hasRowid: Bool
  /// An encrypted store's keys and the settings that opened it; `nil` for a store in the clear.
  package let keys: SQLCipherKeys?
  /// How rows are named in reports, messages and the journal: for an encrypted store by
  /// rowid and a keyed hash of the key (`RecordKeyNaming`); set it to
  /// `RecordKeyNaming.clear` to show keys (`--show-keys`).
  package var recordNaming: RecordKeyNaming
  /// The Core Data entity and attribute the store was opened by, when it was.
  package let entity: RecordID.Entity?

  let database: SQLiteDatabase
  private let pageStatement: SQLiteStatement
  private let firstPageStatement: SQLiteStatement?
  private let entityFilter: String
  private let entityNames: [Int64: String]
  private var lastRowid: Int64 = Int64.min
  private var lastKey: SQLiteValue?
  private var finished = false

  /// Opens a table as a store.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - table: The table's name (matched case-insensitively, as SQLite does).
  ///   - keyColumn: The column that identifies a record.
  ///   - valueColumn: The column holding the archive bytes.
  ///   - readOnly: Opens the database read-only, as a dry run does.
  ///   - keys: An SQLCipher store's keys, from `StoreEncryption.open(path:)`. The store
  ///     is then checked whole before it is opened: every page, and every frame of its `-wal`.
  /// - Throws: `MigrationError` naming the file, and the table or column
  ///   that does not exist, with the ones that do; for an encrypted store,
  ///   `MigrationError.Code.damagedPage` naming the file and the first page that fails.
  package convenience init(
    path: String, table: String, keyColumn: String, valueColumn: String, readOnly: Bool,
    keys: SQLCipherKeys? = nil
  ) throws(MigrationError) {
    try self.init(
      path: path, table: table, keyColumn: keyColumn, valueColumn: valueColumn,
      readOnly: readOnly, keys: keys, checkingPages: true)
  }

  /// Opens a table as a store; `checkingPages` false leaves an encrypted store's pages to be
  /// checked as they are read, for a reader that goes on past a damaged one (a rollback
  /// reading originals from a damaged backup).
  convenience init(
    path: String, table: String, keyColumn: String, valueColumn: String, readOnly: Bool,
    keys: SQLCipherKeys?, checkingPages: Bool
  ) throws(MigrationError) {
    for (role, name) in [
      ("table", table), ("key column", keyColumn), ("value column", valueColumn),
    ]
    where name.isEmpty || name.utf8.contains(0) {
      throw MigrationError(
        .invalidIdentifier, file: path, "the \(role) name is empty or holds NUL")
    }
    try self.init(path: path, readOnly: readOnly, keys: keys, checkingPages: checkingPages) {
      _ throws(MigrationError) in
      Selection(table: table, keyColumn: keyColumn, valueColumn: valueColumn)
    }
  }

  /// Opens a Core Data entity's attribute as a store: `--entity Book --attribute cover` reads
  /// `ZBOOK.ZCOVER` keyed by `Z_PK`, and names each record `Book[Z_PK=48].cover`.
  ///
  /// The entity is looked up in `Z_PRIMARYKEY` and the attribute among its table's columns.
  /// Where entities share a table (inheritance), only the rows of the entity and the entities
  /// below it are read (by `Z_ENT`), each named by its own entity.
  ///
  /// ```swift
  /// let store = try SQLiteStore(path: "Books.sqlite", entity: "Book", attribute: "cover", readOnly: true)
  /// ```
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - entity: The entity's name (`Z_PRIMARYKEY.Z_NAME`).
  ///   - attribute: The attribute's name; its column is `Z` + the name, uppercased.
  ///   - readOnly: Opens the database read-only, as a dry run does.
  ///   - keys: An SQLCipher store's keys, from `StoreEncryption.open(path:)`.
  /// - Throws: `MigrationError`: the store is not a Core Data store, or the entity or the
  ///   attribute does not exist (naming the ones that do).
  package convenience init(
    path: String, entity: String, attribute: String, readOnly: Bool, keys: SQLCipherKeys? = nil
  ) throws(MigrationError) {
    try self.init(path: path, readOnly: readOnly, keys: keys, checkingPages: true) {
      database throws(MigrationError) in
      guard let schema = try CoreDataSchema.read(database) else {
        throw MigrationError(
          .invalidIdentifier, file: path,
          "--entity needs a Core Data store (tables Z_PRIMARYKEY and Z_METADATA), and this store has neither; name the table with --table"
        )
      }
      let target = try schema.target(
        entity: entity, attribute: attribute, in: database, path: path)
      return Selection(
        table: target.table, keyColumn: "Z_PK", valueColumn: target.column,
        entity: RecordID.Entity(name: target.entity.name, attribute: attribute),
        entityFilter: target.entityFilter, entityNames: target.names)
    }
  }

  /// What to read: a table's key and value columns, and for a Core Data entity its rows.
  private struct Selection {
    var table: String
    var keyColumn: String
    var valueColumn: String
    var entity: RecordID.Entity?
    var entityFilter: Set<Int64>?
    var entityNames: [Int64: String] = [:]
  }

  private init(
    path: String, readOnly: Bool, keys: SQLCipherKeys?, checkingPages: Bool,
    select: (SQLiteDatabase) throws(MigrationError) -> Selection
  ) throws(MigrationError) {
    if let keys {
      try HotJournal.check(database: path, keys: keys, readOnly: readOnly)
      if checkingPages { try Self.checkWhole(path, keys: keys, readOnly: readOnly) }
    } else {
      try Self.checkHeader(path)
    }
    self.keys = keys
    self.recordNaming = keys?.recordNaming ?? .clear
    let database = try SQLiteDatabase(path: path, readOnly: readOnly, keys: keys)
    self.database = database
    self.path = path

    do {
      _ = try database.prepare("SELECT count(*) FROM sqlite_schema").step()
    } catch {
      guard readOnly, error.message.contains("readonly") || error.message.contains("read-only")
      else { throw error }
      throw MigrationError(
        .sqlite, file: path,
        "\(error.message): the database holds an interrupted write (a hot journal) that only a read-write connection can roll back; open it read-write once (for example with sqlite3) and retry"
      )
    }
    let selection = try select(database)
    let table = selection.table
    let lookup = try database.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name = ?1 COLLATE NOCASE")
    try lookup.bind(.text(table), at: 1)
    guard try lookup.step(), case .text(let schemaTable) = lookup.value(0) else {
      let list = try database.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
      )
      var names: [String] = []
      while try list.step() {
        if case .text(let name) = list.value(0) { names.append(name) }
      }
      throw MigrationError(
        .invalidIdentifier, file: path,
        "no table '\(table)'; the tables are: \(names.isEmpty ? "(none)" : names.joined(separator: ", "))"
      )
    }
    self.table = schemaTable

    let info = try database.prepare("PRAGMA table_info(\(SQLiteDatabase.quote(schemaTable)))")
    var columns: [String] = []
    while try info.step() {
      if case .text(let name) = info.value(1) { columns.append(name) }
    }
    func column(_ name: String, _ role: String) throws(MigrationError) -> String {
      guard let found = columns.first(where: { $0.lowercased() == name.lowercased() }) else {
        throw MigrationError(
          .invalidIdentifier, place: Place(file: path, position: .table(schemaTable)),
          "no \(role) '\(name)'; the columns are: \(columns.joined(separator: ", "))")
      }
      return found
    }
    // A table without a declared key is keyed by SQLite's own rowid (`--key-column rowid`),
    // unless a column of that name shadows it or the table has none (WITHOUT ROWID).
    let key: String
    let rowidNames = ["rowid", "_rowid_", "oid"]
    if rowidNames.contains(selection.keyColumn.lowercased()),
      !columns.contains(where: { $0.lowercased() == selection.keyColumn.lowercased() }),
      (try? database.prepare(
        "SELECT rowid FROM \(SQLiteDatabase.quote(schemaTable)) LIMIT 0")) != nil
    {
      key = "rowid"
    } else {
      key = try column(selection.keyColumn, "key column")
    }
    let value = try column(selection.valueColumn, "value column")
    guard key != value else {
      throw MigrationError(
        .invalidIdentifier, place: Place(file: path, position: .table(schemaTable)),
        "the key column and the value column are both '\(key)'")
    }
    self.keyColumn = key
    self.valueColumn = value
    entity = selection.entity
    entityNames = selection.entityNames
    // Z_ENT values are integers from the store's own Z_PRIMARYKEY, written into the SQL as numbers.
    entityFilter =
      selection.entityFilter.map { filter in
        "\"Z_ENT\" IN (" + filter.sorted().map(String.init).joined(separator: ", ") + ")"
      } ?? ""
    let entityColumn = entityNames.isEmpty ? "NULL" : "\"Z_ENT\""
    let andFilter = entityFilter.isEmpty ? "" : " AND \(entityFilter)"
    let whereFilter = entityFilter.isEmpty ? "" : " WHERE \(entityFilter)"

    let quotedTable = SQLiteDatabase.quote(schemaTable)
    let quotedKey = SQLiteDatabase.quote(key)
    let quotedValue = SQLiteDatabase.quote(value)
    let shadowsRowid = columns.contains { ["rowid", "_rowid_", "oid"].contains($0.lowercased()) }
    var rowid = false
    if !shadowsRowid, (try? database.prepare("SELECT rowid FROM \(quotedTable) LIMIT 0")) != nil {
      rowid = true
    }
    hasRowid = rowid
    if rowid {
      pageStatement = try database.prepare(
        "SELECT rowid, \(quotedKey), \(quotedValue), \(entityColumn) FROM \(quotedTable) WHERE rowid > ?1\(andFilter) ORDER BY rowid LIMIT ?2"
      )
      firstPageStatement = nil
    } else {
      pageStatement = try database.prepare(
        "SELECT NULL, \(quotedKey), \(quotedValue), \(entityColumn) FROM \(quotedTable) WHERE \(quotedKey) > ?1\(andFilter) ORDER BY \(quotedKey) LIMIT ?2"
      )
      firstPageStatement = try database.prepare(
        "SELECT NULL, \(quotedKey), \(quotedValue), \(entityColumn) FROM \(quotedTable)\(whereFilter) ORDER BY \(quotedKey) LIMIT ?2"
      )
    }
  }

  /// Checks an encrypted store whole before a run reads or writes any of it (see
  /// `SQLCipherKeys.verifyStore(at:)`), after a read-write open has let SQLite roll back a
  /// write that was interrupted, as the next open of the store does in any case.
  private static func checkWhole(_ path: String, keys: SQLCipherKeys, readOnly: Bool)
    throws(MigrationError)
  {
    var rolledBack = false
    if !readOnly, DurableFile.kind(of: path + "-journal").exists {
      // The connection is closed before the pages are read with a descriptor of their own.
      let database = try SQLiteDatabase(path: path, readOnly: false, keys: keys)
      _ = try database.prepare("SELECT count(*) FROM sqlite_schema").step()
      rolledBack = !DurableFile.kind(of: path + "-journal").exists
    }
    do {
      try keys.verifyStore(at: path)
    } catch {
      throw error.adding(
        "an encrypted store is checked whole before a run reads or writes it, so "
          + (rolledBack
            ? "nothing was written but the rollback of an interrupted write, which any next open of the store makes"
            : "nothing was written"))
    }
  }

  /// Checks that a file exists and starts with SQLite's header.
  private static func checkHeader(_ path: String) throws(MigrationError) {
    let header: [UInt8]?
    do {
      header = try DurableFile.readPrefix(path, count: 16)
    } catch {
      throw MigrationError(.storeNotFound, file: path, error.message)
    }
    guard let header, header == Array("SQLite format 3\0".utf8) else {
      throw MigrationError(
        .storeNotFound, file: path, "neither a folder nor an SQLite database")
    }
  }

  /// The number of rows in the table.
  package func recordCount() throws(MigrationError) -> Int? {
    let filter = entityFilter.isEmpty ? "" : " WHERE \(entityFilter)"
    let statement = try database.prepare(
      "SELECT count(*) FROM \(SQLiteDatabase.quote(table))\(filter)")
    _ = try statement.step()
    return Int(statement.integer(0))
  }

  /// The next rows, in key order, at most `maximumCount` of them; empty at the end.
  package func nextBatch(maximumCount: Int) throws(MigrationError) -> [StoreRecord] {
    do {
      return try readBatch(maximumCount: maximumCount)
    } catch {
      // The run stops here: the error says what it had written by then.
      throw error.adding(writeProgress.statement)
    }
  }

  /// What a `migrate` run's writer has committed to the store so far.
  var writeProgress = SQLiteWriteProgress()

  private func readBatch(maximumCount: Int) throws(MigrationError) -> [StoreRecord] {
    guard !finished else { return [] }
    let statement: SQLiteStatement
    if hasRowid {
      statement = pageStatement
      try statement.bind(.integer(lastRowid), at: 1)
    } else if let lastKey {
      statement = pageStatement
      try statement.bind(lastKey, at: 1)
    } else {
      statement = firstPageStatement ?? pageStatement
    }
    try statement.bind(.integer(Int64(maximumCount)), at: 2)
    defer { statement.reset() }
    var records: [StoreRecord] = []
    records.reserveCapacity(maximumCount)
    while try statement.step() {
      let rowid: Int64? = hasRowid ? statement.integer(0) : nil
      let key = statement.value(1)
      var rowEntity = entity
      if var named = rowEntity, case .integer(let number) = statement.value(3),
        let name = entityNames[number]
      {
        named.name = name
        rowEntity = named
      }
      let id = RecordID.row(
        database: path, table: table, keyColumn: keyColumn, key: key, rowid: rowid,
        entity: rowEntity, naming: recordNaming)
      let content: StoreRecord.Content
      var isText = false
      switch statement.columnType(2) {
      case SQLITE_NULL: content = .null
      case SQLITE_INTEGER: content = .unsupported("the value is an SQL integer")
      case SQLITE_FLOAT: content = .unsupported("the value is an SQL real")
      case SQLITE_TEXT:
        isText = true
        content = .bytes(statement.bytes(2))
      default: content = .bytes(statement.bytes(2))
      }
      records.append(StoreRecord(id: id, content: content, storedAsText: isText))
      if let rowid { lastRowid = rowid } else { lastKey = key }
    }
    if records.count < maximumCount { finished = true }
    return records
  }

  /// Returns no paths: SQLite rolls an interrupted transaction back itself, so nothing is left over.
  package func removeStaleTemporaryFiles() -> [String] { [] }

  /// Makes the writer that `migrate` uses.
  ///
  /// - Parameters:
  ///   - runDirectory: Where the backup copy and the journal go; `nil` with
  ///     `--no-backup` (then `journalPath` may still name a journal).
  ///   - journalPath: The journal file; by default `RUN/journal.jsonl`.
  /// - Returns: A writer that backs up the database before its first change.
  package func makeWriter(runDirectory: String?, journalPath: String?) -> any RecordWriter {
    SQLiteRecordWriter(store: self, runDirectory: runDirectory, journalPath: journalPath)
  }
}
