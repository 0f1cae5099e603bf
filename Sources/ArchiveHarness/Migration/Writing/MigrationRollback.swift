import ArchiveFormat
import Foundation
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Undoes a `migrate` run from its journal, record by record, only where the record still holds what the run wrote.
///
/// For each journaled change, the record's current bytes are checksummed:
/// - equal to the journal's `new`: the original is taken from the backup,
///   checked against the journal's `old`, and put back (atomically for files,
///   compare-and-swap in a transaction for rows); a folder's migrated files
///   are kept under `RUN/rolled-back/`;
/// - equal to `old`: the change never happened (a crash before it) or was
///   already undone; nothing to do;
/// - anything else: someone changed the record since; it is left alone and
///   reported as a conflict.
package enum MigrationRollback {
  /// What happened to one journaled record.
  package enum Outcome: Sendable, Hashable {
    /// The original bytes are back.
    case restored
    /// The record already held its original bytes.
    case alreadyOriginal
    /// The record holds neither version, or the backup is missing or wrong; left alone.
    case conflict(String)

    /// The outcome's name: `restored`, `already-original`, `conflict`.
    package var name: String {
      switch self {
      case .restored: "restored"
      case .alreadyOriginal: "already-original"
      case .conflict: "conflict"
      }
    }
  }

  /// What is wrong with a journal's lines, each a reason for a rollback to exit non-zero.
  ///
  /// ```swift
  /// for problem in summary.journalProblems { print("warning: \(problem)") }
  /// ```
  package enum JournalProblem: Sendable, Hashable, CustomStringConvertible {
    /// The last line has no newline: the run was killed while writing it, or the journal was cut.
    case tornLine(line: Int)
    /// A line's sum does not follow from the line before it: a line was changed, deleted or moved.
    case brokenChain(line: Int)
    /// There is no `end` line: the run was interrupted, or the journal was cut after a line.
    case noEnd(lastLine: Int)
    /// The `end` line counts another number of change lines than the journal holds.
    case countMismatch(line: Int, counted: Int, found: Int)
    /// A journal of the first format, written without sums: nothing can be checked.
    case unsealed
    /// No complete first line: the run was killed before it changed anything, or the journal was cut.
    case noHeader

    /// The problem in a sentence, for the rollback's report.
    package var description: String {
      switch self {
      case .tornLine(let line):
        "line \(line) is incomplete: the run was killed while writing it, or the journal was cut; a record it named may still hold the migrated bytes"
      case .brokenChain(let line):
        "line \(line)'s checksum does not follow from the line before it: a line was changed, deleted or moved"
      case .noEnd(let lastLine):
        "the journal has no end line after line \(lastLine): the run was interrupted, or the journal was cut; records after the last line may still hold the migrated bytes"
      case .countMismatch(let line, let counted, let found):
        "the end line (line \(line)) counts \(counted) changes but the journal holds \(found): lines are missing or were added"
      case .unsealed:
        "the journal was written without checksums (format 1): deleted or changed lines cannot be detected"
      case .noHeader:
        "the journal has no complete first line: the run was killed before it changed anything (nothing to roll back), or the journal was cut; it names no store, so nothing was rolled back"
      }
    }
  }

  /// Counts of a rollback.
  package struct Summary: Sendable, Hashable {
    /// What is wrong with the journal's lines; every entry that reads was still rolled back.
    package var journalProblems: [JournalProblem] = []
    /// Records restored.
    package var restored = 0
    /// Records that already held their originals.
    package var alreadyOriginal = 0
    /// Records left alone.
    package var conflicts = 0
  }

  /// Rolls back the run a journal describes.
  ///
  /// - Parameters:
  ///   - journalPath: The journal `migrate` wrote.
  ///   - key: An encrypted store's key (the journal records its settings, never the key).
  ///   - onRecord: Called with each record's place and outcome.
  /// - Returns: The counts.
  /// - Throws: `MigrationError` when the journal, the store or the backup cannot be used.
  package static func run(
    journalPath: String, key: StoreKey? = nil, onRecord: (String, Outcome) -> Void
  ) throws(MigrationError) -> Summary {
    let journal = try MigrationJournal.read(journalPath)
    if journal.problems.contains(.noHeader) {
      var summary = Summary()
      summary.journalProblems = journal.problems
      return summary
    }
    var summary = try rollBack(
      journal: journal, journalPath: journalPath, key: key, onRecord: onRecord)
    summary.journalProblems = journal.problems
    return summary
  }

  private static func rollBack(
    journal: (
      header: [String: JSONDocument], entries: [MigrationJournal.Entry], problems: [JournalProblem]
    ),
    journalPath: String, key: StoreKey?, onRecord: (String, Outcome) -> Void
  ) throws(MigrationError) -> Summary {
    guard let store = journal.header["store"]?.stringValue,
      let kind = journal.header["kind"]?.stringValue
    else {
      throw MigrationError(
        .journal, place: Place(file: journalPath, line: 1, column: 0),
        "the header names no store or kind")
    }
    guard let backup = journal.header["backup"]?.stringValue else {
      throw MigrationError(
        .journal, place: Place(file: journalPath, line: 1, column: 0),
        "the run was made with --no-backup; there are no originals to restore")
    }
    // One run per store: a migrate or another rollback refuses while this one writes.
    let lock = try StoreLock(store: store)
    defer { lock.release() }
    switch kind {
    case "directory":
      return try rollBackDirectory(
        store: store, backup: backup, entries: journal.entries, journalPath: journalPath,
        onRecord: onRecord)
    case "sqlite":
      var keys: SQLCipherKeys?
      if let cipherValue = journal.header["cipher"] {
        guard case .object(let cipher) = cipherValue,
          let settings = SQLCipherSettings(journalValue: cipher)
        else {
          throw MigrationError(
            .journal, place: Place(file: journalPath, line: 1, column: 0),
            "the header's cipher settings are malformed")
        }
        guard let key else {
          throw MigrationError(
            .invalidKey, file: store,
            "the store is encrypted (\(settings)): give its key with --key-file or --key-env")
        }
        keys = try StoreEncryption(key: key, settings: settings).open(path: store)
      }
      return try rollBackSQLite(
        store: store, backup: backup, header: journal.header, entries: journal.entries,
        journalPath: journalPath, keys: keys, onRecord: onRecord)
    case "plist":
      return try rollBackPropertyList(
        store: store, backup: backup, entries: journal.entries, journalPath: journalPath,
        onRecord: onRecord)
    case "keychain-snapshot", "keychain":
      return try rollBackKeychain(
        kind: kind, store: store, backup: backup, entries: journal.entries,
        journalPath: journalPath, onRecord: onRecord)
    default:
      throw MigrationError(
        .journal, place: Place(file: journalPath, line: 1, column: 0),
        "unknown store kind '\(kind)'")
    }
  }

  private static func rollBackDirectory(
    store: String, backup: String, entries: [MigrationJournal.Entry], journalPath: String,
    onRecord: (String, Outcome) -> Void
  ) throws(MigrationError) -> Summary {
    var summary = Summary()
    let replaces = entries.reversed().filter { $0["op"]?.stringValue == "replace" }
    let batched = DurableFile.canSyncFileSystem
    let storeRoot = DurableFile.canonical(store)
    let backupRoot = DurableFile.canonical(backup)
    var start = 0
    while start < replaces.count {
      let chunk = replaces[start..<min(start + 256, replaces.count)]
      start += 256
      // Decide every record of the chunk, writing the originals to temporary files.
      var decided: [(path: String, outcome: Outcome, temporary: String?, identity: FileIdentity?)] =
        []
      for entry in chunk {
        guard let relative = entry["path"]?.stringValue, let old = entry["old"]?.stringValue,
          let new = entry["new"]?.stringValue, let backupName = entry["backup"]?.stringValue
        else {
          throw MigrationError(
            .journal, place: entry.place(in: journalPath), "a replace entry is malformed")
        }
        // The journal is untrusted: its paths stay inside the store and the backup folder.
        guard isConfined(relative), isConfined(backupName),
          DirectoryStore.folderIsInside(backupName, root: backupRoot)
        else {
          decided.append(
            (
              store + "/" + relative,
              .conflict(
                "the journal names a path outside the store or the backup folder (\(relative), \(backupName)); left as it is"
              ),
              nil, nil
            ))
          continue
        }
        let path = store + "/" + relative
        guard DirectoryStore.folderIsInside(relative, root: storeRoot) else {
          decided.append(
            (
              path,
              .conflict("a folder on the way to the file is now a symbolic link; left as it is"),
              nil, nil
            ))
          continue
        }
        let type = DurableFile.entryType(of: path)
        if let type, type != S_IFREG {
          // Never follow or replace a link, a device or a FIFO put where the file was.
          decided.append(
            (
              path,
              .conflict(
                "the file is now \(DirectoryStore.kindName(type)), not a regular file; left as it is"
              ),
              nil, nil
            ))
          continue
        }
        let read = type != nil ? try DurableFile.readFile(path, limit: Int.max) : nil
        let current = read?.bytes
        let currentSum = current.map(SHA256Checksum.hex)
        if currentSum == old {
          decided.append((path, .alreadyOriginal, nil, nil))
        } else if currentSum == new {
          let original = try? DurableFile.readFile(backup + "/" + backupName, limit: Int.max).bytes
          if let original, SHA256Checksum.hex(original) == old {
            let temporary = try DurableFile.writeTemporary(
              for: path, bytes: original, sync: !batched)
            decided.append((path, .restored, temporary, read?.identity))
          } else {
            decided.append(
              (
                path,
                .conflict("the backup \(backup)/\(backupName) is missing or not the original"),
                nil, nil
              ))
          }
        } else {
          decided.append(
            (
              path,
              .conflict(
                current == nil
                  ? "the file is gone" : "the file changed after the migration; left as it is"),
              nil, nil
            ))
        }
      }
      // Originals on disk, then swapped into place while each file still holds what was
      // checked (another writer's newer file is kept), then the renames on disk.
      let temporaries = decided.indices.filter { decided[$0].temporary != nil }
      if batched, !temporaries.isEmpty { try DurableFile.syncFileSystem(containing: store) }
      var touched: Set<String> = []
      for (position, index) in temporaries.enumerated() {
        let item = decided[index]
        guard let temporary = item.temporary, let identity = item.identity else { continue }
        // Keep the migrated version beside the originals (RUN/rolled-back/…): a
        // record of what was undone, and a rename that frees no blocks is fast.
        let relative = String(item.path.dropFirst(store.count + 1))
        let kept = DurableFile.directory(of: backup) + "/rolled-back/" + relative
        let outcome: AtomicFile.SwapOutcome
        do {
          try DurableFile.makeDirectories(DurableFile.directory(of: kept))
          DurableFile.removeRegularFile(kept)
          _ = link(item.path, kept)
          outcome = try DurableFile.swap(temporary, over: item.path, ifStill: identity)
        } catch {
          for later in temporaries[(position + 1)...] {
            if let temporary = decided[later].temporary {
              DurableFile.removeRegularFile(temporary)
            }
          }
          throw error
        }
        switch outcome {
        case .replaced:
          touched.insert(DurableFile.directory(of: item.path))
        case .changed:
          DurableFile.removeRegularFile(kept)
          decided[index].outcome = .conflict(
            "another writer replaced the file during the rollback; its contents are kept")
        }
      }
      if batched {
        if !touched.isEmpty { try DurableFile.syncFileSystem(containing: store) }
      } else {
        for folder in touched { try DurableFile.syncDirectory(folder) }
      }
      for item in decided {
        summary.count(item.outcome)
        onRecord(item.path, item.outcome)
      }
    }
    return summary
  }

  /// Whether a journal's relative path stays where it is joined: not absolute, no `..`, not empty.
  private static func isConfined(_ relative: String) -> Bool {
    !relative.isEmpty && !relative.hasPrefix("/")
      && !relative.split(separator: "/", omittingEmptySubsequences: false).contains {
        $0 == ".." || $0.isEmpty
      }
  }

  /// Restores a property-list store's values from the copy of the file, in one verified rewrite.
  ///
  /// Every journaled value is decided against the file as it is now; the
  /// values to restore are put back into that tree (every other value, and
  /// the newer values of keys the run did not change, stay as they are now),
  /// and the tree is written in the file's format by the one write rule, read
  /// back and compared before it replaces the file. The file as the rollback
  /// found it is kept as `RUN/rolled-back/NAME`.
  private static func rollBackPropertyList(
    store: String, backup: String, entries: [MigrationJournal.Entry], journalPath: String,
    onRecord: (String, Outcome) -> Void
  ) throws(MigrationError) -> Summary {
    var changes: [(keyPath: PropertyListKeyPath, old: String, new: String)] = []
    for entry in entries.reversed() where entry["op"]?.stringValue == "replace" {
      guard let keyPath = MigrationJournal.keyPath(entry["keyPath"]),
        let old = entry["old"]?.stringValue, let new = entry["new"]?.stringValue
      else {
        throw MigrationError(
          .journal, place: entry.place(in: journalPath), "a replace entry is malformed")
      }
      changes.append((keyPath, old, new))
    }
    var summary = Summary()
    func report(_ keyPath: PropertyListKeyPath, _ outcome: Outcome) {
      summary.count(outcome)
      onRecord(RecordID.propertyListValue(file: store, keyPath: keyPath).description, outcome)
    }
    let maximumFileSize = Int.max
    if let type = DurableFile.entryType(of: store), type != S_IFREG {
      // Never follow or replace a link, a device or a FIFO put where the file was.
      for change in changes {
        report(
          change.keyPath,
          .conflict(
            "the store is now \(DirectoryStore.kindName(type)), not a regular file; left as it is"))
      }
      return summary
    }
    let current = try PropertyListFile.load(store, maximumFileSize: maximumFileSize)
    let original = try? PropertyListFile.load(backup, maximumFileSize: maximumFileSize)
    var tree = current.value
    var decided: [(PropertyListKeyPath, Outcome)] = []
    for change in changes {
      guard case .data(let bytes)? = tree.value(at: change.keyPath) else {
        decided.append((change.keyPath, .conflict("the value is gone or is no longer data")))
        continue
      }
      let sum = SHA256Checksum.hex(bytes)
      if sum == change.old {
        decided.append((change.keyPath, .alreadyOriginal))
      } else if sum == change.new {
        if case .data(let restored)? = original?.value.value(at: change.keyPath),
          SHA256Checksum.hex(restored) == change.old,
          tree.replace(at: change.keyPath, with: .data(restored))
        {
          decided.append((change.keyPath, .restored))
        } else {
          decided.append(
            (change.keyPath, .conflict("the backup \(backup) is missing or not the original")))
        }
      } else {
        decided.append(
          (change.keyPath, .conflict("the value changed after the migration; left as it is")))
      }
    }
    if decided.contains(where: { $0.1 == .restored }) {
      // Keep the migrated file beside the copy of the original: a record of what was undone.
      let name = store.split(separator: "/").last.map(String.init) ?? "store.plist"
      let keptFolder = DurableFile.directory(of: backup) + "/rolled-back"
      try DurableFile.makeDirectories(keptFolder)
      DurableFile.removeRegularFile(keptFolder + "/" + name)
      try DurableFile.create(keptFolder + "/" + name, bytes: current.bytes, mode: 0o600)
      let outcome = try PropertyListFile.commit(
        tree, format: current.format, over: store, expecting: current.identity,
        maximumFileSize: maximumFileSize)
      if case .notWritten(let reason) = outcome {
        throw MigrationError(.writeFailed, file: store, reason)
      }
    }
    for (keyPath, outcome) in decided { report(keyPath, outcome) }
    return summary
  }

  /// Restores an SQLite store's rows from the backup copy, row by row, in transactions of 512.
  ///
  /// The store is checked whole first (an encrypted one: every page and `-wal` frame), and
  /// a damaged store is refused before anything is written. The backup is read row by row
  /// instead: a page of it that fails its check costs the rows that need that page, each
  /// reported as a conflict that names the page, and every other row is restored.
  private static func rollBackSQLite(
    store: String, backup: String, header: [String: JSONDocument],
    entries: [MigrationJournal.Entry], journalPath: String, keys: SQLCipherKeys?,
    onRecord: (String, Outcome) -> Void
  ) throws(MigrationError) -> Summary {
    guard let table = header["table"]?.stringValue,
      let keyColumn = header["keyColumn"]?.stringValue,
      let valueColumn = header["valueColumn"]?.stringValue
    else {
      throw MigrationError(
        .journal, place: Place(file: journalPath, line: 1, column: 0),
        "the header names no table or columns")
    }
    let target = try SQLiteStore(
      path: store, table: table, keyColumn: keyColumn, valueColumn: valueColumn, readOnly: false,
      keys: keys)
    if keys != nil { try target.database.execute("PRAGMA journal_mode = DELETE") }
    let backupCopy = try BackupReader(
      path: backup, table: table, keyColumn: keyColumn, valueColumn: valueColumn, keys: keys)
    let quotedTable = SQLiteDatabase.quote(target.table)
    let quotedKey = SQLiteDatabase.quote(target.keyColumn)
    let quotedValue = SQLiteDatabase.quote(target.valueColumn)
    let rowidSelect = target.hasRowid ? " AND rowid = ?2" : ""
    let readCurrent = try target.database.prepare(
      "SELECT \(quotedValue) FROM \(quotedTable) WHERE \(quotedKey) IS ?1\(rowidSelect)")
    let restore = try target.database.prepare(
      "UPDATE \(quotedTable) SET \(quotedValue) = ?1 WHERE \(quotedKey) IS ?2\(target.hasRowid ? " AND rowid = ?4" : "") AND \(quotedValue) = ?3"
    )
    // An encrypted store's journal names rows by rowid and a keyed hash of the key.
    let keyByRowid =
      target.hasRowid
      ? try target.database.prepare("SELECT \(quotedKey) FROM \(quotedTable) WHERE rowid = ?1")
      : nil
    var keysByHash: [String: SQLiteValue]?
    func key(of entry: MigrationJournal.Entry, rowid: Int64?) throws(MigrationError)
      -> SQLiteValue?
    {
      if let key = MigrationJournal.sqliteValue(entry["key"]) { return key }
      guard let hash = entry["keyHash"]?.stringValue else { return nil }
      if let rowid, let keyByRowid {
        try keyByRowid.bind(.integer(rowid), at: 1)
        defer { keyByRowid.reset() }
        guard try keyByRowid.step() else { return nil }
        let key = keyByRowid.value(0)
        return target.recordNaming.hash(key) == hash ? key : nil
      }
      if keysByHash == nil {
        var found: [String: SQLiteValue] = [:]
        let all = try target.database.prepare("SELECT \(quotedKey) FROM \(quotedTable)")
        while try all.step() {
          let key = all.value(0)
          if let keyHash = target.recordNaming.hash(key) { found[keyHash] = key }
        }
        keysByHash = found
      }
      return keysByHash?[hash]
    }
    var summary = Summary()
    var pending = 0
    try target.database.execute("BEGIN IMMEDIATE")
    do throws(MigrationError) {
      for entry in entries.reversed() where entry["op"]?.stringValue == "update" {
        // The rowid is read exactly (9007199254740993 is that row, not its neighbour); one
        // that is not an integer (`true` is not rowid 1, `1e3` is not rowid 1000) is malformed.
        let rowid = entry["rowid"]?.int64Value
        guard entry["rowid"] == nil || rowid != nil else {
          throw MigrationError(
            .journal, place: entry.place(in: journalPath),
            "an update entry's rowid is not an integer: \(entry["rowid"]?.description ?? "")")
        }
        guard entry["key"] != nil || entry["keyHash"]?.stringValue != nil,
          let old = entry["old"]?.stringValue,
          let new = entry["new"]?.stringValue
        else {
          throw MigrationError(
            .journal, place: entry.place(in: journalPath), "an update entry is malformed")
        }
        guard let key = try key(of: entry, rowid: rowid) else {
          let place = Place(
            file: store,
            position: .row(
              table: target.table,
              key: RecordKeyNaming.label(
                keyColumn: target.keyColumn, key: nil, rowid: rowid,
                hash: entry["keyHash"]?.stringValue),
              column: nil))
          let outcome = Outcome.conflict("no row has this key any more; left as it is")
          summary.count(outcome)
          onRecord(place.description, outcome)
          continue
        }
        let place = RecordID.row(
          database: store, table: target.table, keyColumn: target.keyColumn, key: key, rowid: rowid,
          naming: target.recordNaming
        ).description
        try readCurrent.bind(key, at: 1)
        if let rowid, target.hasRowid { try readCurrent.bind(.integer(rowid), at: 2) }
        let current: [UInt8]? = try readCurrent.step() ? readCurrent.bytes(0) : nil
        readCurrent.reset()
        let currentSum = current.map(SHA256Checksum.hex)
        let outcome: Outcome
        if currentSum == old {
          outcome = .alreadyOriginal
        } else if let current, currentSum == new {
          switch backupCopy.original(key: key, rowid: rowid, checksum: old) {
          case .found(let original, let originalIsText):
            try restore.bind(bytes: original, asText: originalIsText, at: 1)
            try restore.bind(key, at: 2)
            try restore.bind(bytes: current, asText: false, at: 3)
            if let rowid, target.hasRowid { try restore.bind(.integer(rowid), at: 4) }
            _ = try restore.step()
            restore.reset()
            outcome =
              target.database.changes == 1
              ? .restored : .conflict("the row changed while rolling back; left as it is")
          case .missing(let damage):
            outcome = .conflict(
              "the backup \(backup) has no matching original for this row"
                + (damage.map { " (the backup is damaged: \($0))" } ?? ""))
          case .unreadable(let error):
            outcome = .conflict(
              "the backup cannot give this row's original, so it is left as it is: \(error)")
          }
        } else {
          outcome = .conflict(
            current == nil
              ? "the row is gone" : "the row changed after the migration; left as it is")
        }
        summary.count(outcome)
        onRecord(place, outcome)
        pending += 1
        if pending >= 512 {
          try target.database.execute("COMMIT")
          try target.database.execute("BEGIN IMMEDIATE")
          pending = 0
        }
      }
      try target.database.execute("COMMIT")
    } catch {
      try? target.database.execute("ROLLBACK")
      throw error
    }
    return summary
  }
}

