import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

/// One Keychain snapshot of archived items, some of which the new version's queries miss.
///
/// It is taken through every step a team runs: `survey`, `verify`, `migrate-dry-run`,
/// `migrate --new-snapshot` and `migrate --rollback`. Each step is a test of its own, running
/// the steps before it on a snapshot of its own.
@Suite("A Keychain snapshot through survey, verify, the dry run, migrate and rollback")
struct KeychainPipelineTests {
  /// The workspace: `archives/Keychain/app-v1.json` (KeychainCLIFixtures' items: alice and
  /// bob's profiles, bob's under a service the new queries miss, and a truncated memo), and
  /// `manifests/app.xml`, the new version's manifest: its queries, the snapshot, and an entry
  /// of alice's item.
  struct Pipeline {
    /// The folders and the snapshot, as `verify`'s own tests lay them out.
    let workspace: KeychainVerifyCommandTests.Workspace
    var folder: String { workspace.folder }
    var archives: String { workspace.archives }
    var manifests: String { workspace.manifests }
    var snapshot: String { workspace.snapshot }
    var newSnapshot: String { folder + "/app-v2.json" }

    init() throws {
      workspace = try KeychainVerifyCommandTests.Workspace()
      try workspace.writeManifest(
        queries: KeychainCLIFixtures.queryElements,
        entries: try KeychainVerifyCommandTests.aliceEntry())
    }

    func survey() throws -> CommandRunner.Result {
      try CommandRunner.run(["survey", snapshot])
    }

    func verify() throws -> CommandRunner.Result {
      try CommandRunner.run(["verify", "--manifests", manifests, "--archives", archives])
    }

    func dryRun() throws -> CommandRunner.Result {
      try CommandRunner.run([
        "migrate-dry-run", "--store", snapshot, "--manifest", KeychainCLIFixtures.manifest,
      ])
    }

    /// Migrates the snapshot into ``newSnapshot``; returns the run and its journal's path.
    func migrate() throws -> (result: CommandRunner.Result, journal: String?) {
      let result = try CommandRunner.run([
        "migrate", "--store", snapshot, "--manifest", KeychainCLIFixtures.manifest, "--backup",
        folder + "/backup", "--new-snapshot", newSnapshot, "--format", "json",
      ])
      let report = try? JSONDocument(parsing: result.stdout)
      guard case .string(let journal)? = report?["summary"]?["journal"] else {
        return (result, nil)
      }
      return (result, journal)
    }
  }

  @Test("survey names every item holding an archive and the damaged one, exit 0")
  func survey() throws {
    let pipeline = try Pipeline()
    defer { try? FileManager.default.removeItem(atPath: pipeline.folder) }
    let result = try pipeline.survey()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("survey of \(pipeline.snapshot): a Keychain snapshot"))
    #expect(result.stdout.contains("keyed archives in 3 places"))
    for item in [KeychainCLIFixtures.alice, KeychainCLIFixtures.bob] {
      #expect(result.stdout.contains("key path \(item)\n  1 value: 1 archive"), "\(result.stdout)")
    }
    #expect(
      result.stdout.contains(
        #"key path internetPassword."api.example.com".token\#n  1 value: 1 damaged"#))
  }

  @Test("verify passes alice's item on every path and fails the snapshot for bob's, exit 1")
  func verify() throws {
    let pipeline = try Pipeline()
    defer { try? FileManager.default.removeItem(atPath: pipeline.folder) }
    let result = try pipeline.verify()
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "PASS \(pipeline.manifests)/app.xml › Keychain/app-v1.json:\(KeychainCLIFixtures.alice)"),
      "\(result.stdout)")
    #expect(result.stdout.contains("FAIL \(pipeline.manifests)/app.xml › Keychain/app-v1.json\n"))
    #expect(
      result.stdout.contains(
        "✗ error: [keychain-snapshot] \(pipeline.snapshot):\(KeychainCLIFixtures.bob): no Keychain "
          + "query of the manifest finds this item"))
    #expect(
      result.stdout.contains(
        "1 archive entries and 1 store check: 1 passed, 1 failed, 0 unexpected-pass"))
  }

  @Test("The dry run plans both profiles, refuses the truncated memo, writes nothing, exit 1")
  func dryRun() throws {
    let pipeline = try Pipeline()
    defer { try? FileManager.default.removeItem(atPath: pipeline.folder) }
    let before = try KeychainCLIFixtures.contents(pipeline.snapshot)
    let result = try pipeline.dryRun()
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    for item in [KeychainCLIFixtures.alice, KeychainCLIFixtures.bob] {
      #expect(result.stdout.contains("will-rewrite     \(pipeline.snapshot):\(item)  "))
    }
    #expect(result.stdout.contains("summary: 2 will-rewrite, 0 already-current, 1 refused"))
    #expect(try KeychainCLIFixtures.contents(pipeline.snapshot) == before)
    #expect(!FileManager.default.fileExists(atPath: pipeline.newSnapshot))
  }

  @Test("migrate writes a new snapshot of version 2 archives, the old one untouched, exit 1")
  func migrate() throws {
    let pipeline = try Pipeline()
    defer { try? FileManager.default.removeItem(atPath: pipeline.folder) }
    let before = try KeychainCLIFixtures.contents(pipeline.snapshot)
    let (result, journal) = try pipeline.migrate()
    #expect(result.status == 1, "the refused memo makes the run exit 1: \(result.stderr)")
    #expect(journal != nil)
    let report = try JSONDocument(parsing: result.stdout)
    #expect(report["summary"]?["rewritten"] == .number(2))
    #expect(report["summary"]?["newSnapshot"] == .string(pipeline.newSnapshot))
    #expect(try KeychainCLIFixtures.contents(pipeline.snapshot) == before)
    let items = try KeychainSnapshotStore(path: pipeline.newSnapshot).snapshot.items
    #expect(items.map(\.keyPath) == (try KeychainCLIFixtures.items()).map(\.keyPath))
    #expect(items[0].data != (try KeychainCLIFixtures.items())[0].data)
    // Migrating rewrites the data, never the attributes: the new queries still miss bob.
    let check = try CommandRunner.run([
      "keychain", "check", pipeline.newSnapshot, "--manifest", pipeline.manifests + "/app.xml",
    ])
    #expect(check.status == 1)
    #expect(
      check.stderr.contains(
        "\(pipeline.newSnapshot):\(KeychainCLIFixtures.bob): error: no Keychain query"),
      "\(check.stderr)")
  }

  @Test("migrate --rollback gives the new snapshot the original items back, exit 0")
  func rollback() throws {
    let pipeline = try Pipeline()
    defer { try? FileManager.default.removeItem(atPath: pipeline.folder) }
    let before = try KeychainCLIFixtures.contents(pipeline.snapshot)
    let journal = try #require(try pipeline.migrate().journal)
    let result = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("rollback: 2 restored, 0 already original, 0 conflicts"))
    #expect(
      try KeychainSnapshotStore(path: pipeline.newSnapshot).snapshot.items
        == (try KeychainCLIFixtures.items()))
    #expect(try KeychainCLIFixtures.contents(pipeline.snapshot) == before)
    // The original snapshot still verifies as before the run.
    #expect(try pipeline.verify().status == 1)
  }
}
