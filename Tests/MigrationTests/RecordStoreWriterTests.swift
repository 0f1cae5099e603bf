import Foundation
import Testing

@testable import HarnessMigration

@Suite("Record stores make their own writers")
struct RecordStoreWriterTests {
  @Test("A folder opened as any record store makes a writer that migrates and backs up its files")
  func directoryStoreMakesItsWriter() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let storePath = folder + "/store"
    try FileManager.default.createDirectory(atPath: storePath, withIntermediateDirectories: true)
    try MigrationFixtures.makeFolder(at: storePath)
    let store: any RecordStore = try DirectoryStore(path: storePath)
    let writer = try store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    #expect(writer is DirectoryRecordWriter)
    let result = try MigrationFixtures.run(store, writer: writer)
    #expect(result.summary.rewritten == 2)
    #expect(writer.journalPath == folder + "/backup/run/journal.jsonl")
  }

  @Test("A database opened as any record store makes a writer that migrates and backs up its rows")
  func sqliteStoreMakesItsWriter() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let store: any RecordStore = try SQLiteStore(
      path: path, table: "store", keyColumn: "key", valueColumn: "value", readOnly: false)
    let writer = try store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    #expect(writer is SQLiteRecordWriter)
    let result = try MigrationFixtures.run(store, writer: writer)
    #expect(result.summary.rewritten == 2)
    #expect(writer.backupPath != nil)
  }

  @Test("A database has no temporary files to remove before a migrate")
  func sqliteStoreHasNoStaleFiles() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let store: any RecordStore = try SQLiteStore(
      path: path, table: "store", keyColumn: "key", valueColumn: "value", readOnly: false)
    #expect(try store.removeStaleTemporaryFiles().isEmpty)
  }
}
