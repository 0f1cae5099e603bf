import ArchiveFormat
import Foundation
import Testing

@testable import ArchiveHarness

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

/// A writer that writes nothing and keeps every rewrite it was handed.
private final class RecordingWriter: RecordWriter {
  var rewrites: [PendingRewrite] = []
  func write(_ batch: [PendingRewrite]) throws(MigrationError) -> [RecordRefusal?] {
    rewrites += batch
    return batch.map { _ in nil }
  }
  func finish(interrupted: Bool) throws(MigrationError) {}
  var journalPath: String? { nil }
  var backupPath: String? { nil }
}

@Suite("The journal's checksums are computed where records are verified")
struct RewriteChecksumTests {
  @Test("Every rewrite reaches the writer with the SHA-256 of its old and new bytes")
  func rewritesCarryTheirChecksums() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try MigrationFixtures.makeDatabase(at: folder + "/store.sqlite")
    let store = try SQLiteStore(
      path: folder + "/store.sqlite", table: "store", keyColumn: "key", valueColumn: "value",
      readOnly: true)
    let writer = RecordingWriter()
    let result = try MigrationFixtures.run(store, writer: writer)
    #expect(result.summary.rewritten == 2)
    #expect(writer.rewrites.count == 2)
    for rewrite in writer.rewrites {
      let checksums = try #require(rewrite.checksums)
      #expect(checksums.original == SHA256Checksum.hex(rewrite.original))
      #expect(checksums.replacement == SHA256Checksum.hex(rewrite.replacement))
      #expect(checksums.original != checksums.replacement)
    }
  }

  @Test("A rewrite made without checksums gets them computed for its journal line")
  func changeLineComputesMissingChecksums() throws {
    let record = StoreRecord(
      id: .row(
        database: "s.sqlite", table: "store", keyColumn: "key", key: .text("a"), rowid: 1),
      content: .bytes([1, 2, 3]))
    let rewrite = PendingRewrite(record: record, original: [1, 2, 3], replacement: [4, 5])
    #expect(rewrite.checksums == nil)
    let members = JournalSession.changeMembers("update", record: ("key", .string("a")), rewrite)
    let old = members.first { $0.0 == "old" }?.1
    let new = members.first { $0.0 == "new" }?.1
    #expect(old == .string(SHA256Checksum.hex([1, 2, 3])))
    #expect(new == .string(SHA256Checksum.hex([4, 5])))
  }
}
