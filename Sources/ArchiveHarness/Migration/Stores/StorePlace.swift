import ArchiveFormat
import CHarnessSQLite

/// One record named on the command line: an archive file, a row of an SQLite table, a Core
/// Data attribute of a row, a `Data` value of a property list, or a Keychain snapshot's item.
///
/// The text forms are the ones reports print for records (`RecordID`), so a place can be
/// copied from a report:
///
/// | Text | Names |
/// |---|---|
/// | `profile.archive` | a file |
/// | `Store:profiles/1.archive` | a file in a folder store (the same as `Store/profiles/1.archive`) |
/// | `cache.sqlite:store[key='a-legacy']` | the `value` column of the row whose `key` is `'a-legacy'` |
/// | `cache.sqlite:store['a-legacy']` | the same row, by the key column `key` |
/// | `cache.sqlite:store[id=7].payload` | the `payload` column of the row whose `id` is 7 (a table, not a Core Data entity) |
/// | `Books.sqlite:Book[Z_PK=48].cover` | the `cover` attribute of the `Book` whose `Z_PK` is 48 (also `Book[48].cover`) |
/// | `com.example.app.plist:recent[2]` | the `Data` value at a key path of a property list |
/// | `keychain.json:genericPassword."com.example.auth".alice` | the data of a Keychain snapshot's item, by class, service and account |
/// | `keychain.json:genericPassword.com.example.auth.alice` | the same item, its dots unquoted (matched whole against each item) |
///
/// A key is `'text'` (`''` for a quote inside), a number, `x'hex'` for a blob, or a bare word,
/// taken as text. The part before the first `:` that names an existing file or folder is the
/// store; a path that exists as given is a file, whatever colons it holds.
///
/// ```swift
/// let place = try StorePlace(parsing: "cache.sqlite:store[key='a-legacy']")
/// let record = try place.read()  // the row's bytes, named cache.sqlite:store[key='a-legacy']
/// ```
package struct StorePlace: Hashable, Sendable, CustomStringConvertible {
  /// What the place names.
  package enum Kind: Hashable, Sendable {
    /// A file, as given.
    case file(path: String)
    /// A file of a folder store, by its path relative to the folder.
    case folderFile(folder: String, relativePath: String)
    /// A row of an SQLite table, by its key, or a Core Data attribute of a row.
    ///
    /// `keyColumn` is `nil` where the text names none (`key`, or `Z_PK` for an entity);
    /// `column` is the value column, or the entity's attribute, `nil` for `value`.
    case row(database: String, table: String, keyColumn: String?, key: SQLiteValue, column: String?)
    /// A `Data` value of a property list, by its key path.
    case propertyListValue(file: String, keyPath: PropertyListKeyPath)
    /// An item of a Keychain snapshot (`KeychainSnapshotStore`), by its name as written:
    /// `CLASS.SERVICE.ACCOUNT`, quoted as reports print it or not.
    case keychainItem(snapshot: String, item: String)
  }

  /// What the place names.
  package var kind: Kind
  /// The place as it was written.
  package var text: String

  /// The place as it was written.
  package var description: String { text }

  /// Whether the place's value is a secret (a Keychain snapshot's item), whose text no report
  /// may print, as `RecordStore.holdsSecrets` says of a store.
  package var holdsSecrets: Bool {
    if case .keychainItem = kind { return true }
    return false
  }

  /// Reads a place's text, finding the store on disk: the longest-standing rule is that a
  /// path that exists as given is a file.
  ///
  /// - Parameter text: A file, or `STORE:POSITION` (the forms above).
  /// - Throws: `MigrationError`: `store-not-found` when no file or folder is named,
  ///   `invalid-place` when the position does not read or does not fit the store.
  package init(parsing text: String) throws(MigrationError) {
    self.text = text
    if DurableFile.kind(of: text).exists {
      kind = .file(path: text)
      return
    }
    var colon = text.firstIndex(of: ":")
    while let index = colon {
      let store = String(text[..<index])
      let position = String(text[text.index(after: index)...])
      let found = DurableFile.kind(of: store)
      if found.exists, !store.isEmpty {
        kind = try Self.kind(store: store, isFolder: found.isDirectory, position: position, text)
        return
      }
      colon = text[text.index(after: index)...].firstIndex(of: ":")
    }
    let file = text.firstIndex(of: ":").map { String(text[..<$0]) } ?? text
    throw MigrationError(
      .storeNotFound, file: text,
      file == text ? "no such file or folder" : "no such file or folder '\(file)'")
  }

  /// The kind of a place whose store exists, by what the store is.
  private static func kind(
    store: String, isFolder: Bool, position: String, _ text: String
  ) throws(MigrationError) -> Kind {
    guard !position.isEmpty else {
      throw MigrationError(
        .invalidPlace, file: text, "nothing follows the ':' after '\(store)'; name a record")
    }
    if isFolder {
      return .folderFile(folder: store, relativePath: position)
    }
    let prefix = try DurableFile.readPrefix(store, count: 16) ?? []
    if prefix == Array("SQLite format 3\0".utf8) {
      return try row(database: store, position: position, text)
    }
    if KeychainSnapshot.looksLikeSnapshot(atPath: store) {
      return .keychainItem(snapshot: store, item: position)
    }
    if PropertyListStore.looksLikePropertyList(atPath: store) {
      guard let keyPath = PropertyListKeyPath(parsing: position) else {
        throw MigrationError(
          .invalidPlace, file: text,
          "'\(position)' is not a key path of a property list (profile.current, recent[2], \"a.b\")"
        )
      }
      return .propertyListValue(file: store, keyPath: keyPath)
    }
    throw MigrationError(
      .invalidPlace, file: text,
      "'\(store)' is neither a folder, an SQLite database, a property list nor a Keychain "
        + "snapshot, so '\(position)' names no record in it")
  }

  /// A row's position: `TABLE[KEY]`, `TABLE[COLUMN=KEY]`, either followed by `.COLUMN`.
  private static func row(database: String, position: String, _ text: String)
    throws(MigrationError) -> Kind
  {
    let malformed = MigrationError(
      .invalidPlace, file: text,
      "'\(position)' is not a row: write TABLE[KEY], TABLE[COLUMN=KEY] or "
        + "ENTITY[Z_PK=KEY].ATTRIBUTE (a key in quotes: store['a b'])")
    guard let open = position.firstIndex(of: "["), open != position.startIndex else {
      throw malformed
    }
    let table = String(position[..<open])
    // The brackets end at the first ']' outside quotes.
    var inQuotes = false
    var close: String.Index? = nil
    var index = position.index(after: open)
    while index < position.endIndex {
      let character = position[index]
      if character == "'" {
        inQuotes.toggle()
      } else if character == "]", !inQuotes {
        close = index
        break
      }
      index = position.index(after: index)
    }
    guard let close else { throw malformed }
    let inside = String(position[position.index(after: open)..<close])
    let rest = position[position.index(after: close)...]
    var column: String? = nil
    if !rest.isEmpty {
      guard rest.first == ".", rest.count > 1 else { throw malformed }
      column = String(rest.dropFirst())
    }
    var keyColumn: String? = nil
    var literal = inside
    if let equals = inside.firstIndex(of: "="), !inside.hasPrefix("'"),
      !inside.lowercased().hasPrefix("x'")
    {
      keyColumn = String(inside[..<equals]).trimmingSpaces()
      literal = String(inside[inside.index(after: equals)...])
      guard keyColumn?.isEmpty == false else { throw malformed }
    }
    guard let key = keyValue(literal.trimmingSpaces()) else { throw malformed }
    return .row(
      database: database, table: table, keyColumn: keyColumn, key: key, column: column)
  }

  /// A key as the brackets write it: `'text'`, `x'hex'`, a number, or a bare word (text).
  static func keyValue(_ literal: String) -> SQLiteValue? {
    guard !literal.isEmpty else { return nil }
    if literal.hasPrefix("'") {
      guard literal.count >= 2, literal.hasSuffix("'") else { return nil }
      let body = literal.dropFirst().dropLast()
      // Inside, a quote is doubled; a single one would have ended the text.
      var text = ""
      var pendingQuote = false
      for character in body {
        if character == "'" {
          if pendingQuote {
            text.append("'")
            pendingQuote = false
          } else {
            pendingQuote = true
          }
          continue
        }
        guard !pendingQuote else { return nil }
        text.append(character)
      }
      return pendingQuote ? nil : .text(text)
    }
    if literal.lowercased().hasPrefix("x'") {
      guard literal.hasSuffix("'"), literal.count >= 3 else { return nil }
      let hex = Array(literal.utf8.dropFirst(2).dropLast())
      guard hex.count % 2 == 0 else { return nil }
      var bytes: [UInt8] = []
      for start in stride(from: 0, to: hex.count, by: 2) {
        guard let byte = UInt8(String(decoding: hex[start..<start + 2], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(byte)
      }
      return .blob(bytes)
    }
    if let integer = Int64(literal) { return .integer(integer) }
    if literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let real = Double(literal),
      real.isFinite
    {
      return .real(real)
    }
    guard !literal.contains("'") else { return nil }
    return .text(literal)
  }

  /// Reads the record the place names.
  ///
  /// - Parameter maximumSize: The largest file or value read (64 MiB by default).
  /// - Returns: The record, named as reports name it.
  /// - Throws: `MigrationError` naming the store and the place: a missing file, table,
  ///   column, row, key path or Keychain item (`record-not-found`), a store that does not open
  ///   or a snapshot that does not read (`not-a-store`, at the member).
  package func read(maximumSize: Int = 64 << 20) throws(MigrationError) -> StoreRecord {
    switch kind {
    case .file(let path):
      if DurableFile.kind(of: path).isDirectory {
        throw MigrationError(
          .invalidPlace, file: path,
          "a folder, not an archive: name a file in it, or compare two folders with --store")
      }
      return try Self.readFile(
        DurableFile.canonical(path), id: .file(path: path, relativePath: path),
        maximumSize: maximumSize)
    case .folderFile(let folder, let relativePath):
      let path = folder + "/" + relativePath
      guard DurableFile.kind(of: path).exists else {
        throw MigrationError(
          .recordNotFound, file: text, "the folder '\(folder)' holds no file '\(relativePath)'")
      }
      return try Self.readFile(
        path, id: .file(path: path, relativePath: relativePath), maximumSize: maximumSize)
    case .propertyListValue(let file, let keyPath):
      let store = try PropertyListStore(path: file, maximumFileSize: maximumSize)
      while case let batch = store.nextBatch(maximumCount: 512), !batch.isEmpty {
        for record in batch {
          if case .propertyListValue(keyPath) = record.id.kind { return record }
        }
      }
      throw MigrationError(
        .recordNotFound, place: Place(file: file, position: .keyPath(keyPath.description)),
        "the property list holds no Data value at '\(keyPath)'")
    case .keychainItem(let snapshot, let item):
      return try KeychainSnapshotStore(path: snapshot, maximumFileSize: maximumSize)
        .record(named: item)
    case .row(let database, let table, let keyColumn, let key, let column):
      return try readRow(
        database: database, table: table, keyColumn: keyColumn, key: key, column: column,
        maximumSize: maximumSize)
    }
  }

  private static func readFile(_ path: String, id: RecordID, maximumSize: Int)
    throws(MigrationError) -> StoreRecord
  {
    let read = try DurableFile.readFile(path, limit: maximumSize)
    guard let bytes = read.bytes else {
      throw MigrationError(
        .limitExceeded, file: id.description,
        "the file of \(read.size) bytes exceeds the limit of \(maximumSize) bytes")
    }
    return StoreRecord(id: id, content: .bytes(bytes))
  }

  /// Opens the table (or the Core Data entity, when the database is a Core Data store and the
  /// place names an attribute) and reads the one row whose key is the place's.
  private func readRow(
    database: String, table: String, keyColumn: String?, key: SQLiteValue, column: String?,
    maximumSize: Int
  ) throws(MigrationError) -> StoreRecord {
    do throws(MigrationError) {
      return try readOneRow(
        database: database, table: table, keyColumn: keyColumn, key: key, column: column,
        maximumSize: maximumSize)
    } catch {
      // The store's own errors name the database, or a table of it; the place names the
      // record too. An error at the row itself keeps its place.
      if case .row(_, _?, _)? = error.place.position { throw error }
      throw MigrationError(error.code, file: text, error.message)
    }
  }

  /// ``readRow(database:table:keyColumn:key:column:maximumSize:)`` before its errors are placed.
  private func readOneRow(
    database: String, table: String, keyColumn: String?, key: SQLiteValue, column: String?,
    maximumSize: Int
  ) throws(MigrationError) -> StoreRecord {
    let store: SQLiteStore
    // A Core Data store's entity by name; its tables (ZBOOK[Z_PK=1].ZCOVER) still by table.
    if let column, try Self.coreDataSchema(database)?.entity(named: table) != nil {
      if let keyColumn, keyColumn.uppercased() != "Z_PK" {
        throw MigrationError(
          .invalidPlace, file: text,
          "a Core Data row is named by its Z_PK: \(table)[Z_PK=\(key.displayText)].\(column)")
      }
      store = try SQLiteStore(path: database, entity: table, attribute: column, readOnly: true)
    } else {
      store = try SQLiteStore(
        path: database, table: table, keyColumn: keyColumn ?? "key",
        valueColumn: column ?? "value", readOnly: true)
    }
    let statement = try store.database.prepare(
      "SELECT \(SQLiteDatabase.quote(store.valueColumn)) FROM \(SQLiteDatabase.quote(store.table))"
        + " WHERE \(SQLiteDatabase.quote(store.keyColumn)) = ?1 LIMIT 2")
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    let id = RecordID.row(
      database: database, table: store.table, keyColumn: store.keyColumn, key: key, rowid: nil,
      entity: store.entity)
    guard try statement.step() else {
      throw MigrationError(
        .recordNotFound, place: id.place,
        "no row of '\(store.table)' has \(store.keyColumn) = \(key.displayText)")
    }
    let content: StoreRecord.Content
    switch statement.columnType(0) {
    case SQLITE_NULL: content = .null
    case SQLITE_INTEGER: content = .unsupported("the value is an SQL integer")
    case SQLITE_FLOAT: content = .unsupported("the value is an SQL real")
    default:
      guard statement.byteCount(0) <= maximumSize else {
        throw MigrationError(
          .limitExceeded, place: id.place,
          "the value of \(statement.byteCount(0)) bytes exceeds the limit of \(maximumSize) bytes")
      }
      content = .bytes(statement.bytes(0))
    }
    guard try !statement.step() else {
      throw MigrationError(
        .invalidPlace, place: id.place,
        "more than one row of '\(store.table)' has \(store.keyColumn) = \(key.displayText); "
          + "name a unique key column: \(store.table)[COLUMN=KEY]")
    }
    return StoreRecord(id: id, content: content)
  }

  /// A Core Data store's model (it has `Z_PRIMARYKEY` and `Z_METADATA`), or `nil` for another
  /// database.
  private static func coreDataSchema(_ path: String) throws(MigrationError) -> CoreDataSchema? {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    return try CoreDataSchema.read(database)
  }
}

extension MigrationError.Code {
  /// A record named on the command line that does not exist: no such row, key path or file in
  /// the store.
  package static let recordNotFound = MigrationError.Code("record-not-found")
  /// A place on the command line that does not read, or does not fit its store.
  package static let invalidPlace = MigrationError.Code("invalid-place")
}

extension String {
  /// The text without spaces at either end.
  fileprivate func trimmingSpaces() -> String {
    var text = Substring(self)
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}
