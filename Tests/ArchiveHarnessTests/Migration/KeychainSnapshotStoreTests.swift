import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// A Keychain snapshot as a store, on every platform: survey, the dry run, `migrate` (a new
/// snapshot, the old one untouched) and the rollback, with the library's own types.
@Suite("Keychain snapshots as a store")
struct KeychainSnapshotStoreTests {
  private func contents(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test("Survey names each item by class, service and account, and what its data holds")
  func survey() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    let report = try StoreSurvey(path: path).run()
    #expect(report.kind == .keychainSnapshot)
    let places = report.places.map(\.place.description)
    #expect(places.contains("genericPassword.\"com.example.auth\".alice"), "\(places)")
    let archives = report.archivePlaces.map(\.place.description)
    #expect(archives.count == 3, "two profiles and the damaged one: \(archives)")
    let alice = try #require(report.places.first { $0.place.description.hasSuffix(".alice") })
    #expect(alice.classNames.contains("ProfilesApp.UserProfile"))
    #expect(
      alice.dryRunArguments(store: path) == [
        "migrate-dry-run", "--store", path, "--manifest", "MANIFEST.xml",
      ])
  }

  @Test("A dry run plans each item's data as a record named FILE:CLASS.SERVICE.ACCOUNT")
  func dryRun() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    let before = try contents(path)
    let store = try KeychainSnapshotStore(path: path)
    #expect(store.recordCount() == 4)
    let (summary, plans) = try MigrationFixtures.run(store)
    #expect(summary.total == 4)
    guard case .willRewrite? = plans["\(path):genericPassword.\"com.example.auth\".alice"] else {
      Issue.record("\(plans)")
      return
    }
    guard case .refused? = plans["\(path):internetPassword.\"api.example.com\".token"] else {
      Issue.record("the truncated archive is refused: \(plans)")
      return
    }
    guard case .skipped? = plans["\(path):genericPassword.\"com.example.auth\".device-id"]
    else {
      Issue.record("plain bytes are skipped: \(plans)")
      return
    }
    #expect(try contents(path) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["keychain.json"])
  }

  @Test("A manifest's key paths (survey --author writes them) narrow the items a run reads")
  func restrict() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try KeychainSnapshotStore(path: try KeychainFixtures.write(in: folder))
    store.restrict(
      to: [#"genericPassword."com.example.legacy".bob"#].compactMap(
        PropertyListKeyPathPattern.init(parsing:)))
    #expect(store.recordCount() == 1)
    let batch = store.nextBatch(maximumCount: 10)
    #expect(
      batch.map(\.id.description) == [store.path + #":genericPassword."com.example.legacy".bob"#])
  }

  @Test("Migrate writes a new snapshot, leaves the old one untouched, and rolls back")
  func migrateAndRollBack() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    let before = try contents(path)
    let store = try KeychainSnapshotStore(path: path)
    store.newSnapshotPath = folder + "/migrated.json"
    let run = folder + "/backup/run-1"
    let writer = try store.makeWriter(runDirectory: run, journalPath: nil)
    let (summary, _) = try MigrationFixtures.run(store, writer: writer, batchSize: 1)
    try writer.finish(interrupted: false)
    #expect(summary.rewritten == 2)
    #expect(try contents(path) == before, "the store's snapshot is never changed")
    #expect(try contents(run + "/keychain.json") == before, "the backup is the snapshot as read")

    let migrated = try KeychainSnapshotStore(path: folder + "/migrated.json").snapshot
    let original = KeychainFixtures.items()
    #expect(migrated.items.count == original.count)
    for (new, old) in zip(migrated.items, original) {
      #expect(new.keyPath == old.keyPath)
      #expect(new.accessible == old.accessible && new.accessGroup == old.accessGroup)
      #expect(new.synchronizable == old.synchronizable)
    }
    #expect(migrated.items[0].data != original[0].data, "alice's profile was renamed")
    #expect(migrated.items[2].data == original[2].data, "the refused item is kept as it was")
    let names = String(decoding: migrated.items[0].data, as: UTF8.self)
    #expect(names.contains("ProfileKit.UserProfile"))

    let journal = try #require(writer.journalPath)
    var outcomes: [String: MigrationRollback.Outcome] = [:]
    let rolled = try MigrationRollback.run(journalPath: journal) { outcomes[$0] = $1 }
    #expect(rolled.restored == 2 && rolled.conflicts == 0, "\(outcomes)")
    #expect(rolled.journalProblems.isEmpty)
    let restored = try KeychainSnapshotStore(path: folder + "/migrated.json").snapshot
    #expect(restored.items == original)
    #expect(try contents(path) == before)
    #expect(
      FileManager.default.fileExists(atPath: run + "/rolled-back/migrated.json"),
      "the migrated snapshot is kept beside the backup")
  }

  @Test("A run that changes nothing still writes the new snapshot, the same items")
  func nothingToChange() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let items = [KeychainFixtures.items()[3]]
    let path = try KeychainFixtures.write(in: folder, items: items)
    let store = try KeychainSnapshotStore(path: path)
    store.newSnapshotPath = folder + "/migrated.json"
    let writer = try store.makeWriter(runDirectory: nil, journalPath: nil)
    let (summary, _) = try MigrationFixtures.run(store, writer: writer)
    try writer.finish(interrupted: false)
    #expect(summary.rewritten == 0)
    #expect(writer.journalPath == nil)
    #expect(try KeychainSnapshotStore(path: folder + "/migrated.json").snapshot.items == items)
  }

  @Test("The temporary files an interrupted run left beside the new snapshot are removed")
  func staleTemporaryFiles() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try KeychainSnapshotStore(path: try KeychainFixtures.write(in: folder))
    #expect(store.removeStaleTemporaryFiles().isEmpty)
    store.newSnapshotPath = folder + "/migrated.json"
    let stale = folder + "/.migrated.json.77-1234.archive-harness-tmp"
    try Data("{".utf8).write(to: URL(fileURLWithPath: stale))
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/.migrated.json.78-1.archive-harness-tmp", withDestinationPath: stale)
    #expect(store.removeStaleTemporaryFiles() == [stale])
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(
        atPath: folder + "/.migrated.json.78-1.archive-harness-tmp")) != nil,
      "a link is never removed")
  }

  @Test("Migrate without --new-snapshot is an error naming the store, and writes nothing")
  func noNewSnapshot() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    let store = try KeychainSnapshotStore(path: path)
    let error = try #require(throws: MigrationError.self) {
      _ = try store.makeWriter(runDirectory: folder + "/backup", journalPath: nil)
    }
    #expect(error.code == .invalidOptions)
    #expect(error.place == Place(file: path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["keychain.json"])
  }

  @Test("A symbolic link at the new snapshot's path is refused before anything is written")
  func symlinkOutput() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/migrated.json", withDestinationPath: folder + "/target.json")
    let store = try KeychainSnapshotStore(path: path)
    store.newSnapshotPath = folder + "/migrated.json"
    let error = try #require(throws: MigrationError.self) {
      _ = try store.makeWriter(runDirectory: folder + "/backup", journalPath: nil)
    }
    #expect(error.place == Place(file: folder + "/migrated.json"))
    #expect(error.message.contains("a symbolic link already exists"), "\(error)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/target.json"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/backup"))
  }

  @Test("A FIFO at the new snapshot's path is refused, never opened")
  func fifoOutput() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    #expect(mkfifo(folder + "/migrated.json", 0o600) == 0)
    let store = try KeychainSnapshotStore(path: path)
    store.newSnapshotPath = folder + "/migrated.json"
    let error = try #require(throws: MigrationError.self) {
      _ = try store.makeWriter(runDirectory: nil, journalPath: nil)
    }
    #expect(error.message.contains("a FIFO already exists"), "\(error)")
  }

  @Test("An existing file at the new snapshot's path is never replaced")
  func existingFileOutput() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    let store = try KeychainSnapshotStore(path: path)
    store.newSnapshotPath = path
    let error = try #require(throws: MigrationError.self) {
      _ = try store.makeWriter(runDirectory: nil, journalPath: nil)
    }
    #expect(error.message.contains("a file already exists"), "\(error)")
  }

  @Test("Rollback leaves an item changed after the migration alone, as a conflict")
  func rollbackConflict() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    let store = try KeychainSnapshotStore(path: path)
    store.newSnapshotPath = folder + "/migrated.json"
    let writer = try store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    _ = try MigrationFixtures.run(store, writer: writer)
    try writer.finish(interrupted: false)
    var changed = try KeychainSnapshotStore(path: folder + "/migrated.json").snapshot
    changed.items[0].data = Array("a newer token".utf8)
    try FileManager.default.removeItem(atPath: folder + "/migrated.json")
    try changed.writeNew(to: folder + "/migrated.json")
    var outcomes: [String: MigrationRollback.Outcome] = [:]
    let rolled = try MigrationRollback.run(journalPath: try #require(writer.journalPath)) {
      outcomes[$0] = $1
    }
    #expect(rolled.restored == 1 && rolled.conflicts == 1, "\(outcomes)")
    let after = try KeychainSnapshotStore(path: folder + "/migrated.json").snapshot
    #expect(after.items[0].data == Array("a newer token".utf8))
    #expect(after.items[1].data == KeychainFixtures.items()[1].data)
  }

  @Test("Rollback never follows a symbolic link put where the new snapshot was")
  func rollbackSymlink() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    let store = try KeychainSnapshotStore(path: path)
    store.newSnapshotPath = folder + "/migrated.json"
    let writer = try store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    _ = try MigrationFixtures.run(store, writer: writer)
    try writer.finish(interrupted: false)
    try FileManager.default.moveItem(
      atPath: folder + "/migrated.json", toPath: folder + "/moved.json")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/migrated.json", withDestinationPath: folder + "/moved.json")
    let moved = try contents(folder + "/moved.json")
    let rolled = try MigrationRollback.run(journalPath: try #require(writer.journalPath)) { _, _ in
    }
    #expect(rolled.conflicts == 2 && rolled.restored == 0)
    #expect(try contents(folder + "/moved.json") == moved)
  }
}
