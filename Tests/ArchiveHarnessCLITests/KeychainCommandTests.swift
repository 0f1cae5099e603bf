import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

/// A Keychain snapshot of the sample app's archives, run as a team runs it: survey, keychain
/// check against a new version's queries, migrate-dry-run, migrate (a new snapshot, the old one
/// untouched) and migrate --rollback.
@Suite("archive-harness on Keychain snapshots, run as a user would")
struct KeychainCommandTests {
  private static var manifest: String { KeychainCLIFixtures.manifest }

  private static func shipped(_ name: String) throws -> [UInt8] {
    try KeychainCLIFixtures.shipped(name)
  }

  private static func items() throws -> [KeychainItem] { try KeychainCLIFixtures.items() }

  private static var queries: String { KeychainCLIFixtures.queries }

  private func workspace() throws -> (folder: String, snapshot: String) {
    try KeychainCLIFixtures.workspace()
  }

  private func contents(_ path: String) throws -> [UInt8] {
    try KeychainCLIFixtures.contents(path)
  }

  @Test("survey names every item holding an archive, in JSON that follows the survey schema")
  func survey() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run(["survey", snapshot, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try JSONSchemas.violations(of: result.stdout, against: .survey).isEmpty)
    let report = try JSONDocument(parsing: result.stdout)
    #expect(report["kind"] == .string("keychain-snapshot"))
    #expect(result.stdout.contains(#"genericPassword.\"com.example.auth\".alice"#))
    let text = try CommandRunner.run(["survey", snapshot])
    #expect(text.stdout.contains("survey of \(snapshot): a Keychain snapshot"))
    #expect(text.stdout.contains("next: profiles-harness migrate-dry-run --store \(snapshot)"))
  }

