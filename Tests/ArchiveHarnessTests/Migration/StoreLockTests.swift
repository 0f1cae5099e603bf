import Foundation
import Testing

@testable import ArchiveHarness

@Suite("One run writes a store at a time")
struct StoreLockTests {
  @Test("A second lock on the same store refuses at once and names the holder's process")
  func secondLockRefuses() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/cache.sqlite"
    #expect(FileManager.default.createFile(atPath: store, contents: Data()))
    let first = try StoreLock(store: store)
    defer { first.release() }
    #expect(first.path == folder + "/.cache.sqlite.archive-harness-lock")
    let error = #expect(throws: MigrationError.self) { try StoreLock(store: store) }
    #expect(error?.code == .storeBusy)
    #expect(error?.message.contains("(process \(getpid()))") == true)
    #expect(error?.place.file == store)
  }

  @Test("A released lock removes its file, and the store can be locked again")
  func releasedLockCanBeTakenAgain() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/records"
    try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
    let first = try StoreLock(store: store + "/")
    #expect(first.path == folder + "/.records.archive-harness-lock")
    first.release()
    #expect(!FileManager.default.fileExists(atPath: first.path))
    let second = try StoreLock(store: store)
    second.release()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["records"])
  }

  @Test("A folder store's lock sits beside the folder, never among its records")
  func folderLockIsOutsideTheStore() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/records"
    try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
    let lock = try StoreLock(store: store)
    defer { lock.release() }
    #expect(try FileManager.default.contentsOfDirectory(atPath: store) == [])
  }
}
