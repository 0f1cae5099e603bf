import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// The archive is the oracle, through the commands a team runs.
///
/// `crash-test-harness` maps the shipped v1 profile to `LossyProfile`, whose encoder writes
/// `isActive` back as the integer 0.
/// `verify`, `manifest author`, the dry run and `migrate` each catch it; a declared change
/// passes all of them.
@Suite("Conservation through the commands", .serialized)
struct ConservationCommandTests {
  static let executable = "crash-test-harness"

  /// The manifest head: the v1 profile's classes mapped to the lossy version.
  static func manifest(entries: String, migration: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
      <producer app="ProfilesApp" version="1.0" platform="iOS 15.4" produced="2022-03-01"/>
      <classMap>
        <map from="ProfilesApp.UserProfile" to="crash_test_harness.LossyProfile"/>
        <map from="ProfilesApp.Address" to="ProfileKit.Address"/>
      </classMap>
      <allowedClasses>
        <class name="crash_test_harness.LossyProfile"/>
        <class name="ProfileKit.Address"/>
      </allowedClasses>
    \(migration)\(entries)</manifest>

    """
  }

  /// The entry of the shipped profile, expected to decode on both harness paths.
  static func entry() throws -> String {
    let bytes = try StoreFixtures.shipped(StoreFixtures.legacyProfile)
    return """
        <archive path="profile.archive" sha256="\(SHA256Checksum.hex(bytes))">
          <legacy outcome="decodes"/>
          <secure outcome="decodes"/>
          <integer key="id">1001</integer>
        </archive>

      """
  }

  static let converted = """
      <migration>
        <convertedField class="crash_test_harness.LossyProfile" key="isActive"/>
      </migration>

    """

  /// A team folder: `manifests/`, `LegacyArchives/profile.archive`; the caller removes it.
  static func package(manifest text: String) throws -> String {
    let folder = try StoreFixtures.temporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder + "/manifests", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: folder + "/LegacyArchives", withIntermediateDirectories: true)
    try text.write(toFile: folder + "/manifests/v1.xml", atomically: false, encoding: .utf8)
    try Data(try StoreFixtures.shipped(StoreFixtures.legacyProfile)).write(
      to: URL(fileURLWithPath: folder + "/LegacyArchives/profile.archive"))
    return folder
  }

  static func run(_ arguments: [String], in folder: String) throws -> CommandRunner.Result {
    try CommandRunner.run(
      arguments, in: URL(fileURLWithPath: folder), executableName: executable)
  }

  @Test("verify fails a decoder that changes a value, naming the key path and both values")
  func verifyFailsALoss() throws {
    let folder = try Self.package(manifest: Self.manifest(entries: try Self.entry()))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.run(["verify"], in: folder)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("not-conserved"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "isActive: the archive holds true (bool); the current code writes 0 (integer)"),
      "\(result.stdout)")
  }

  @Test("verify passes the same decoder once the manifest declares the conversion")
  func verifyPassesADeclaredChange() throws {
    let folder = try Self.package(
      manifest: Self.manifest(entries: try Self.entry(), migration: Self.converted))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.run(["verify"], in: folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test("manifest author reports the loss, records no outcome for it and exits 1")
  func authoringReportsALoss() throws {
    let folder = try Self.package(manifest: Self.manifest(entries: ""))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.run(
      ["manifest", "author", "profile.archive", "--update", "manifests/v1.xml"], in: folder)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("does not keep what the archive holds"), "\(result.stderr)")
    let written = try String(contentsOfFile: folder + "/manifests/v1.xml", encoding: .utf8)
    #expect(!written.contains("category=\"not-conserved\""), "\(written)")
    #expect(written.contains("not recorded, the current code does not keep"), "\(written)")
  }

  @Test("manifest author --class-map maps a renamed class, writes the row, and decodes with it")
  func authoringTakesAClassMap() throws {
    let folder = try Self.package(manifest: "")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.removeItem(atPath: folder + "/manifests/v1.xml")
    let result = try Self.run(
      [
        "manifest", "author", "profile.archive", "-o", "manifests/v1.xml", "--class-map",
        "ProfilesApp.UserProfile=crash_test_harness.LossyProfile",
      ], in: folder)
    let written = try String(contentsOfFile: folder + "/manifests/v1.xml", encoding: .utf8)
    #expect(
      written.contains(
        #"<map from="ProfilesApp.UserProfile" to="crash_test_harness.LossyProfile"/>"#),
      "\(written)")
    // Decoded through the map, the lossy class shows its loss.
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("isActive: the archive holds true (bool)"), "\(result.stderr)")
  }

  @Test("manifest author reads the class map files in manifests/maps unless one is given")
  func authoringReadsTheMapsFolder() throws {
    let folder = try Self.package(manifest: "")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.removeItem(atPath: folder + "/manifests/v1.xml")
    try FileManager.default.createDirectory(
      atPath: folder + "/manifests/maps", withIntermediateDirectories: true)
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <classMap xmlns="urn:archive-harness:manifest:1">
      <map from="ProfilesApp.UserProfile" to="crash_test_harness.LossyProfile"/>
    </classMap>

    """.write(toFile: folder + "/manifests/maps/renames.xml", atomically: false, encoding: .utf8)
    let result = try Self.run(
      ["manifest", "author", "profile.archive", "-o", "manifests/v1.xml"], in: folder)
    let written = try String(contentsOfFile: folder + "/manifests/v1.xml", encoding: .utf8)
    #expect(written.contains(#"to="crash_test_harness.LossyProfile""#), "\(written)")
    #expect(result.status == 1, "\(result.stderr)")
  }

