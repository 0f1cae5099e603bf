import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Copies of the SQLCipher fixtures with one fault each: a byte flipped, a file cut short.
enum DamagedStores {
  static let v4 = SQLCipherFixtures.Case(file: "v4.sqlite", compatibility: 4)
  static let wal = SQLCipherFixtures.Case(file: "v4-wal.sqlite", compatibility: 4, wal: true)
  /// v4.sqlite: 4,096-byte pages, 38 of them; page 10 is a leaf of the `store` table.
  static let pageSize = 4096
  static let pageCount = 38

  /// Flips the low bit of the byte at `offset`.
  static func flip(_ path: String, at offset: Int) throws {
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(offset))
    let byte = try #require(try handle.read(upToCount: 1)?.first)
    try handle.seek(toOffset: UInt64(offset))
    try handle.write(contentsOf: Data([byte ^ 0x01]))
  }

  /// Flips a byte in the middle of a page's ciphertext.
  static func flip(_ path: String, page: Int) throws {
    try flip(path, at: (page - 1) * pageSize + 1000)
  }

  /// Cuts `count` bytes off the end of a file.
  static func cut(_ path: String, by count: Int) throws {
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
    ).intValue
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try handle.truncate(atOffset: UInt64(size - count))
  }

  /// Whether `error` is a damaged page at `position` of `file` (a path ending so).
  static func isDamaged(_ error: any Error, file suffix: String, _ position: Place.Position)
    -> Bool
  {
    guard let error = error as? MigrationError else { return false }
    return error.code == .damagedPage && error.place.position == position
      && error.place.file?.hasSuffix(suffix) == true
  }
}

