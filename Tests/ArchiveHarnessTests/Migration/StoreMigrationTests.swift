import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

@Suite("Stores: dry run, migrate, rollback")
struct StoreMigrationTests {
  private func sqliteStore(_ path: String, readOnly: Bool) throws -> SQLiteStore {
    try SQLiteStore(
      path: path, table: "store", keyColumn: "key", valueColumn: "value", readOnly: readOnly)
  }

  @Test("A dry run leaves an SQLite store byte-identical")
  func dryRunSQLiteByteIdentical() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let result = try MigrationFixtures.run(try sqliteStore(path, readOnly: true))
    #expect(result.summary.willRewrite == 2)
    #expect(result.summary.alreadyCurrent == 1)
    #expect(result.summary.refused == 1)
    #expect(result.summary.skipped == 3)
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test("A dry run leaves a directory store byte-identical")
  func dryRunFolderByteIdentical() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try MigrationFixtures.makeFolder(at: folder)
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let result = try MigrationFixtures.run(try DirectoryStore(path: folder))
    #expect(result.summary.willRewrite == 2)
    #expect(result.summary.total == 7)
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test("Migrate rewrites verified rows and leaves refused, NULL and non-archive rows untouched")
  func refusedAndNonArchiveRowsUntouched() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let before = try MigrationFixtures.rows(at: path)
    let store = try sqliteStore(path, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    let result = try MigrationFixtures.run(store, writer: writer)
    #expect(result.summary.rewritten == 2)
    let after = try MigrationFixtures.rows(at: path)
    for key in ["b-current", "c-null", "d-json", "e-truncated", "g-plist"] {
      #expect(after[key] == before[key], "\(key) changed")
    }
    #expect(result.plans[path + ":store[key='c-null']"] == .skipped("the value is NULL"))
    guard case .refused(let refusal) = result.plans[path + ":store[key='e-truncated']"] else {
      Issue.record("the truncated row was not refused")
      return
    }
    #expect(refusal.step == .read)
    for key in ["a-legacy", "f-legacy"] {
      let bytes = try #require(after[key] ?? nil)
      let archive = try KeyedArchive(bytes: bytes)
      #expect(
        archive.objects.contains { object in
          if case .classDescription(let description) = object {
            return description.name == "ProfileKit.UserProfile"
          }
          return false
        })
    }
  }

  @Test("Migrate leaves refused files and non-archive files untouched in a folder")
  func refusedFilesUntouched() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/store"
    try MigrationFixtures.makeFolder(at: store)
    let before = try MigrationFixtures.checksums(ofFolder: store)
    let writer = try DirectoryStore(path: store).makeWriter(
      runDirectory: folder + "/backup/run", journalPath: nil)
    let result = try MigrationFixtures.run(try DirectoryStore(path: store), writer: writer)
    #expect(result.summary.rewritten == 2)
    let after = try MigrationFixtures.checksums(ofFolder: store)
    let changed = Set(after.keys.filter { after[$0] != before[$0] })
    #expect(changed == ["a-legacy.archive", "nested/f-legacy.archive"])
    #expect(Set(after.keys) == Set(before.keys), "no temporary file is left behind")
  }

  @Test("Compare-and-swap does not overwrite a row changed concurrently")
  func compareAndSwapKeepsConcurrentChange() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path, wal: true)
    let concurrent = MigrationFixtures.profile(id: 999)
    let transform = ConcurrentWriterTransform(
      inner: RenameOnlyTransform(mapping: MigrationFixtures.mapping), databasePath: path,
      key: "a-legacy", newValue: concurrent)
    let store = try sqliteStore(path, readOnly: false)
    let writer = store.makeWriter(runDirectory: nil, journalPath: nil)
    let result = try MigrationFixtures.run(store, transform: transform, writer: writer)
    guard case .refused(let refusal) = result.plans[path + ":store[key='a-legacy']"] else {
      Issue.record("the concurrently changed row was not refused")
      return
    }
    #expect(refusal.step == .write)
    #expect(refusal.currentReadFails == nil)
    #expect(try MigrationFixtures.rows(at: path)["a-legacy"] == .some(concurrent))
    #expect(result.summary.rewritten == 1)
  }

  @Test("Rollback restores an SQLite store from its journal and backup")
  func rollbackRestoresSQLite() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let before = try MigrationFixtures.rows(at: path)
    let store = try sqliteStore(path, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    _ = try MigrationFixtures.run(store, writer: writer)
    let journal = try #require(writer.journalPath)
    #expect(try MigrationFixtures.rows(at: path) != before)
    var outcomes: [String: MigrationRollback.Outcome] = [:]
    let summary = try MigrationRollback.run(journalPath: journal) { outcomes[$0] = $1 }
    #expect(summary.restored == 2)
    #expect(summary.conflicts == 0)
    #expect(try MigrationFixtures.rows(at: path) == before)
    let again = try MigrationRollback.run(journalPath: journal) { _, _ in }
    #expect(again.alreadyOriginal == 2)
  }

  @Test("Rollback finds originals by key when the backup's rowids were renumbered")
  func rollbackAfterRowidRenumbering() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    // Gaps in the rowids: VACUUM INTO may close them in the backup copy.
    let database = try SQLiteDatabase(path: path, readOnly: false)
    try database.execute("DELETE FROM store WHERE key IN ('b-current', 'c-null')")
    let before = try MigrationFixtures.rows(at: path)
    let store = try sqliteStore(path, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    _ = try MigrationFixtures.run(store, writer: writer)
    let summary = try MigrationRollback.run(journalPath: try #require(writer.journalPath)) { _, _ in
    }
    #expect(summary.restored == 2)
    #expect(try MigrationFixtures.rows(at: path) == before)
  }

  @Test("Rollback restores a directory store from its journal and backup")
  func rollbackRestoresFolder() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/store"
    try MigrationFixtures.makeFolder(at: store)
    let before = try MigrationFixtures.checksums(ofFolder: store)
    let writer = try DirectoryStore(path: store).makeWriter(
      runDirectory: folder + "/backup/run", journalPath: nil)
    _ = try MigrationFixtures.run(try DirectoryStore(path: store), writer: writer)
    #expect(try MigrationFixtures.checksums(ofFolder: store) != before)
    let summary = try MigrationRollback.run(journalPath: try #require(writer.journalPath)) { _, _ in
    }
    #expect(summary.restored == 2)
    #expect(try MigrationFixtures.checksums(ofFolder: store) == before)
  }

  @Test("Rollback leaves a record changed after the migration alone and reports a conflict")
  func rollbackConflict() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/store"
    try MigrationFixtures.makeFolder(at: store)
    let writer = try DirectoryStore(path: store).makeWriter(
      runDirectory: folder + "/backup/run", journalPath: nil)
    _ = try MigrationFixtures.run(try DirectoryStore(path: store), writer: writer)
    let edited = Data("edited by the app".utf8)
    try edited.write(to: URL(fileURLWithPath: store + "/a-legacy.archive"))
    let summary = try MigrationRollback.run(journalPath: try #require(writer.journalPath)) { _, _ in
    }
    #expect(summary.conflicts == 1)
    #expect(summary.restored == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store + "/a-legacy.archive")) == edited)
  }

  @Test("Re-running migrate after it finished changes nothing and writes no journal")
  func rerunIsNoOp() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let first = try sqliteStore(path, readOnly: false)
    _ = try MigrationFixtures.run(
      first, writer: first.makeWriter(runDirectory: folder + "/backup/one", journalPath: nil))
    let afterFirst = try MigrationFixtures.checksums(ofFolder: folder + "/backup")
    let rows = try MigrationFixtures.rows(at: path)
    let second = try sqliteStore(path, readOnly: false)
    let writer = second.makeWriter(runDirectory: folder + "/backup/two", journalPath: nil)
    let result = try MigrationFixtures.run(second, writer: writer)
    #expect(result.summary.rewritten == 0)
    #expect(result.summary.alreadyCurrent == 3)
    #expect(writer.journalPath == nil)
    #expect(writer.backupPath == nil)
    #expect(try MigrationFixtures.rows(at: path) == rows)
    #expect(try MigrationFixtures.checksums(ofFolder: folder + "/backup") == afterFirst)
  }

  @Test("A WAL-mode database migrates, and its backup and rollback work")
  func walDatabase() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path, wal: true)
    let before = try MigrationFixtures.rows(at: path)
    let dryRun = try MigrationFixtures.run(try sqliteStore(path, readOnly: true))
    #expect(dryRun.summary.willRewrite == 2)
    #expect(try MigrationFixtures.rows(at: path) == before)
    let store = try sqliteStore(path, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    let result = try MigrationFixtures.run(store, writer: writer)
    #expect(result.summary.rewritten == 2)
    let backup = try #require(writer.backupPath)
    #expect(try MigrationFixtures.rows(at: backup) == before)
    _ = try MigrationRollback.run(journalPath: try #require(writer.journalPath)) { _, _ in }
    #expect(try MigrationFixtures.rows(at: path) == before)
  }

  @Test("A missing table or column is an error naming the database and the choices")
  func invalidIdentifiers() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    do {
      _ = try SQLiteStore(
        path: path, table: "nope", keyColumn: "key", valueColumn: "value", readOnly: true)
      Issue.record("no error for a missing table")
    } catch {
      #expect(error.code == .invalidIdentifier)
      #expect(error.place == Place(file: path))
      #expect(error.message.contains("store"))
    }
    do {
      _ = try SQLiteStore(
        path: path, table: "store", keyColumn: "key", valueColumn: "blob\"; DROP TABLE store; --",
        readOnly: true)
      Issue.record("no error for a missing column")
    } catch {
      #expect(error.code == .invalidIdentifier)
      #expect(error.message.contains("key, value"))
    }
  }

  @Test("A file changed between read and write is not replaced")
  func folderCompareAndSwap() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/store"
    try MigrationFixtures.makeFolder(at: store)
    let edited = MigrationFixtures.profile(id: 777)
    let transform = ConcurrentFileWriterTransform(
      inner: RenameOnlyTransform(mapping: MigrationFixtures.mapping),
      path: store + "/a-legacy.archive", newValue: edited)
    let writer = try DirectoryStore(path: store).makeWriter(runDirectory: nil, journalPath: nil)
    let result = try MigrationFixtures.run(
      try DirectoryStore(path: store), transform: transform, writer: writer)
    guard case .refused(let refusal) = result.plans[store + "/a-legacy.archive"] else {
      Issue.record("the concurrently changed file was not refused")
      return
    }
    #expect(refusal.step == .write)
    #expect(
      Array(try Data(contentsOf: URL(fileURLWithPath: store + "/a-legacy.archive"))) == edited)
  }
}

