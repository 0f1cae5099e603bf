import CNotesSQLite
import Foundation

/// Writes an SQLite key-value store, one archive per row, as the app's cache keeps its notes.
struct StoreWriter {
  /// The database file.
  var path: String
  /// The table, with columns `key TEXT PRIMARY KEY` and `value BLOB`.
  var table: String

  /// Creates the table afresh and inserts the rows in one transaction.
  func write(_ rows: [(key: String, value: [UInt8])]) throws {
    unlink(path)
    var database: OpaquePointer?
    guard sqlite3_open(path, &database) == SQLITE_OK else {
      throw GeneratorError("cannot create the SQLite store \(path)")
    }
    defer { sqlite3_close(database) }
    try execute(database, "CREATE TABLE \"\(table)\" (key TEXT PRIMARY KEY, value BLOB)")
    try execute(database, "BEGIN")
    var statement: OpaquePointer?
    guard
      sqlite3_prepare_v2(
        database, "INSERT INTO \"\(table)\" (key, value) VALUES (?1, ?2)", -1, &statement, nil)
        == SQLITE_OK
    else { throw GeneratorError("cannot prepare the insert") }
    defer { sqlite3_finalize(statement) }
    for row in rows {
      sqlite3_bind_text(statement, 1, row.key, -1, notes_sqlite_transient())
      _ = row.value.withUnsafeBytes {
        sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), notes_sqlite_transient())
      }
      guard sqlite3_step(statement) == SQLITE_DONE else {
        throw GeneratorError("cannot insert \(row.key)")
      }
      sqlite3_reset(statement)
    }
    try execute(database, "COMMIT")
  }

  private func execute(_ database: OpaquePointer?, _ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(database, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "error"
      sqlite3_free(message)
      throw GeneratorError("sqlite: \(text) in \(sql)")
    }
  }
}