/// The backup copy of an SQLite store, read row by row for a rollback, past pages that fail
/// their check.
private final class BackupReader {
  /// What the backup holds for a row.
  enum Original {
    /// The row's original bytes, and whether they were stored as TEXT.
    case found([UInt8], isText: Bool)
    /// No row with the key has the journaled checksum; the backup's damage, if it has any.
    case missing(MigrationError?)
    /// The backup could not be read for this row: a page it needs fails its check.
    case unreadable(MigrationError)
  }

  private let source: SQLiteStore?
  private let statement: SQLiteStatement?
  /// The row by its rowid, for when the lookup by key meets a damaged page of the key's index.
  private let byRowid: SQLiteStatement?
  private let openFailure: MigrationError?
  /// The first damaged page or `-wal` frame of an encrypted backup, found when a row is missing.
  private lazy var damage: MigrationError? = {
    guard let keys else { return nil }
    do throws(MigrationError) {
      try keys.verifyStore(at: path)
      return nil
    } catch {
      return error
    }
  }()
  private let path: String
  private let keys: SQLCipherKeys?

  /// Opens the backup; one that cannot be read (a damaged page 1, say) is kept as the reason
  /// every row that needs it gives.
  ///
  /// - Throws: `MigrationError` when the backup is missing, is not a database, or holds a
  ///   hot journal: the rollback then stops before it writes anything, as it always has.
  init(path: String, table: String, keyColumn: String, valueColumn: String, keys: SQLCipherKeys?)
    throws(MigrationError)
  {
    self.path = path
    self.keys = keys
    guard DurableFile.kind(of: path).exists else {
      throw MigrationError(.storeNotFound, file: path, "the backup copy of the store is missing")
    }
    do throws(MigrationError) {
      let source = try SQLiteStore(
        path: path, table: table, keyColumn: keyColumn, valueColumn: valueColumn, readOnly: true,
        keys: keys, checkingPages: false)
      // By key first: VACUUM INTO may renumber the rowids of tables without an INTEGER
      // PRIMARY KEY, so a backup's rowids need not match the store's.
      let value = SQLiteDatabase.quote(source.valueColumn)
      let table = SQLiteDatabase.quote(source.table)
      let key = SQLiteDatabase.quote(source.keyColumn)
      let byKey = try source.database.prepare(
        "SELECT \(value), typeof(\(value)) = 'text' FROM \(table) WHERE \(key) IS ?1")
      byRowid =
        source.hasRowid
        ? try source.database.prepare(
          "SELECT \(value), typeof(\(value)) = 'text' FROM \(table) WHERE rowid = ?1 AND \(key) IS ?2"
        )
        : nil
      statement = byKey
      self.source = source
      openFailure = nil
    } catch {
      guard error.code == .damagedPage || error.code == .sqlite else { throw error }
      source = nil
      statement = nil
      byRowid = nil
      openFailure = error
    }
  }