  /// An SQLite store of the shipped profile under the key `a-legacy`.
  static func store(in folder: String) throws -> String {
    let path = folder + "/store.sqlite"
    try StoreFixtures.makeSQLiteStore(at: path)
    return path
  }

  @Test("The dry run refuses the record at the conserve step, and migrate leaves its bytes")
  func migrationRefusesALoss() throws {
    let folder = try Self.package(manifest: Self.manifest(entries: try Self.entry()))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try Self.store(in: folder)
    let manifest = folder + "/manifests/v1.xml"
    let dryRun = try Self.run(
      ["migrate-dry-run", "--store", store, "--table", "store", "--manifest", manifest],
      in: folder)
    #expect(dryRun.stdout.contains("[conserve] [not-conserved]"), "\(dryRun.stdout)")
    #expect(dryRun.stdout.contains("isActive: the archive holds true (bool)"))
    let before = try StoreFixtures.checksums(ofFolder: folder)
    let migrate = try Self.run(
      [
        "migrate", "--store", store, "--table", "store", "--manifest", manifest, "--backup",
        folder + "/backup",
      ], in: folder)
    #expect(migrate.status == 1, "\(migrate.stdout)\(migrate.stderr)")
    let database = try SQLiteDatabase(path: store, readOnly: true, create: false)
    let select = try database.prepare("SELECT value FROM store WHERE key = 'a-legacy'")
    #expect(try select.step())
    #expect(
      select.value(0) == .blob(try StoreFixtures.shipped(StoreFixtures.legacyProfile)))
    #expect(before["store.sqlite"] != nil)
  }

  @Test("The dry run plans the rewrite once the manifest declares the conversion")
  func migrationPlansADeclaredChange() throws {
    let folder = try Self.package(
      manifest: Self.manifest(entries: try Self.entry(), migration: Self.converted))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try Self.store(in: folder)
    let dryRun = try Self.run(
      [
        "migrate-dry-run", "--store", store, "--table", "store", "--manifest",
        folder + "/manifests/v1.xml",
      ], in: folder)
    #expect(dryRun.stdout.contains("a-legacy"), "\(dryRun.stdout)")
    #expect(!dryRun.stdout.contains("not-conserved"), "\(dryRun.stdout)")
    #expect(dryRun.stdout.contains("1 will-rewrite"), "\(dryRun.stdout)")
  }
}

