import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

/// `diff` over Keychain snapshots, run as a user would: two items named as reports print them,
/// and a snapshot compared item by item with the one `migrate --new-snapshot` wrote.
@Suite("archive-harness diff on Keychain snapshots, run as a user would")
struct KeychainDiffCommandTests {
  /// The sample profile's version 1 and version 2 (a renamed class, a dropped field), each
  /// archived by Foundation, in items of one service whose name holds dots.
  private static func items() -> [KeychainItem] {
    [
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "v1",
        accessible: .afterFirstUnlockThisDeviceOnly,
        data: Array(DiffCommandTests.foundationArchive(DiffCommandTests.versionOne()))),
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "v2",
        accessible: .afterFirstUnlockThisDeviceOnly,
        data: Array(DiffCommandTests.foundationArchive(DiffCommandTests.versionTwo()))),
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "device-id",
        accessible: .afterFirstUnlock, data: Array("device-4f1c".utf8)),
    ]
  }

  /// A new folder holding `keychain.json`; the caller removes it.
  private static func workspace(_ items: [KeychainItem]? = nil) throws -> String {
    let folder = try StoreFixtures.temporaryFolder()
    try Data(KeychainSnapshot(items: items ?? Self.items()).encoded())
      .write(to: URL(fileURLWithPath: folder + "/keychain.json"))
    return folder
  }

  /// Whether any item's data shows in the output, raw or in base64.
  private static func showsData(_ output: String, _ items: [KeychainItem]) -> Bool {
    items.contains { item in
      output.contains(Data(item.data).base64EncodedString().prefix(16))
        || output.contains(String(decoding: item.data, as: UTF8.self))
    }
  }

  @Test("Two items with a renamed class and a dropped field show both, named as written")
  func renamedClassAndDroppedField() throws {
    let folder = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let old = #"keychain.json:genericPassword."com.example.auth".v1"#
    let new = "keychain.json:genericPassword.com.example.auth.v2"
    let result = try DiffCommandTests.diff([old, new], in: folder)
    DiffCommandTests.expectVersionOneToTwo(result, old: old, new: new)
    #expect(!Self.showsData(result.stdout + result.stderr, Self.items()))
  }

  @Test("An item compared with itself, or with its archive as a file, shows nothing and exits 0")
  func sameItemShowsNothing() throws {
    let folder = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try DiffCommandTests.foundationArchive(DiffCommandTests.versionOne())
      .write(to: URL(fileURLWithPath: folder + "/v1.archive"))
    let item = "keychain.json:genericPassword.com.example.auth.v1"
    for other in [item, "v1.archive"] {
      let result = try DiffCommandTests.diff([item, other], in: folder)
      #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.isEmpty)
    }
  }

  @Test("An item the snapshot does not hold exits 2 naming it and the nearest items")
  func unknownItem() throws {
    let folder = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try DiffCommandTests.diff(
      [
        "keychain.json:genericPassword.com.example.auth.v3",
        "keychain.json:genericPassword.com.example.auth.v1",
      ], in: folder)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "keychain.json:genericPassword.com.example.auth.v3: error: [record-not-found] the "
        + "snapshot holds no item 'genericPassword.com.example.auth.v3' (CLASS.SERVICE.ACCOUNT); "
        + #"the nearest items are genericPassword."com.example.auth".v1, "#
        + #"genericPassword."com.example.auth".v2, genericPassword."com.example.auth".device-id"#
        + "\n", "\(result.stderr)")
  }

  @Test("A corrupt snapshot exits 2 with an error at the member that does not read")
  func corruptSnapshot() throws {
    let folder = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/keychain.json"
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    try Data(
      text.replacingOccurrences(of: #""synchronizable":false"#, with: #""synchronizable":0"#).utf8
    )
    .write(to: URL(fileURLWithPath: path))
    let result = try DiffCommandTests.diff(
      [
        "keychain.json:genericPassword.com.example.auth.v1",
        "keychain.json:genericPassword.com.example.auth.v2",
      ], in: folder)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "keychain.json:items[0].synchronizable: error: [not-a-store] expected a boolean, found number\n",
      "\(result.stderr)")
  }

  @Test("An item whose data is no archive exits 2 at the item, its bytes not printed")
  func itemThatIsNoArchive() throws {
    let folder = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try DiffCommandTests.diff(
      [
        "keychain.json:genericPassword.com.example.auth.device-id",
        "keychain.json:genericPassword.com.example.auth.v1",
      ], in: folder)
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix(
        "keychain.json:genericPassword.com.example.auth.device-id:offset 0: error: "),
      "\(result.stderr)")
    #expect(!Self.showsData(result.stdout + result.stderr, Self.items()))
  }

  /// The fixtures' snapshot of the shipped v1 archives in `FOLDER/keychain.json`, and the new
  /// snapshot `migrate --new-snapshot` wrote from it, `FOLDER/keychain-2.0.json`.
  private static func migratedSnapshot() throws -> (folder: String, items: [KeychainItem]) {
    let items = [
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "alice",
        accessible: .afterFirstUnlockThisDeviceOnly,
        data: try StoreFixtures.shipped("LegacyArchives/ProfilesApp-1.0/profile-valid.archive")),
      KeychainItem(
        itemClass: .internetPassword, service: "api.example.com", account: "token",
        accessible: .afterFirstUnlock,
        data: try StoreFixtures.shipped("LegacyArchives/ProfilesApp-1.0/memo-truncated.archive")),
    ]
    let folder = try Self.workspace(items)
    let manifest = Corpus.packageRoot.appendingPathComponent("manifests/ProfilesApp-1.0.xml").path
    let migrated = try CommandRunner.run(
      [
        "migrate", "--store", "keychain.json", "--manifest", manifest, "--backup", "backup",
        "--new-snapshot", "keychain-2.0.json",
      ], in: URL(fileURLWithPath: folder))
    #expect(migrated.status == 1, "the refused memo: \(migrated.stdout)\(migrated.stderr)")
    return (folder, items)
  }

  @Test("--store compares a snapshot with the one migrate wrote, item by item")
  func storeSnapshotAndMigratedCopy() throws {
    let (folder, items) = try Self.migratedSnapshot()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try DiffCommandTests.diff(
      ["--store", "keychain.json", "keychain-2.0.json"], in: folder)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasPrefix("--- keychain.json\n+++ keychain-2.0.json\n"))
    #expect(
      result.stdout.contains(
        #"keychain-2.0.json:genericPassword."com.example.auth".alice"#
          + "\n  type-changed root: an instance of ProfilesApp.UserProfile"
          + " → an instance of ProfileKit.UserProfile\n"), "\(result.stdout)")
    #expect(!result.stdout.contains("token"), "the memo was not rewritten: \(result.stdout)")
    #expect(result.stdout.contains("1 of 2 records differ (1 different)"), "\(result.stdout)")
    #expect(!Self.showsData(result.stdout + result.stderr, items))
    let json = try DiffCommandTests.diff(
      ["--store", "keychain.json", "keychain-2.0.json", "--format", "json"], in: folder)
    let violations = try JSONSchemas.violations(of: json.stdout, against: .diff)
    #expect(violations.isEmpty, "\(violations)")
    let mapped = try DiffCommandTests.diff(
      [
        "--store", "keychain.json", "keychain-2.0.json", "--class-map",
        "ProfilesApp.*=ProfileKit.*",
      ],
      in: folder)
    #expect(mapped.status == 0, "\(mapped.stdout)\(mapped.stderr)")
    #expect(mapped.stdout.isEmpty)
  }

  @Test("--store names an item only one snapshot holds")
  func storeItemOnlyInOne() throws {
    let folder = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try KeychainSnapshot(items: Array(Self.items().dropLast())).writeNew(
      to: folder + "/keychain-2.json")
    let result = try DiffCommandTests.diff(
      ["--store", "keychain.json", "keychain-2.json"], in: folder)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        #"only in keychain.json: keychain.json:genericPassword."com.example.auth".device-id"#),
      "\(result.stdout)")
    #expect(!Self.showsData(result.stdout, Self.items()))
  }

  @Test("--store refuses --table for a snapshot, exit 2")
  func storeRefusesTableForSnapshot() throws {
    let folder = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try DiffCommandTests.diff(
      ["--store", "keychain.json", "keychain.json", "--table", "items"], in: folder)
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "keychain.json: error: [invalid-options] --table applies to SQLite stores; this store "
        + "is a Keychain snapshot\n", "\(result.stderr)")
  }

  @Test("--store refuses a snapshot and a folder: not two copies of one store, exit 2")
  func storeRefusesSnapshotAndFolder() throws {
    let folder = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(
      atPath: folder + "/Store", withIntermediateDirectories: true)
    let result = try DiffCommandTests.diff(["--store", "keychain.json", "Store"], in: folder)
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "Store: error: [invalid-options] 'keychain.json' is a Keychain snapshot and 'Store' is "
        + "a folder; two copies of one store are compared\n", "\(result.stderr)")
  }
}
