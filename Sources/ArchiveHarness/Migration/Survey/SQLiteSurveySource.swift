import CHarnessSQLite

/// Feeds a census every value of every text and blob column of an SQLite database, one pass
/// over each table, in bounded batches by rowid.
///
/// The database is opened read-only, through the VFS that writes nothing (no `-shm`, no
/// journal). A column is read when its declared type gives it TEXT or BLOB affinity (SQLite's
/// rules: `CHAR`, `CLOB`, `TEXT`, `BLOB`, or no type), except the table's key column; integer,
/// real and numeric columns are not. Virtual tables are not read.
struct SQLiteSurveySource {
  /// The database file.
  let path: String
  /// How rows are named in examples: an encrypted store's by rowid and a keyed hash of the key.
  let recordNaming: RecordKeyNaming
  /// Rows per batch.
  var batchSize = 1024

  private let database: SQLiteDatabase

  /// Opens the database read-only.
  ///
  /// - Throws: `MigrationError` when it is not an SQLite database, cannot be opened,
  ///   holds a hot journal that only a read-write connection could roll back, or (encrypted)
  ///   has a page or a `-wal` frame that fails its check.
  init(path: String, keys: SQLCipherKeys?) throws(MigrationError) {
    if let keys {
      try HotJournal.check(database: path, keys: keys, readOnly: true)
      do {
        try keys.verifyStore(at: path)
      } catch {
        throw error.adding("survey checks an encrypted store whole before it reads it")
      }
    }
    self.path = path
    recordNaming = keys?.recordNaming ?? .clear
    database = try SQLiteDatabase(path: path, readOnly: true, keys: keys)
    do {
      _ = try database.prepare("SELECT count(*) FROM sqlite_schema").step()
    } catch {
      guard error.message.contains("readonly") || error.message.contains("read-only") else {
        throw error
      }
      throw MigrationError(
        .sqlite, file: path,
        "\(error.message): the database holds an interrupted write (a hot journal) that only a read-write connection can roll back; survey writes nothing, so open it read-write once (for example with sqlite3 or the app) and retry"
      )
    }
  }

  /// A column of a table, from `PRAGMA table_info`.
  struct Column {
    var name: String
    var type: String
    var primaryKeyPosition: Int
  }

  /// Reads the whole database into the census.
  ///
  /// - Returns: The Core Data model, when the store has one.
  /// - Throws: `MigrationError` when a table cannot be read.
  func run(into census: SurveyCensus, report: inout SurveyReport) throws(MigrationError)
    -> CoreDataSchema?
  {
    // A table named Z_PRIMARYKEY that Core Data did not write (other columns) is no reason to
    // stop: the store is then surveyed as a plain one.
    let coreData = (try? CoreDataSchema.read(database)) ?? nil
    let list = try database.prepare(
      "SELECT name, coalesce(sql, '') FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    )
    var tables: [(name: String, sql: String)] = []
    while try list.step() {
      if case .text(let name) = list.value(0), case .text(let sql) = list.value(1) {
        tables.append((name, sql))
      }
    }
    for (table, sql) in tables {
      if sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") {
        report.skippedTables.append(
          (table, "a virtual table (its module's data is read through its shadow tables, if any)"))
        continue
      }
      report.tables += 1
      let scanned = try survey(table: table, coreData: coreData, census: census)
      report.columns += scanned.columns
      report.rows += scanned.rows
    }
    return coreData
  }

  /// Reads one table: one pass, its text and blob columns at once.
  private func survey(table: String, coreData: CoreDataSchema?, census: SurveyCensus)
    throws(MigrationError) -> (columns: Int, rows: Int)
  {
    let quotedTable = SQLiteDatabase.quote(table)
    let info = try database.prepare("PRAGMA table_info(\(quotedTable))")
    var columns: [Column] = []
    while try info.step() {
      guard case .text(let name) = info.value(1) else { continue }
      var type = ""
      if case .text(let declared) = info.value(2) { type = declared }
      columns.append(Column(name: name, type: type, primaryKeyPosition: Int(info.integer(5))))
    }
    let shadowsRowid = columns.contains {
      ["rowid", "_rowid_", "oid"].contains($0.name.lowercased())
    }
    let hasRowid =
      !shadowsRowid && (try? database.prepare("SELECT rowid FROM \(quotedTable) LIMIT 0")) != nil
    let (key, keyProblem) = try keyColumn(of: table, columns: columns, hasRowid: hasRowid)
    let scanned = columns.filter {
      Self.readsBytes(declaredType: $0.type) && $0.name != key?.column
    }
    guard !scanned.isEmpty else { return (0, 0) }

    let entities = coreData?.entities(inTable: table) ?? []
    let entityColumn =
      entities.isEmpty ? nil : columns.first { $0.name.uppercased() == "Z_ENT" }?.name
    let places = scanned.map { census.place(.column(table: table, column: $0.name)) }
    for place in places {
      census.update(place) {
        $0.keyColumn = key
        $0.keyProblem = keyProblem
      }
    }
    // Per place, the values held by rows of each Z_ENT, to name the entity a column belongs to.
    var entityCounts = [[Int64: Int]](repeating: [:], count: places.count)

    let keySQL = key.map { SQLiteDatabase.quote($0.column) } ?? "NULL"
    let entitySQL = entityColumn.map(SQLiteDatabase.quote) ?? "NULL"
    let valueSQL = scanned.map { SQLiteDatabase.quote($0.name) }.joined(separator: ", ")
    let keyName = key?.column ?? "rowid"
    let statement: SQLiteStatement
    if hasRowid {
      statement = try database.prepare(
        "SELECT rowid, \(keySQL), \(entitySQL), \(valueSQL) FROM \(quotedTable) WHERE rowid > ?1 ORDER BY rowid LIMIT ?2"
      )
    } else {
      // A table without rowids is read by one statement, stepped as it goes: still one row
      // in memory at a time.
      statement = try database.prepare(
        "SELECT NULL, \(keySQL), \(entitySQL), \(valueSQL) FROM \(quotedTable)")
    }
    var rows = 0
    var lastRowid = Int64.min
    var more = true
    while more {
      if hasRowid {
        try statement.bind(.integer(lastRowid), at: 1)
        try statement.bind(.integer(Int64(batchSize)), at: 2)
      }
      var inBatch = 0
      while try statement.step() {
        inBatch += 1
        rows += 1
        let rowid = statement.integer(0)
        lastRowid = rowid
        let entity: Int64? =
          statement.columnType(2) == SQLITE_INTEGER ? statement.integer(2) : nil
        for (position, place) in places.enumerated() {
          let column = Int32(3 + position)
          switch statement.columnType(column) {
          case SQLITE_NULL:
            census.countNull(at: place)
            continue
          case SQLITE_INTEGER, SQLITE_FLOAT:
            census.countNonBlob(at: place)
          case let type:
            statement.withBytes(column) { bytes in
              census.count(bytes, at: place, isBlob: type == SQLITE_BLOB) {
                let value = key == nil ? SQLiteValue.integer(rowid) : statement.value(1)
                return .row(
                  database: path, table: table, keyColumn: keyName, key: value,
                  naming: recordNaming)
              }
            }
          }
          if let entity { entityCounts[position][entity, default: 0] += 1 }
        }
      }
      statement.reset()
      more = hasRowid && inBatch == batchSize
    }
    if let coreData, !entities.isEmpty {
      for (position, place) in places.enumerated() {
        let name = Self.coreDataNames(
          column: scanned[position].name, seen: entityCounts[position], tableEntities: entities,
          schema: coreData)
        census.update(place) {
          $0.entity = name.entity
          $0.attribute = name.attribute
          $0.entitiesSeen = name.seen
        }
      }
    }
    return (scanned.count, rows)
  }