@Suite("Damaged encrypted stores: refused whole, before anything is written")
struct DamagedEncryptedStoreTests {
  @Test("A store cut by one byte is damaged-page, naming its last page")
  func truncatedByOneByte() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    try DamagedStores.cut(path, by: 1)
    let keys = try DamagedStores.v4.encryption().open(path: path)
    #expect {
      _ = try SQLCipherFixtures.store(path, keys: keys, readOnly: true)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4.sqlite", .page(DamagedStores.pageCount))
        && (error as? MigrationError)?.message.contains("not a whole number of 4096-byte pages")
          == true
    }
  }

  @Test("A store cut by a whole page is damaged-page: its header counts the missing page")
  func truncatedByOnePage() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    try DamagedStores.cut(path, by: DamagedStores.pageSize)
    let keys = try DamagedStores.v4.encryption().open(path: path)
    #expect {
      try keys.verifyPages(of: path)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4.sqlite", .page(DamagedStores.pageCount))
        && (error as? MigrationError)?.message.contains("header says it has 38 pages") == true
    }
  }

  @Test("A flipped byte in a middle page is damaged-page, naming that page")
  func flippedMiddlePage() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    let keys = try DamagedStores.v4.encryption().open(path: path)
    #expect(try keys.verifyPages(of: path) == DamagedStores.pageCount)
    try DamagedStores.flip(path, page: 19)
    #expect {
      _ = try SQLCipherFixtures.store(path, keys: keys, readOnly: true)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4.sqlite", .page(19))
        && (error as? MigrationError)?.message.contains("page 19 of 38 fails its HMAC check")
          == true
    }
  }

  @Test("A flipped byte in the last page is damaged-page, naming the last page")
  func flippedLastPage() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    try DamagedStores.flip(path, page: DamagedStores.pageCount)
    let keys = try DamagedStores.v4.encryption().open(path: path)
    #expect {
      _ = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4.sqlite", .page(DamagedStores.pageCount))
    }
  }

  @Test("A flipped byte in page 1 is damaged-page, not wrong-key: page 2 proves the key")
  func flippedFirstPage() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    try DamagedStores.flip(path, page: 1)
    #expect {
      _ = try DamagedStores.v4.encryption().open(path: path)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4.sqlite", .page(1))
        && (error as? MigrationError)?.message.contains("page 2 verifies") == true
    }
  }

  @Test("A wrong key stays wrong-key, and says a damaged page 1 would look the same")
  func wrongKeyNamesDamagedPageOne() throws {
    let key = try StoreKey(bytes: Array("not-the-key".utf8), source: "key")
    #expect {
      _ = try StoreEncryption(key: key).open(path: "\(SQLCipherFixtures.folder)/v4.sqlite")
    } throws: { error in
      let error = error as? MigrationError
      return error?.code == .wrongKey && error?.message.contains("damaged") == true
    }
  }

  @Test("A changed salt is wrong-key with a passphrase, which derives both keys from it")
  func changedSaltWithPassphrase() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    try DamagedStores.flip(path, at: 5)
    #expect {
      _ = try DamagedStores.v4.encryption().open(path: path)
    } throws: { error in
      (error as? MigrationError)?.code == .wrongKey
        && (error as? MigrationError)?.message.contains("its salt") == true
    }
  }

  @Test("A changed salt is damaged-page with a raw key, which still decrypts page 1's header")
  func changedSaltWithRawKey() throws {
    let path = try SQLCipherFixtures.copy("v4-rawkey.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    let fixture = SQLCipherFixtures.Case(file: "v4-rawkey.sqlite", compatibility: 4, raw: true)
    try DamagedStores.flip(path, at: 5)
    #expect {
      _ = try fixture.encryption().open(path: path)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4-rawkey.sqlite", .page(1))
        && (error as? MigrationError)?.message.contains("salt") == true
    }
  }

  @Test("A flipped byte in a -wal frame is damaged-page, naming the -wal and the frame's page")
  func damagedWAL() throws {
    let path = try SQLCipherFixtures.copy("v4-wal.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    let keys = try DamagedStores.wal.encryption().open(path: path)
    #expect(try keys.verifyWriteAheadLog(of: path) == 6)
    // Frame 2: the 32-byte header, one whole frame, then 1,000 bytes into the second's page.
    try DamagedStores.flip(path + "-wal", at: 32 + (24 + 4096) + 24 + 1000)
    #expect {
      _ = try SQLCipherFixtures.store(path, keys: keys, readOnly: true)
    } throws: { error in
      guard let error = error as? MigrationError, case .page = error.place.position else {
        return false
      }
      return error.code == .damagedPage && error.place.file == path + "-wal"
        && error.message.contains("frame 2 of the -wal")
    }
  }

  @Test("A -wal cut inside its last frame is damaged-page")
  func truncatedWAL() throws {
    let path = try SQLCipherFixtures.copy("v4-wal.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    try DamagedStores.cut(path + "-wal", by: 1)
    let keys = try DamagedStores.wal.encryption().open(path: path)
    #expect {
      try keys.verifyWriteAheadLog(of: path)
    } throws: { error in
      (error as? MigrationError)?.code == .damagedPage
        && (error as? MigrationError)?.message.contains("ends inside frame 6") == true
    }
  }

  @Test("A -wal frame whose salts were changed, with current frames after it, is damaged-page")
  func walFrameWithChangedSalts() throws {
    let path = try SQLCipherFixtures.copy("v4-wal.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    // Frame 1's salt-2 (bytes 12 to 15 of its header): SQLite would take it for a stale frame.
    try DamagedStores.flip(path + "-wal", at: 32 + 12)
    let keys = try DamagedStores.wal.encryption().open(path: path)
    #expect {
      try keys.verifyWriteAheadLog(of: path)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4-wal.sqlite-wal", .byteOffset(32))
        && (error as? MigrationError)?.message.contains("frame 2 after it does") == true
    }
  }

  @Test("Frames left from before the -wal was reset, after the current ones, are not checked")
  func staleWALFramesPass() throws {
    let path = try SQLCipherFixtures.copy("v4-wal.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    // A stale frame: other salts, and a page that would fail its HMAC.
    var stale = [UInt8](repeating: 0xA5, count: 24 + 4096)
    stale[0..<4] = [0, 0, 0, 2]
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + "-wal"))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(stale))
    try handle.close()
    let keys = try DamagedStores.wal.encryption().open(path: path)
    #expect(try keys.verifyWriteAheadLog(of: path) == 6)
    _ = try SQLCipherFixtures.store(path, keys: keys, readOnly: true)
  }

  @Test("A dry run refuses a damaged store, and no byte of its folder changes")
  func dryRunRefusesDamagedStore() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try DamagedStores.flip(path, page: 19)
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let keys = try DamagedStores.v4.encryption().open(path: path)
    #expect {
      _ = try SQLCipherFixtures.plans(path, keys: keys)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4.sqlite", .page(19))
        && (error as? MigrationError)?.message.hasSuffix("nothing was written") == true
    }
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test("migrate refuses a damaged store before writing anything: its SHA-256 is unchanged")
  func migrateRefusesBeforeWriting() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try DamagedStores.flip(path, page: DamagedStores.pageCount)
    let before = try MigrationFixtures.checksum(ofFile: path)
    let keys = try DamagedStores.v4.encryption().open(path: path)
    #expect {
      let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
      let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
      _ = try MigrationFixtures.run(store, writer: writer)
    } throws: { error in
      DamagedStores.isDamaged(error, file: "v4.sqlite", .page(DamagedStores.pageCount))
        && (error as? MigrationError)?.message.hasSuffix("nothing was written") == true
    }
    #expect(try MigrationFixtures.checksum(ofFile: path) == before)
    #expect(!FileManager.default.fileExists(atPath: folder + "/run"))
    #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
  }

  @Test("A page damaged after the check stops the run with what was committed, not 'nothing'")
  func damageDuringRunSaysWhatWasCommitted() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keys = try DamagedStores.v4.encryption().open(path: path)
    let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    // Page 10, the `store` table's second leaf, changes after the check and before the run
    // reads it: the batches before it are committed by then.
    try DamagedStores.flip(path, page: 10)
    let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
    let engine = MigrationEngine(
      store: store,
      migrator: RecordMigrator(transform: RenameOnlyTransform(mapping: MigrationFixtures.mapping)),
      writer: writer, batchSize: 2, workerCount: 1)
    var rewritten = 0
    var failure: MigrationError?
    do {
      _ = try engine.run(onRecord: { plan in
        if case .rewritten = plan.outcome { rewritten += 1 }
      })
    } catch {
      failure = error
    }
    let error = try #require(failure)
    #expect(error.code == .damagedPage && error.place.position == .page(10))
    #expect(rewritten > 0)
    let committed = rewritten == 1 ? "1 rewrite was" : "\(rewritten) rewrites were"
    #expect(error.message.contains("; \(committed) committed to the store before this"))
    #expect(!error.message.contains("nothing was written"))
  }

  @Test("A page damaged after the last batch fails the final check, saying all were committed")
  func damageFoundAtFinishSaysAllCommitted() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keys = try DamagedStores.v4.encryption().open(path: path)
    let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    // Page 3, the key index's leaf: the updates (by rowid) never read it; the check after does.
    try DamagedStores.flip(path, page: 3)
    let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
    #expect {
      _ = try MigrationFixtures.run(store, writer: writer, batchSize: 2)
    } throws: { error in
      guard let error = error as? MigrationError else { return false }
      return error.code == .damagedPage && error.place.position == .page(3)
        && error.message.contains("; 7 rewrites were committed to the store before this")
        && !error.message.contains("nothing was written")
    }
  }

  @Test("Rollback from a backup with a damaged page restores every other record and names the rest")
  func rollbackFromDamagedBackup() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keys = try DamagedStores.v4.encryption().open(path: path)
    let original = try SQLCipherFixtures.rows(path, keys: keys)
    let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
    let result = try MigrationFixtures.run(store, writer: writer)
    #expect(result.summary.rewritten == 7)
    let migrated = try SQLCipherFixtures.rows(path, keys: keys)
    // Page 10 of the backup holds two of the seven originals.
    try DamagedStores.flip(folder + "/run/v4.sqlite", page: 10)
    var conflicts: [String: String] = [:]
    let summary = try MigrationRollback.run(
      journalPath: folder + "/run/journal.jsonl", key: try DamagedStores.v4.encryption().key
    ) { place, outcome in
      if case .conflict(let reason) = outcome { conflicts[place] = reason }
    }
    #expect(summary.restored == 5)
    #expect(summary.conflicts == 2)
    #expect(conflicts.count == 2)
    for (place, reason) in conflicts {
      #expect(reason.contains("v4.sqlite:page 10: [damaged-page]"), "\(place): \(reason)")
    }
    let now = try SQLCipherFixtures.rows(path, keys: keys)
    for (key, value) in now {
      // The rollback names an encrypted store's rows by a keyed hash of the key.
      let hash = try #require(keys.recordNaming.hash(.text(key)))
      let named = conflicts.keys.contains { $0.contains("key#" + hash) }
      #expect(value == (named ? migrated[key] : original[key]) ?? nil, "\(key)")
    }
    #expect(now.count == original.count)
  }
}

