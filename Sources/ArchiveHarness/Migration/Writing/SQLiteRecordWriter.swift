import ArchiveFormat

/// Writes verified rewrites into an SQLite table: a backup first, then compare-and-swap updates in bounded transactions.
///
/// Before the first change it copies the database with `VACUUM INTO` (which
/// works for WAL databases and while other connections read). Each batch is
/// journaled and synced, then applied in one `BEGIN IMMEDIATE` transaction of
/// `UPDATE t SET value = new WHERE key = k AND value = old` statements: a row
/// that a concurrent writer changed is left with its newer value and reported.
final class SQLiteRecordWriter: RecordWriter {
  private let store: SQLiteStore
  private let run: JournalSession
  private var update: SQLiteStatement?
  private(set) var backupPath: String?

  init(store: SQLiteStore, runDirectory: String?, journalPath: String?) {
    self.store = store
    self.run = JournalSession(runDirectory: runDirectory, journalPath: journalPath)
  }

  var journalPath: String? { run.journalPath }

  private func start() throws(MigrationError) {
    run.started = true
    store.writeProgress.started = true
    var backup: JSONValue = .null
    if let runDirectory = run.runDirectory {
      try DurableFile.makeDirectories(runDirectory)
      let name = store.path.split(separator: "/").last.map(String.init) ?? "store.sqlite"
      let target = runDirectory + "/" + name
      if store.keys != nil {
        try copyEncrypted(to: target)
      } else {
        do {
          try store.database.execute("VACUUM INTO \(SQLiteDatabase.literal(target))")
        } catch {
          throw MigrationError(
            .backupFailed, file: target, "cannot back up \(store.path): \(error.message)")
        }
        try DurableFile.syncFile(target)
      }
      try DurableFile.syncDirectory(runDirectory)
      backupPath = target
      backup = .string(DurableFile.canonical(target))
    }
    var header: [(String, JSONValue)] = [
      ("kind", .string("sqlite")), ("store", .string(DurableFile.canonical(store.path))),
      ("table", .string(store.table)), ("keyColumn", .string(store.keyColumn)),
      ("valueColumn", .string(store.valueColumn)), ("backup", backup),
    ]
    if let keys = store.keys {
      // The settings, never the key: a rollback asks for the key again.
      header.append(("cipher", keys.settings.journalValue))
      // SQLite writes an encrypted rollback journal through the VFS; a WAL it cannot.
      try store.database.execute("PRAGMA journal_mode = DELETE")
    }
    try run.openJournal(header: header)
    let table = SQLiteDatabase.quote(store.table)
    let key = SQLiteDatabase.quote(store.keyColumn)
    let value = SQLiteDatabase.quote(store.valueColumn)
    let rowidCondition = store.hasRowid ? "rowid = ?4 AND " : ""
    update = try store.database.prepare(
      "UPDATE \(table) SET \(value) = ?1 WHERE \(rowidCondition)\(key) IS ?2 AND \(value) = ?3")
  }

  /// Copies an encrypted database and its `-wal` byte for byte, with writers held off.
  ///
  /// A copy through SQLite (`VACUUM INTO`, the backup API) would write the
  /// pages anew; a byte-for-byte copy is the store as the app wrote it.
  private func copyEncrypted(to target: String) throws(MigrationError) {
    try store.database.execute("BEGIN IMMEDIATE")
    do throws(MigrationError) {
      try DurableFile.copyFile(store.path, to: target)
      if DurableFile.kind(of: store.path + "-wal").exists {
        try DurableFile.copyFile(store.path + "-wal", to: target + "-wal")
      }
    } catch {
      try? store.database.execute("ROLLBACK")
      throw error
    }
    try store.database.execute("COMMIT")
  }

  func write(_ batch: [PendingRewrite]) throws(MigrationError) -> [RecordRefusal?] {
    do {
      return try writeBatch(batch)
    } catch {
      // The batch was rolled back; the error says what earlier batches committed.
      throw error.adding(store.writeProgress.statement)
    }
  }

  private func writeBatch(_ batch: [PendingRewrite]) throws(MigrationError) -> [RecordRefusal?] {
    guard !batch.isEmpty else { return [] }
    if !run.started { try start() }
    guard let update else {
      throw MigrationError(.sqlite, file: store.path, "the update statement is not prepared")
    }
    var lines: [JSONValue] = []
    lines.reserveCapacity(batch.count)
    for rewrite in batch {
      guard case .row(_, let key, let rowid) = rewrite.record.id.kind else { continue }
      // An encrypted store's keys may be personal data: its journal names the row by a keyed hash.
      let record: (String, JSONValue) =
        if let hash = rewrite.record.id.keyHash {
          ("keyHash", .string(hash))
        } else {
          ("key", MigrationJournal.json(key))
        }
      var members = JournalSession.changeMembers("update", record: record, rewrite)
      if let rowid { members.append(("rowid", .integer(rowid))) }
      lines.append(.object(members))
    }
    try run.append(lines)

    var results: [RecordRefusal?] = []
    results.reserveCapacity(batch.count)
    var changed = 0
    try store.database.execute("BEGIN IMMEDIATE")
    do {
      for rewrite in batch {
        guard case .row(_, let key, let rowid) = rewrite.record.id.kind else {
          results.append(RecordRefusal(.write, "not a row of this store"))
          continue
        }
        try update.bind(bytes: rewrite.replacement, asText: false, at: 1)
        try update.bind(key, at: 2)
        try update.bind(bytes: rewrite.original, asText: rewrite.record.storedAsText, at: 3)
        if let rowid { try update.bind(.integer(rowid), at: 4) }
        _ = try update.step()
        update.reset()
        if store.database.changes == 1 {
          results.append(nil)
          run.rewritten += 1
          changed += 1
        } else {
          results.append(
            RecordRefusal(
              .write, cause: .changed,
              "the row changed since it was read (compare-and-swap found a different value); the newer value is kept"
            ))
        }
      }
      try store.database.execute("COMMIT")
      store.writeProgress.committedRecords += changed
      store.writeProgress.committedBatches += 1
    } catch {
      update.reset()
      try? store.database.execute("ROLLBACK")
      throw error
    }
    return results
  }

  func finish(interrupted: Bool) throws(MigrationError) {
    do {
      try finishRun(interrupted: interrupted)
    } catch {
      throw error.adding(store.writeProgress.statement)
    }
  }

  private func finishRun(interrupted: Bool) throws(MigrationError) {
    if run.started, let keys = store.keys {
      // What the real SQLCipher will check: every page's HMAC, and SQLite's own structure.
      let check = try store.database.prepare("PRAGMA integrity_check")
      var problems: [String] = []
      while try check.step() {
        if case .text(let line) = check.value(0), line != "ok" { problems.append(line) }
      }
      check.reset()
      guard problems.isEmpty else {
        throw MigrationError(
          .sqlite, file: store.path,
          "integrity_check after the run: \(problems.prefix(5).joined(separator: "; "))")
      }
      try keys.verifyPages(of: store.path)
    }
    try run.finish(interrupted: interrupted)
  }
}