  /// The original of the row with `key` whose bytes have the SHA-256 `checksum`: looked up by
  /// key, and when that fails, by the journaled rowid (an encrypted backup is a byte copy, so
  /// its rowids are the store's; the checksum proves the row either way).
  func original(key: SQLiteValue, rowid: Int64?, checksum: String) -> Original {
    guard let statement else {
      return .unreadable(openFailure ?? MigrationError(.unreadable, file: path, "not opened"))
    }
    let byKey = read(statement, checksum: checksum) { statement throws(MigrationError) in
      try statement.bind(key, at: 1)
    }
    guard case .unreadable = byKey, let rowid, let byRowid else { return byKey }
    let fallback = read(byRowid, checksum: checksum) { statement throws(MigrationError) in
      try statement.bind(.integer(rowid), at: 1)
      try statement.bind(key, at: 2)
    }
    // A row the rowid does not find is still the one the lookup by key could not read.
    if case .missing = fallback { return byKey }
    return fallback
  }

  private func read(
    _ statement: SQLiteStatement, checksum: String,
    bind: (SQLiteStatement) throws(MigrationError) -> Void
  ) -> Original {
    defer { statement.reset() }
    do throws(MigrationError) {
      try bind(statement)
      // A key may repeat; the original is the row whose bytes have the journaled checksum.
      while try statement.step() {
        let candidate = statement.bytes(0)
        if SHA256Checksum.hex(candidate) == checksum {
          return .found(candidate, isText: statement.integer(1) != 0)
        }
      }
      return .missing(damage)
    } catch {
      // The next read records its own failure.
      source?.database.vfs?.clearFailure()
      return .unreadable(error)
    }
  }
}

extension MigrationRollback.Summary {
  mutating func count(_ outcome: MigrationRollback.Outcome) {
    switch outcome {
    case .restored: restored += 1
    case .alreadyOriginal: alreadyOriginal += 1
    case .conflict: conflicts += 1
    }
  }
}
