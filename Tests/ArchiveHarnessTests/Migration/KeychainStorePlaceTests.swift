import ArchiveCoder
import ArchiveFormat
import Foundation
import Testing

@testable import ArchiveHarness

/// A Keychain snapshot's items as places on the command line (`SNAPSHOT:CLASS.SERVICE.ACCOUNT`),
/// and two snapshots compared item by item.
@Suite("Keychain snapshot items as store places")
struct KeychainStorePlaceTests {
  /// A folder with the fixtures' snapshot; returns the folder and the snapshot's path.
  private func snapshot(_ items: [KeychainItem]? = nil) throws -> (folder: String, path: String) {
    let folder = try MigrationFixtures.temporaryFolder()
    return (folder, try KeychainFixtures.write(in: folder, items: items))
  }

  @Test("An item is named as reports print it, or with its dots unquoted, and reads its data")
  func itemPlace() throws {
    let (folder, path) = try snapshot()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let quoted = "genericPassword.\"com.example.auth\".alice"
    for item in [quoted, "genericPassword.com.example.auth.alice"] {
      let place = try StorePlace(parsing: "\(path):\(item)")
      #expect(place.kind == .keychainItem(snapshot: path, item: item))
      let record = try place.read()
      #expect(record.id.description == "\(path):\(quoted)")
      #expect(record.bytes == MigrationFixtures.profile(id: 1))
    }
    let token = try StorePlace(parsing: "\(path):internetPassword.api.example.com.token").read()
    #expect(token.id.description == "\(path):internetPassword.\"api.example.com\".token")
  }

  @Test("The name a survey prints for an item reads that item back")
  func surveyNameReadsBack() throws {
    let (folder, path) = try snapshot()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try KeychainSnapshotStore(path: path)
    for record in store.nextBatch(maximumCount: 16) {
      let read = try StorePlace(parsing: record.id.description).read()
      #expect(read.id == record.id)
      #expect(read.content == record.content)
    }
  }