/// `decode --manifest` reads an archive as `verify` does: with the allowed classes of the entry
/// that pins it.
@Suite("decode with a manifest's entry")
struct DecodeManifestEntryTests {
  @Test("An entry's own allowedClasses, not the manifest's, decide the secure path")
  func entryAllowedClassesAreUsed() throws {
    let folder = try StoreFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let archive = "LegacyArchives/ProfilesApp-1.0/profiles-list.archive"
    let bytes = try StoreFixtures.shipped(archive)
    let manifest = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="ProfilesApp" version="1.0" platform="iOS 15.4" produced="2022-03-01"/>
        <classMap>
          <map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/>
          <map from="ProfilesApp.Address" to="ProfileKit.Address"/>
        </classMap>
        <allowedClasses>
          <class name="ProfileKit.UserProfile"/>
        </allowedClasses>
        <archive path="list.archive" sha256="\(SHA256Checksum.hex(bytes))">
          <allowedClasses>
            <class name="NSArray"/>
            <class name="ProfileKit.UserProfile"/>
            <class name="ProfileKit.Address"/>
          </allowedClasses>
        </archive>
      </manifest>

      """
    try manifest.write(toFile: folder + "/m.xml", atomically: false, encoding: .utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/list.archive"))
    let result = try CommandRunner.run(
      ["decode", "list.archive", "--manifest", "m.xml", "--path", "secure"],
      in: URL(fileURLWithPath: folder))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(!result.stdout.contains("class-not-allowed"), "\(result.stdout)")
  }
}

/// `migrate --manifest` takes a version manifest as manifest author writes it: no top-level
/// `allowedClasses`, each entry with its own.
@Suite("migrate with a version manifest")
struct MigrateVersionManifestTests {
  @Test("The entries' allowed classes are the read's, with no --allowed-classes")
  func entriesGiveTheRead() throws {
    let folder = try StoreFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bytes = try StoreFixtures.shipped(StoreFixtures.legacyProfile)
    let manifest = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="ProfilesApp" version="1.0" platform="iOS 15.4" produced="2022-03-01"/>
        <classMap>
          <map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/>
          <map from="ProfilesApp.Address" to="ProfileKit.Address"/>
        </classMap>
        <archive path="profile.archive" sha256="\(SHA256Checksum.hex(bytes))">
          <allowedClasses>
            <class name="ProfileKit.UserProfile"/>
            <class name="ProfileKit.Address"/>
          </allowedClasses>
        </archive>
      </manifest>

      """
    try manifest.write(toFile: folder + "/v1.xml", atomically: false, encoding: .utf8)
    let store = folder + "/store.sqlite"
    try StoreFixtures.makeSQLiteStore(at: store)
    let result = try CommandRunner.run(
      ["migrate-dry-run", "--store", store, "--table", "store", "--manifest", folder + "/v1.xml"],
      in: URL(fileURLWithPath: folder))
    #expect(!result.stderr.contains("invalid-options"), "\(result.stderr)")
    #expect(result.stdout.contains("1 will-rewrite"), "\(result.stdout)\(result.stderr)")
  }
}

/// A table with no declared key is keyed by SQLite's rowid.
@Suite("SQLite's rowid as the key column")
struct RowidKeyColumnTests {
  @Test("--key-column rowid reads and plans a table that declares no key")
  func rowidIsAKeyColumn() throws {
    let folder = try StoreFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/blobs.sqlite"
    let database = try SQLiteDatabase(path: store, readOnly: false, create: true)
    try database.execute("CREATE TABLE blobs (value BLOB)")
    let insert = try database.prepare("INSERT INTO blobs (value) VALUES (?1)")
    try insert.bind(.blob(try StoreFixtures.shipped(StoreFixtures.legacyProfile)), at: 1)
    _ = try insert.step()
    withExtendedLifetime(database) {}
    let result = try CommandRunner.run(
      [
        "migrate-dry-run", "--store", store, "--table", "blobs", "--key-column", "rowid",
        "--value-column", "value", "--rename-only", "--class-map",
        "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
        "ProfilesApp.Address=ProfileKit.Address",
      ], in: URL(fileURLWithPath: folder))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("1 will-rewrite"), "\(result.stdout)")
  }
}
