import CSQLite

/// A connection to an SQLite database, used from one thread; every error names the database file.
final class SQLiteDatabase {
  /// The database file's path.
  let path: String
  private var handle: OpaquePointer?

  /// Opens a database.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - readOnly: Opens with `SQLITE_OPEN_READONLY`: nothing, not even a checkpoint, can change the file.
  ///   - create: Creates the file when it is missing (only with `readOnly` false).
  /// - Throws: ``MigrationError`` naming the file when SQLite cannot open it.
  init(path: String, readOnly: Bool, create: Bool = false) throws(MigrationError) {
    self.path = path
    var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
    if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
    flags |= SQLITE_OPEN_NOMUTEX
    var connection: OpaquePointer?
    let status = sqlite3_open_v2(path, &connection, flags, nil)
    handle = connection
    guard status == SQLITE_OK, connection != nil else {
      let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(connection)
      handle = nil
      throw MigrationError(.sqlite, place: path, "cannot open the database: \(message)")
    }
    sqlite3_busy_timeout(connection, 10_000)
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// The raw connection, for statements.
  var connection: OpaquePointer? { handle }

  /// The last error message of this connection.
  var lastMessage: String {
    guard let handle else { return "closed" }
    return String(cString: sqlite3_errmsg(handle))
  }

  /// Runs SQL that returns no rows.
  func execute(_ sql: String) throws(MigrationError) {
    var errorText: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &errorText)
    if status != SQLITE_OK {
      let message = errorText.map { String(cString: $0) } ?? lastMessage
      sqlite3_free(errorText)
      throw MigrationError(.sqlite, place: path, "\(message) (in: \(sql.prefix(120)))")
    }
  }

  /// Prepares a statement.
  func prepare(_ sql: String) throws(MigrationError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard status == SQLITE_OK, let statement else {
      throw MigrationError(.sqlite, place: path, "\(lastMessage) (in: \(sql.prefix(120)))")
    }
    return SQLiteStatement(statement: statement, database: self, sql: sql)
  }

  /// The number of rows the last statement changed.
  var changes: Int { Int(sqlite3_changes(handle)) }

  /// Quotes an identifier for SQL: `"name"`, with inner quotes doubled.
  static func quote(_ identifier: String) -> String {
    "\"" + identifier.replacingAll("\"", with: "\"\"") + "\""
  }

  /// Quotes a string literal for SQL: `'text'`, with inner quotes doubled.
  static func literal(_ text: String) -> String {
    "'" + text.replacingAll("'", with: "''") + "'"
  }
}