  @Test("survey --author writes a manifest whose key paths the dry run reads the items by")
  func surveyAuthor() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let authored = folder + "/authored.xml"
    let survey = try CommandRunner.run(["survey", snapshot, "--author", authored])
    #expect(survey.status == 0, "\(survey.stderr)")
    let manifest = String(decoding: try contents(authored), as: UTF8.self)
    #expect(
      manifest.contains("<keyPath>genericPassword.&quot;com.example.auth&quot;.alice</keyPath>"))
    let dryRun = try CommandRunner.run([
      "migrate-dry-run", "--store", snapshot, "--manifest", authored,
    ])
    #expect(dryRun.stdout.contains("2 will-rewrite"), "\(dryRun.stdout)\(dryRun.stderr)")
  }

  @Test("keychain check names the item a new query misses and the accessibility it rejects")
  func check() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run([
      "keychain", "check", snapshot, "--manifest", folder + "/queries.xml",
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains(
        "\(snapshot):genericPassword.\"com.example.legacy-auth\".bob: error: no Keychain query of the manifest finds this item; the nearest, genericPassword service=com.example.auth account=* at \(folder)/queries.xml:4:3, differs in service"
      ), "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "\(snapshot):internetPassword.\"api.example.com\".token: error: the item is kSecAttrAccessibleAfterFirstUnlock, which can leave the device"
      ))
    #expect(
      result.stderr.contains(
        "queries.xml:6:3: warning: the query genericPassword service=com.example.widget finds no item"
      ))
    #expect(result.stdout.contains("3 items, 3 queries: 2 errors, 1 warnings"))
    let data = try Self.shipped("profile-valid.archive")
    #expect(!result.stderr.contains(Data(data).base64EncodedString().prefix(16)))
  }

  @Test("keychain check refuses a manifest whose accessibility is no kSecAttrAccessible value")
  func checkRefusesUnknownAccessibility() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bad = Self.queries.replacingOccurrences(
      of: #"accessible="afterFirstUnlock""#, with: #"accessible="sometimes""#)
    try Data(bad.utf8).write(to: URL(fileURLWithPath: folder + "/queries.xml"))
    let result = try CommandRunner.run([
      "keychain", "check", snapshot, "--manifest", folder + "/queries.xml",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("queries.xml:4:"), "\(result.stderr)")
  }

  @Test("keychain check refuses a query with both an account and an account pattern")
  func checkRefusesAccountAndPattern() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bad = Self.queries.replacingOccurrences(
      of: #"accountPattern="*""#, with: #"account="alice" accountPattern="*""#)
    try Data(bad.utf8).write(to: URL(fileURLWithPath: folder + "/queries.xml"))
    let result = try CommandRunner.run([
      "keychain", "check", snapshot, "--manifest", folder + "/queries.xml",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("an account or an accountPattern, not both"), "\(result.stderr)")
  }

  @Test("A dry run plans each item and writes nothing; the refused memo makes it exit 1")
  func dryRun() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try contents(snapshot)
    let result = try CommandRunner.run([
      "migrate-dry-run", "--store", snapshot, "--manifest", Self.manifest,
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "will-rewrite     \(snapshot):genericPassword.\"com.example.auth\".alice  "))
    #expect(
      result.stdout.contains(
        "refused          \(snapshot):internetPassword.\"api.example.com\".token  [read]"))
    #expect(result.stdout.contains("summary: 2 will-rewrite, 0 already-current, 1 refused"))
    #expect(try contents(snapshot) == before)
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == [
        "keychain.json", "queries.xml",
      ])
  }

  @Test(
    "Migrate writes a new snapshot (schema-valid), leaves the old one untouched, and rolls back")
  func migrateAndRollBack() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try contents(snapshot)
    let migrated = folder + "/keychain-2.0.json"
    let result = try CommandRunner.run([
      "migrate", "--store", snapshot, "--manifest", Self.manifest, "--backup", folder + "/backup",
      "--new-snapshot", migrated, "--format", "json",
    ])
    #expect(result.status == 1, "the refused memo makes the run exit 1: \(result.stderr)")
    #expect(try JSONSchemas.violations(of: result.stdout, against: .migrationReport).isEmpty)
    let report = try JSONDocument(parsing: result.stdout)
    #expect(report["summary"]?["rewritten"] == .number(2))
    #expect(report["summary"]?["newSnapshot"] == .string(migrated))
    #expect(try contents(snapshot) == before, "the old snapshot is untouched")
    let schema = Corpus.packageRoot.appendingPathComponent("schemas/keychain-snapshot.schema.json")
    let newText = String(decoding: try contents(migrated), as: UTF8.self)
    #expect(try JSONSchemas.violations(of: newText, againstSchemaAt: schema.path).isEmpty)
    let items = try KeychainSnapshotStore(path: migrated).snapshot.items
    #expect(items.map(\.keyPath) == (try Self.items()).map(\.keyPath))
    #expect(items[0].data != (try Self.items())[0].data)

    let check = try CommandRunner.run([
      "migrate-dry-run", "--store", migrated, "--manifest", Self.manifest,
    ])
    #expect(
      check.stdout.contains("0 will-rewrite, 2 already-current, 1 refused"), "\(check.stdout)")

    guard case .string(let journal)? = report["summary"]?["journal"] else {
      Issue.record("the report names no journal: \(result.stdout)")
      return
    }
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 0, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stdout.contains("rollback: 2 restored, 0 already original, 0 conflicts"))
    #expect(try KeychainSnapshotStore(path: migrated).snapshot.items == (try Self.items()))
    #expect(try contents(snapshot) == before)
  }

  @Test("Migrate without --new-snapshot is an error naming the snapshot, exit 2, nothing written")
  func migrateNeedsNewSnapshot() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run([
      "migrate", "--store", snapshot, "--manifest", Self.manifest, "--backup", folder + "/backup",
    ])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains("\(snapshot): error: [invalid-options] migrate writes a new snapshot"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/backup"))
  }

  @Test("A symbolic link as the new snapshot is refused, exit 2, and nothing is written")
  func migrateRefusesSymlinkOutput() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/new.json", withDestinationPath: folder + "/target.json")
    let result = try CommandRunner.run([
      "migrate", "--store", snapshot, "--manifest", Self.manifest, "--backup", folder + "/backup",
      "--new-snapshot", folder + "/new.json",
    ])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains(
        "\(folder)/new.json: error: [invalid-options] a symbolic link already exists"),
      "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/target.json"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/backup"))
  }

  @Test("A malformed snapshot is an error naming the file and the item's place, exit 2")
  func malformedSnapshot() throws {
    let (folder, snapshot) = try workspace()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var text = String(decoding: try contents(snapshot), as: UTF8.self)
    text = text.replacingOccurrences(of: #""accessible":"always""#, with: #""accessible":"never""#)
    try Data(text.utf8).write(to: URL(fileURLWithPath: snapshot))
    for arguments in [
      ["migrate-dry-run", "--store", snapshot, "--manifest", Self.manifest],
      ["survey", snapshot], ["keychain", "check", snapshot, "--manifest", folder + "/queries.xml"],
    ] {
      let result = try CommandRunner.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(
        result.stderr.contains(
          "\(snapshot):items[1].accessible: error: [not-a-store] unknown accessibility 'never'"),
        "\(result.stderr)")
    }
  }

  @Test("--new-snapshot on a store that is no Keychain snapshot is an error")
  func newSnapshotOnAnotherStore() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "keychain-cli-\(getpid())-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(
      atPath: folder + "/store", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", Self.manifest, "--no-backup",
      "--new-snapshot", folder + "/new.json",
    ])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains(
        "--new-snapshot and --apply-to-keychain apply to Keychain snapshot stores"))
  }

  #if !canImport(Security)
    @Test("keychain export and --apply-to-keychain say the platform has no Keychain, exit 2")
    func noKeychainHere() throws {
      let (folder, snapshot) = try workspace()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let export = try CommandRunner.run([
        "keychain", "export", "--service", "com.example.auth", "--output", folder + "/out.json",
      ])
      #expect(export.status == 2)
      #expect(export.stderr.contains("run it on a Mac"))
      #expect(!FileManager.default.fileExists(atPath: folder + "/out.json"))
      let apply = try CommandRunner.run([
        "migrate", "--store", snapshot, "--manifest", Self.manifest, "--backup", folder + "/backup",
        "--apply-to-keychain",
      ])
      #expect(apply.status == 2)
      #expect(apply.stderr.contains("[not-supported]"), "\(apply.stderr)")
    }
  #endif
}