/// Wraps a transform and, while verifying one row, changes that row through another connection: a concurrent writer.
struct ConcurrentWriterTransform: RecordTransform {
  var inner: any RecordTransform
  var databasePath: String
  var key: String
  var newValue: [UInt8]
  var name: String { inner.name }

  func transform(_ input: TransformInput) -> TransformResult {
    if case .row(_, .text(let rowKey), _) = input.id.kind, rowKey == key {
      do {
        let database = try SQLiteDatabase(path: databasePath, readOnly: false)
        let update = try database.prepare("UPDATE store SET value = ?1 WHERE key = ?2")
        try update.bind(.blob(newValue), at: 1)
        try update.bind(.text(key), at: 2)
        _ = try update.step()
      } catch {
        return .refused(RecordRefusal(.decode, "test setup failed: \(error)"))
      }
    }
    return inner.transform(input)
  }
}

/// Wraps a transform and, while verifying one record, rewrites a file: a concurrent writer.
struct ConcurrentFileWriterTransform: RecordTransform {
  var inner: any RecordTransform
  /// The record, by its description, whose verification triggers the write.
  var path: String
  /// The file written: the record's own path by default (a directory store's file).
  var file: String? = nil
  var newValue: [UInt8]
  var name: String { inner.name }

  func transform(_ input: TransformInput) -> TransformResult {
    if input.id.description == path {
      _ = FileManager.default.createFile(atPath: file ?? path, contents: Data(newValue))
    }
    return inner.transform(input)
  }
}