@Suite("Rollback from a damaged encrypted backup")
struct DamagedBackupRollbackTests {
  @Test("A damaged page of the backup's key index is passed by reading each row by its rowid")
  func rollbackPastDamagedIndex() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keys = try DamagedStores.v4.encryption().open(path: path)
    let original = try SQLCipherFixtures.rows(path, keys: keys)
    let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
    #expect(try MigrationFixtures.run(store, writer: writer).summary.rewritten == 7)
    // Page 3 is the leaf of the index on `key`, which a lookup by key goes through.
    try DamagedStores.flip(folder + "/run/v4.sqlite", page: 3)
    let summary = try MigrationRollback.run(
      journalPath: folder + "/run/journal.jsonl", key: try DamagedStores.v4.encryption().key
    ) { _, _ in }
    #expect(summary.restored == 7)
    #expect(summary.conflicts == 0)
    #expect(try SQLCipherFixtures.rows(path, keys: keys) == original)
  }
}

extension DamagedBackupRollbackTests {
  @Test("A backup whose page 1 is damaged names every record with page 1, and restores none")
  func rollbackFromBackupWithDamagedFirstPage() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keys = try DamagedStores.v4.encryption().open(path: path)
    let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
    #expect(try MigrationFixtures.run(store, writer: writer).summary.rewritten == 7)
    let migrated = try MigrationFixtures.checksum(ofFile: path)
    try DamagedStores.flip(folder + "/run/v4.sqlite", page: 1)
    var reasons: [String] = []
    let summary = try MigrationRollback.run(
      journalPath: folder + "/run/journal.jsonl", key: try DamagedStores.v4.encryption().key
    ) { _, outcome in
      if case .conflict(let reason) = outcome { reasons.append(reason) }
    }
    #expect(summary.restored == 0)
    #expect(summary.conflicts == 7)
    #expect(reasons.allSatisfy { $0.contains("v4.sqlite:page 1: [damaged-page]") }, "\(reasons)")
    #expect(try MigrationFixtures.checksum(ofFile: path) == migrated)
  }

  @Test("A backup that is missing stops the rollback before it writes, as before")
  func rollbackWithoutBackup() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keys = try DamagedStores.v4.encryption().open(path: path)
    let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
    #expect(try MigrationFixtures.run(store, writer: writer).summary.rewritten == 7)
    try FileManager.default.removeItem(atPath: folder + "/run/v4.sqlite")
    #expect {
      _ = try MigrationRollback.run(
        journalPath: folder + "/run/journal.jsonl", key: try DamagedStores.v4.encryption().key
      ) { _, _ in }
    } throws: { error in
      (error as? MigrationError)?.code == .storeNotFound
    }
  }
}