  @Test("An item the snapshot does not hold is record-not-found, listing the nearest items")
  func unknownItem() throws {
    let (folder, path) = try snapshot()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let error = #expect(throws: MigrationError.self) {
      try StorePlace(parsing: "\(path):genericPassword.com.example.auth.carol").read()
    }
    #expect(error?.code == .recordNotFound)
    #expect(error?.place.description == "\(path):genericPassword.com.example.auth.carol")
    #expect(
      error?.message
        == "the snapshot holds no item 'genericPassword.com.example.auth.carol' "
        + "(CLASS.SERVICE.ACCOUNT); the nearest items are "
        + "genericPassword.\"com.example.auth\".alice, "
        + "genericPassword.\"com.example.auth\".device-id, "
        + "genericPassword.\"com.example.legacy\".bob, internetPassword.\"api.example.com\".token",
      "\(String(describing: error))")
  }

  @Test("An item of an unknown class is record-not-found too, never a crash")
  func unknownClass() throws {
    let (folder, path) = try snapshot()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let error = #expect(throws: MigrationError.self) {
      try StorePlace(parsing: "\(path):certificate.\"com.example.auth\".alice").read()
    }
    #expect(error?.code == .recordNotFound)
  }

  @Test("A snapshot with a malformed item is not-a-store at the member, whatever item is named")
  func malformedSnapshot() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(
      KeychainFixtures.snapshotJSON([KeychainFixtures.itemJSON(["accessible": "\"never\""])]),
      as: "keychain.json", in: folder)
    let place = try StorePlace(parsing: "\(path):genericPassword.com.example.auth.alice")
    let error = #expect(throws: MigrationError.self) { try place.read() }
    #expect(error?.code == .notAStore)
    #expect(error?.place.description == "\(path):items[0].accessible")
  }

  @Test("A snapshot cut short is not-a-store at the byte offset where the JSON ends")
  func truncatedSnapshot() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let whole = KeychainFixtures.snapshotJSON([KeychainFixtures.itemJSON()])
    let path = try KeychainFixtures.write(
      String(whole.prefix(whole.count - 20)), as: "keychain.json", in: folder)
    let error = #expect(throws: MigrationError.self) {
      try StorePlace(parsing: "\(path):genericPassword.com.example.auth.alice").read()
    }
    #expect(error?.code == .notAStore)
    #expect(error?.place.file == path)
    guard case .byteOffset? = error?.place.position else {
      Issue.record("no byte offset: \(String(describing: error))")
      return
    }
  }

  @Test("Dots that name two items unquoted are invalid-place, listing both as reports name them")
  func ambiguousDottedName() throws {
    let items = [
      KeychainItem(
        itemClass: .genericPassword, service: "a", account: "b.c", accessible: .afterFirstUnlock,
        data: MigrationFixtures.profile(id: 1)),
      KeychainItem(
        itemClass: .genericPassword, service: "a.b", account: "c", accessible: .afterFirstUnlock,
        data: MigrationFixtures.profile(id: 2)),
    ]
    let (folder, path) = try snapshot(items)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let error = #expect(throws: MigrationError.self) {
      try StorePlace(parsing: "\(path):genericPassword.a.b.c").read()
    }
    #expect(error?.code == .invalidPlace)
    #expect(
      error?.message.contains(#"genericPassword.a."b.c", genericPassword."a.b".c"#) == true,
      "\(String(describing: error))")
    let second = try StorePlace(parsing: #"\#(path):genericPassword."a.b".c"#).read()
    #expect(second.bytes == MigrationFixtures.profile(id: 2))
  }

  @Test("Two items compare as graphs: a renamed class shows, the same item shows nothing")
  func itemComparison() throws {
    let items = [
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "v1",
        accessible: .afterFirstUnlock, data: MigrationFixtures.profile(id: 1)),
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "v2",
        accessible: .afterFirstUnlock,
        data: MigrationFixtures.profile(module: "ProfileKit", id: 1)),
    ]
    let (folder, path) = try snapshot(items)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let v1 = try StorePlace(parsing: "\(path):genericPassword.com.example.auth.v1").read()
    let v2 = try StorePlace(parsing: "\(path):genericPassword.com.example.auth.v2").read()
    let renamed = StoreComparison().compare(v1, v2)
    guard case .different(let differences) = renamed.outcome else {
      Issue.record("\(renamed.outcome)")
      return
    }
    #expect(differences.first?.kind == .typeChanged)
    #expect(!StoreComparison().compare(v1, v1).differs)
  }

  @Test("Two snapshots compare item by item: changed, only in the old, only in the new")
  func snapshotsCompared() throws {
    let old = KeychainFixtures.items()
    var new = old
    new[0].data = MigrationFixtures.profile(module: "ProfileKit", id: 1)
    new.remove(at: 1)
    new.append(
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "carol",
        accessible: .afterFirstUnlock, data: MigrationFixtures.profile(id: 4)))
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let oldPath = try KeychainFixtures.write(in: folder, items: old)
    let newPath = folder + "/keychain-2.json"
    try KeychainSnapshot(items: new).writeNew(to: newPath)
    var results: [String: RecordComparison.Outcome] = [:]
    try StoreComparison().compare(
      try KeychainSnapshotStore(path: oldPath), try KeychainSnapshotStore(path: newPath)
    ) { record in
      results[(record.new ?? record.old)?.description ?? "?"] = record.outcome
    }
    #expect(results.count == 5, "\(results)")
    guard case .different? = results[#"\#(newPath):genericPassword."com.example.auth".alice"#],
      case .onlyInOld? = results[#"\#(oldPath):genericPassword."com.example.legacy".bob"#],
      case .onlyInNew? = results[#"\#(newPath):genericPassword."com.example.auth".carol"#],
      case .same? = results[#"\#(newPath):internetPassword."api.example.com".token"#],
      case .same? = results[#"\#(newPath):genericPassword."com.example.auth".device-id"#]
    else {
      Issue.record("\(results)")
      return
    }
  }

  @Test("A snapshot and a folder are not two copies of one store: invalid-options naming both")
  func snapshotAndFolderRefused() throws {
    let (folder, path) = try snapshot()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let error = #expect(throws: MigrationError.self) {
      try StoreComparison().compare(
        try KeychainSnapshotStore(path: path), try DirectoryStore(path: folder)
      ) { _ in }
    }
    #expect(error?.code == .invalidOptions)
    #expect(
      error?.message == "'\(path)' is a Keychain snapshot and '\(folder)' is a folder; "
        + "two copies of one store are compared", "\(String(describing: error))")
  }
}
