import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `archive-harness survey`, run as a user would: text and JSON, every store kind, writing nothing.
@Suite("archive-harness survey, run as a user would")
struct SurveyCommandTests {
  private static let fixtures = Corpus.packageRoot.appendingPathComponent(
    "Tests/Fixtures/SQLCipher")

  /// The places of a JSON survey, by their `place` member.
  private func places(_ json: String) throws -> [String: JSONDocument] {
    let document = try JSONDocument(parsing: json)
    guard case .array(let places)? = document["places"] else { return [:] }
    var result: [String: JSONDocument] = [:]
    for place in places {
      if case .string(let name)? = place["place"] { result[name] = place }
    }
    return result
  }

  /// Every file under a folder with its bytes' checksum, hidden ones included.
  private func snapshot(_ folder: String) throws -> [String: String] {
    try MigrationFixtures.checksums(ofFolder: folder)
  }

  @Test(
    "An encrypted store, surveyed with --key-file: places, Core Data names, KEY_FILE, valid JSON")
  func encryptedStore() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.copyItem(
      atPath: Self.fixtures.appendingPathComponent("v4.sqlite").path,
      toPath: folder + "/v4.sqlite")
    try Data("harness-fixture-passphrase\n".utf8).write(
      to: URL(fileURLWithPath: folder + "/key"))
    let before = try snapshot(folder)
    let text = try CommandRunner.run([
      "survey", folder + "/v4.sqlite", "--key-file", folder + "/key",
    ])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stderr.contains("SQLCipher 4 defaults"))
    #expect(text.stdout.contains("encrypted (SQLCipher 4 defaults)"))
    #expect(text.stdout.contains("Profile.data (table ZPROFILE, column ZDATA)"))
    #expect(
      text.stdout.contains(
        "next: profiles-harness migrate-dry-run --store \(folder)/v4.sqlite --key-file KEY_FILE --entity Profile --attribute data --manifest MANIFEST.xml"
      ))
    #expect(
      text.stdout.contains(
        "--key-file KEY_FILE --table store --key-column key --value-column value"))
    #expect(!text.stdout.contains("harness-fixture-passphrase"))
    #expect(!text.stdout.contains(folder + "/key"))

    let json = try CommandRunner.run([
      "survey", folder + "/v4.sqlite", "--key-file", folder + "/key", "--format", "json",
    ])
    #expect(json.status == 0)
    let violations = try JSONSchemas.violations(of: json.stdout, against: .survey)
    #expect(violations.isEmpty, "\(violations)")
    let found = try places(json.stdout)
    #expect(found["store.value"]?["archives"] == .number(11))
    #expect(found["store.value"]?["damagedArchives"] == .number(1))
    #expect(found["store.value"]?["nulls"] == .number(1))
    #expect(found["ZPROFILE.ZDATA"]?["entity"] == .string("Profile"))
    #expect(found["filler.body"]?["holdsArchives"] == .bool(false))
    #expect(try JSONDocument(parsing: json.stdout)["encryption"] == .string("SQLCipher 4 defaults"))
    // Nothing changed and nothing was added beside the store: no -shm, no -journal.
    #expect(try snapshot(folder) == before)
  }

  @Test("A Core Data store's JSON follows the schema and names entities and attributes")
  func coreDataJSON() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try snapshot(folder)
    let run = try CommandRunner.run(["survey", path, "--format", "json"])
    #expect(run.status == 0, "\(run.stderr)")
    let violations = try JSONSchemas.violations(of: run.stdout, against: .survey)
    #expect(violations.isEmpty, "\(violations)")
    let document = try JSONDocument(parsing: run.stdout)
    #expect(document["coreData"]?["versionIdentifiers"] == .array([.string("2.1")]))
    #expect(document["coreData"]?["versionHashesVersion"] == .number(3))
    let found = try places(run.stdout)
    #expect(found["ZBOOK.ZCOVER"]?["attribute"] == .string("cover"))
    #expect(
      found["ZBOOK.ZCOVER"]?["command"]
        == .string(
          "profiles-harness migrate-dry-run --store \(path) --entity Book --attribute cover --manifest MANIFEST.xml"
        ))
    #expect(found["ZBOOK.ZMETA"]?["otherKinds"]?["json"] == .number(4))
    #expect(found["ZBOOK.ZMETA"]?["command"] == nil)
    #expect(found["ZITEM.ZPAYLOAD"]?["entity"] == .string("Item"))
    #expect(try snapshot(folder) == before)
  }

  @Test("The command survey prints for a place runs as printed, once the manifest is chosen")
  func printedCommandRuns() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try CommandRunner.run(["survey", path, "--format", "json"])
    guard case .string(let command)? = try places(run.stdout)["ZITEM.ZBODY"]?["command"] else {
      Issue.record("no command for ZITEM.ZBODY: \(run.stdout)")
      return
    }
    var words = command.split(separator: " ").map(String.init)
    #expect(words.first == "profiles-harness")
    #expect(Array(words.suffix(2)) == ["--manifest", "MANIFEST.xml"])
    words =
      Array(words.dropFirst().dropLast(2)) + [
        "--rename-only", "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile",
        "--class-map", "ProfilesApp.Address=ProfileKit.Address",
      ]
    let dryRun = try CommandRunner.run(words)
    #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
    #expect(dryRun.stdout.contains("\(path):Note[Z_PK=1].body"))
    #expect(dryRun.stdout.contains("summary: 2 will-rewrite"))
  }

  @Test("A folder's survey writes nothing and follows the schema")
  func folderWritesNothing() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try MigrationFixtures.makeFolder(at: folder + "/store")
    let before = try snapshot(folder)
    let text = try CommandRunner.run(["survey", folder + "/store"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("the store's folder"))
    #expect(text.stdout.contains("folder nested"))
    #expect(
      text.stdout.contains("profiles-harness migrate-dry-run --store \(folder)/store/nested"))
    let json = try CommandRunner.run(["survey", folder + "/store", "--format", "json"])
    let violations = try JSONSchemas.violations(of: json.stdout, against: .survey)
    #expect(violations.isEmpty, "\(violations)")
    #expect(try snapshot(folder) == before)
  }

  @Test("A WAL store whose rows are in its -wal is read whole, and no -shm or other file appears")
  func walStoreWritesNothing() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(
      atPath: folder + "/writer", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: folder + "/store", withIntermediateDirectories: true)
    let writer = try SQLiteDatabase(
      path: folder + "/writer/db.sqlite", readOnly: false, create: true)
    try writer.execute("PRAGMA journal_mode=WAL")
    try writer.execute("PRAGMA wal_autocheckpoint=0")
    try writer.execute("CREATE TABLE store (key TEXT PRIMARY KEY, value BLOB)")
    let insert = try writer.prepare("INSERT INTO store VALUES (?1, ?2)")
    for id in Int64(1)...5 {
      try insert.bind(.text("k\(id)"), at: 1)
      try insert.bind(.blob(MigrationFixtures.profile(id: id)), at: 2)
      _ = try insert.step()
      insert.reset()
    }
    // Copied while the writer is open: the rows are in the -wal only.
    for suffix in ["", "-wal"] {
      try FileManager.default.copyItem(
        atPath: folder + "/writer/db.sqlite" + suffix, toPath: folder + "/store/db.sqlite" + suffix)
    }
    withExtendedLifetime(writer) {}
    let before = try snapshot(folder + "/store")
    #expect(before.keys.sorted() == ["db.sqlite", "db.sqlite-wal"])
    let run = try CommandRunner.run(["survey", folder + "/store/db.sqlite", "--format", "json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try JSONSchemas.violations(of: run.stdout, against: .survey).isEmpty)
    #expect(try places(run.stdout)["store.value"]?["archives"] == .number(5))
    #expect(try snapshot(folder + "/store") == before)
  }

  @Test("One archive file: a place with no migrate command, the reason said")
  func singleArchiveFile() throws {
    let path = Corpus.packageRoot.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/profile-valid.archive"
    ).path
    let run = try CommandRunner.run(["survey", path, "--format", "json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try JSONSchemas.violations(of: run.stdout, against: .survey).isEmpty)
    let place = try places(run.stdout)[path]
    #expect(place?["archives"] == .number(1))
    #expect(place?["command"] == nil)
    #expect(place?["noCommand"] != nil)
  }

  @Test("An XML file that is not a property list is no store: exit 2")
  func xmlManifestRefused() throws {
    let run = try CommandRunner.run([
      "survey", Corpus.packageRoot.appendingPathComponent("manifests/ProfilesApp-1.0.xml").path,
    ])
    #expect(run.status == 2)
  }

  @Test(
    "A UserDefaults property list: each Data value that holds an archive is a place by key path")
  func preferencesPropertyList() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let archive = try Data(
      contentsOf: Corpus.packageRoot.appendingPathComponent(
        "LegacyArchives/ProfilesApp-1.0/profile-valid.archive"))
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>a</key><true/><key>profile</key><dict>\
      <key>current</key><data>\(archive.base64EncodedString())</data></dict></dict></plist>
      """.utf8
    ).write(to: URL(fileURLWithPath: folder + "/Settings.plist"))
    let run = try CommandRunner.run(["survey", folder + "/Settings.plist", "--format", "json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try JSONSchemas.violations(of: run.stdout, against: .survey).isEmpty)
    let place = try places(run.stdout)["profile.current"]
    #expect(place?["archives"] == .number(1))
    #expect(place?["command"] != nil)
  }

  @Test("A key for a folder is refused, exit 2")
  func keyForFolderRefused() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("k\n".utf8).write(to: URL(fileURLWithPath: folder + "/key"))
    let run = try CommandRunner.run(["survey", folder, "--key-file", folder + "/key"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("apply to SQLite stores"))
  }

  @Test("A wrong key exits 2 without echoing the key")
  func wrongKey() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("not the key\n".utf8).write(to: URL(fileURLWithPath: folder + "/key"))
    let run = try CommandRunner.run([
      "survey", Self.fixtures.appendingPathComponent("v4.sqlite").path, "--key-file",
      folder + "/key",
    ])
    #expect(run.status == 2)
    #expect(run.stderr.contains("[wrong-key]"))
    #expect(!run.stderr.contains("not the key"))
  }

  @Test("An encrypted store without a key is refused, exit 2, naming --key-file")
  func encryptedWithoutKey() throws {
    let run = try CommandRunner.run([
      "survey", Self.fixtures.appendingPathComponent("v4.sqlite").path,
    ])
    #expect(run.status == 2)
    #expect(run.stderr.contains("--key-file"))
  }
}
