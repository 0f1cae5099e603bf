import CHarnessSQLite

/// A connection to an SQLite database, used from one thread; every error names the database file.
final class SQLiteDatabase {
  /// The database file's path.
  let path: String
  private var handle: OpaquePointer?

  /// The VFS the connection goes through: an encrypted store's, or a read-only one's.
  let vfs: CipherVFS?

  /// Opens a database.
  ///
  /// A read-only connection goes through a VFS that refuses every write and in
  /// exclusive locking mode, so that nothing at all changes on disk: not the
  /// database, not a `-shm` (a WAL is read into heap memory), and no journal. An
  /// encrypted store goes through its keys' VFS, with temporary files in memory
  /// and memory mapping off, so that no plaintext page reaches a disk.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - readOnly: Opens with `SQLITE_OPEN_READONLY`: nothing, not even a checkpoint, can change the file.
  ///   - create: Creates the file when it is missing (only with `readOnly` false).
  ///   - keys: An SQLCipher store's keys.
  /// - Throws: `MigrationError` naming the file when SQLite cannot open it.
  init(path: String, readOnly: Bool, create: Bool = false, keys: SQLCipherKeys? = nil)
    throws(MigrationError)
  {
    self.path = path
    let vfs =
      readOnly || keys != nil
      ? try CipherVFS(codec: keys?.codec, readOnly: readOnly, path: path) : nil
    self.vfs = vfs
    var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
    if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
    flags |= SQLITE_OPEN_NOMUTEX
    var connection: OpaquePointer?
    let status = sqlite3_open_v2(path, &connection, flags, vfs?.name)
    handle = connection
    guard status == SQLITE_OK, connection != nil else {
      let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(connection)
      handle = nil
      // A page that failed its check is the reason, not SQLite's "disk I/O error".
      if let failure = vfs?.failure(path: path) { throw failure }
      throw MigrationError(.sqlite, file: path, "cannot open the database: \(message)")
    }
    sqlite3_busy_timeout(connection, 10_000)
    if readOnly {
      try execute("PRAGMA locking_mode = EXCLUSIVE")
      try execute("PRAGMA query_only = 1")
    }
    if vfs != nil {
      try execute("PRAGMA temp_store = MEMORY")
      try execute("PRAGMA mmap_size = 0")
    }
  }

  /// The error for a failed call: the VFS's own (a page that fails its check) when it has one.
  func error(_ context: String) -> MigrationError {
    if let failure = vfs?.failure(path: path) { return failure }
    return MigrationError(.sqlite, file: path, "\(lastMessage) (\(context))")
  }

  deinit {
    // The connection closes before its VFS is unregistered (a stored property, released after).
    sqlite3_close_v2(handle)
    handle = nil
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
      if let failure = vfs?.failure(path: path) { throw failure }
      throw MigrationError(.sqlite, file: path, "\(message) (in: \(sql.prefix(120)))")
    }
  }

  /// Prepares a statement.
  func prepare(_ sql: String) throws(MigrationError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard status == SQLITE_OK, let statement else {
      throw error("in: \(sql.prefix(120))")
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