@Suite("Directory store walking")
struct DirectoryStoreTests {
  @Test("Hidden files, including a crashed run's temporary files, are not records and are cleaned")
  func hiddenAndTemporaryFiles() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try MigrationFixtures.makeFolder(at: folder)
    let stale = folder + "/nested/.f-legacy.archive" + DurableFile.temporarySuffix
    #expect(FileManager.default.createFile(atPath: stale, contents: Data([1, 2, 3])))
    #expect(FileManager.default.createFile(atPath: folder + "/.DS_Store", contents: Data()))
    let store = try DirectoryStore(path: folder)
    #expect(try store.recordCount() == 7)
    let result = try MigrationFixtures.run(store)
    #expect(result.summary.total == 7)
    #expect(try DirectoryStore(path: folder).removeStaleTemporaryFiles() == [stale])
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: folder + "/.DS_Store"))
  }

  @Test("A path that is neither a folder nor an SQLite database is an error naming it")
  func notAStore() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/notes.txt"
    #expect(FileManager.default.createFile(atPath: path, contents: Data("hello".utf8)))
    do {
      _ = try SQLiteStore(
        path: path, table: "t", keyColumn: "key", valueColumn: "value", readOnly: true)
      Issue.record("no error for a text file")
    } catch {
      #expect(error.code == .storeNotFound)
      #expect(error.place == Place(file: path))
    }
  }
}
