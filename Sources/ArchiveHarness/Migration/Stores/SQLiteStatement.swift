import CHarnessSQLite

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
    throw database.error("in: \(sql.prefix(120))")
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

  /// Calls `body` with a 0-based column's bytes (BLOB or TEXT) where SQLite holds them, without a copy.
  ///
  /// The buffer is valid only inside `body`, and only until the statement steps or resets.
  func withBytes<Result>(_ index: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    let isText = sqlite3_column_type(statement, index) == SQLITE_TEXT
    let pointer: UnsafeRawPointer? =
      isText
      ? UnsafeRawPointer(sqlite3_column_text(statement, index))
      : sqlite3_column_blob(statement, index)
    let count = Int(sqlite3_column_bytes(statement, index))
    guard let pointer, count > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    return body(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// The number of bytes of a 0-based column's BLOB or TEXT value, without reading it.
  func byteCount(_ index: Int32) -> Int {
    Int(sqlite3_column_bytes(statement, index))
  }

  /// A 0-based column as an integer.
  func integer(_ index: Int32) -> Int64 {
    sqlite3_column_int64(statement, index)
  }

  private func check(_ status: Int32) throws(MigrationError) {
    guard status == SQLITE_OK else {
      throw database.error("binding in: \(sql.prefix(120))")
    }
  }
}