  /// Whether a declared type has TEXT or BLOB affinity, by SQLite's rules (section 3.1 of
  /// "Datatypes In SQLite"): `INT` gives INTEGER; then `CHAR`, `CLOB` or `TEXT` give TEXT; then
  /// `BLOB` or no type give BLOB; anything else is REAL or NUMERIC.
  static func readsBytes(declaredType: String) -> Bool {
    let type = declaredType.uppercased()
    if type.contains("INT") { return false }
    if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return true }
    return type.contains("BLOB") || type.trimmingSpaces.isEmpty
  }

  /// The key column `migrate` would use: the INTEGER PRIMARY KEY, a single-column primary key,
  /// or a text column a unique index covers alone; else why there is none.
  private func keyColumn(of table: String, columns: [Column], hasRowid: Bool)
    throws(MigrationError) -> (SurveyKeyColumn?, String?)
  {
    let primary = columns.filter { $0.primaryKeyPosition > 0 }
    if primary.count == 1, let only = primary.first {
      let isRowidAlias = hasRowid && only.type.uppercased() == "INTEGER"
      return (
        SurveyKeyColumn(column: only.name, kind: isRowidAlias ? .integerPrimaryKey : .primaryKey),
        nil
      )
    }
    let indexes = try database.prepare("PRAGMA index_list(\(SQLiteDatabase.quote(table)))")
    var unique: [String] = []
    while try indexes.step() {
      guard indexes.integer(2) == 1, indexes.integer(4) == 0,
        case .text(let name) = indexes.value(1)
      else { continue }
      unique.append(name)
    }
    var candidates: [Column] = []
    for index in unique {
      let info = try database.prepare("PRAGMA index_info(\(SQLiteDatabase.quote(index)))")
      var indexed: [String] = []
      while try info.step() {
        if case .text(let name) = info.value(2) { indexed.append(name) } else { indexed.append("") }
      }
      guard indexed.count == 1, let name = indexed.first,
        let column = columns.first(where: { $0.name == name }),
        Self.hasTextAffinity(column.type)
      else { continue }
      candidates.append(column)
    }
    if let chosen = candidates.min(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
      return (SurveyKeyColumn(column: chosen.name, kind: .uniqueText), nil)
    }
    if primary.count > 1 {
      let names = primary.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
      return (
        nil,
        "the primary key has \(primary.count) columns (\(names.joined(separator: ", "))) and no text column is unique on its own; migrate needs one key column"
      )
    }
    return (nil, "no primary key and no unique text column; migrate needs a key column")
  }

  private static func hasTextAffinity(_ declaredType: String) -> Bool {
    let type = declaredType.uppercased()
    return !type.contains("INT")
      && (type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT"))
  }

  /// The entity and attribute a column of an entity's table holds: the nearest entity every row
  /// holding a value is or descends from, or the table's root entity when no row holds one.
  static func coreDataNames(
    column: String, seen: [Int64: Int], tableEntities: [CoreDataSchema.Entity],
    schema: CoreDataSchema
  ) -> (entity: String?, attribute: String?, seen: [String]) {
    guard let attribute = CoreDataSchema.attributeName(ofColumn: column) else {
      return (nil, nil, [])
    }
    let known = seen.keys.filter { id in tableEntities.contains { $0.id == id } }
    let names = known.compactMap { schema.entity(id: $0)?.name }.sorted()
    if known.isEmpty {
      let root = tableEntities.first { entity in
        entity.superID.map { parent in !tableEntities.contains { $0.id == parent } } ?? true
      }
      return (root?.name, attribute, names)
    }
    return (schema.commonAncestor(of: known)?.name, attribute, names)
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: Substring {
    var text = self[...]
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text
  }
}
