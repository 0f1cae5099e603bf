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

/// A prepared statement; finalized when released.
final class SQLiteStatement {
  private let statement: OpaquePointer
  private let database: SQLiteDatabase
  private let sql: String

  init(statement: OpaquePointer, database: SQLiteDatabase, sql: String) {
    self.statement = statement
    self.database = database
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(statement)
  }

  /// Binds a value to a 1-based parameter.
  func bind(_ value: SQLiteValue, at index: Int32) throws(MigrationError) {
    let status: Int32
    switch value {
    case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
    case .real(let number): status = sqlite3_bind_double(statement, index, number)
    case .text(let text):
      status = sqlite3_bind_text(statement, index, text, -1, harness_sqlite_transient())
    case .blob(let bytes): status = bindBlob(bytes, at: index)
    case .null: status = sqlite3_bind_null(statement, index)
    }
    try check(status)
  }

  /// Binds bytes as a BLOB, or as TEXT when `asText`.
  func bind(bytes: [UInt8], asText: Bool, at index: Int32) throws(MigrationError) {
    if asText {
      let status = bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress.map { base in
          base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
            sqlite3_bind_text(
              statement, index, text, Int32(buffer.count), harness_sqlite_transient())
          }
        } ?? sqlite3_bind_text(statement, index, "", 0, harness_sqlite_transient())
      }
      try check(status)
    } else {
      try check(bindBlob(bytes, at: index))
    }
  }

  private func bindBlob(_ bytes: [UInt8], at index: Int32) -> Int32 {
    bytes.withUnsafeBytes { buffer in
      // A zero-length blob needs a non-null pointer to stay a blob rather than NULL.
      sqlite3_bind_blob(
        statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
        Int32(buffer.count),
        harness_sqlite_transient())
    }
  }

  /// Steps once: `true` when a row is ready, `false` when done.
  func step() throws(MigrationError) -> Bool {
    let status = sqlite3_step(statement)
    if status == SQLITE_ROW { return true }
    if status == SQLITE_DONE { return false }
    throw MigrationError(
      .sqlite, place: database.path, "\(database.lastMessage) (in: \(sql.prefix(120)))")
  }

  /// Resets the statement and clears its bindings.
  func reset() {
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
  }

  /// The storage class of a 0-based column of the current row.
  func columnType(_ index: Int32) -> Int32 {
    sqlite3_column_type(statement, index)
  }

  /// A 0-based column of the current row, as a value.
  func value(_ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT: return .text(String(decoding: bytes(index), as: UTF8.self))
    case SQLITE_BLOB: return .blob(bytes(index))
    default: return .null
    }
  }

  /// A 0-based column's bytes (BLOB or TEXT) without conversion.
  func bytes(_ index: Int32) -> [UInt8] {
    let isText = sqlite3_column_type(statement, index) == SQLITE_TEXT
    let pointer: UnsafeRawPointer? =
      isText
      ? UnsafeRawPointer(sqlite3_column_text(statement, index))
      : sqlite3_column_blob(statement, index)
    let count = Int(sqlite3_column_bytes(statement, index))
    guard let pointer, count > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// A 0-based column as an integer.
  func integer(_ index: Int32) -> Int64 {
    sqlite3_column_int64(statement, index)
  }

  private func check(_ status: Int32) throws(MigrationError) {
    guard status == SQLITE_OK else {
      throw MigrationError(
        .sqlite, place: database.path, "\(database.lastMessage) (binding in: \(sql.prefix(120)))")
    }
  }
}
