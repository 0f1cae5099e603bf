import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@Suite("archive-harness migrate-dry-run and migrate, run as a user would")
struct MigrateCommandTests {

  private var manifest: String { StoreFixtures.manifest }

  @Test("A typed dry run over the shipped v1 archives plans every record, changes nothing, exits 1")
  func typedDryRun() throws {
    let folder = try StoreFixtures.scratchProfileStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try StoreFixtures.checksums(ofFolder: folder)
    let result = try CommandRunner.run([
      "migrate-dry-run", "--store", folder + "/store", "--manifest", manifest,
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("will-rewrite     \(folder)/store/profile-valid.archive"))
    #expect(
      result.stdout.contains("refused          \(folder)/store/memo-truncated.archive  [read]"))
    #expect(result.stdout.contains("typeConversionFailed"))
    #expect(result.stdout.contains("summary: 4 will-rewrite, 0 already-current, 8 refused"))
    #expect(try StoreFixtures.checksums(ofFolder: folder) == before)
  }

  @Test("Migrate rewrites the verified records, a re-run is a no-op, rollback restores every byte")
  func typedMigrateRerunRollback() throws {
    let folder = try StoreFixtures.scratchProfileStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try StoreFixtures.checksums(ofFolder: folder + "/store")
    let first = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", manifest, "--backup",
      folder + "/backup",
    ])
    #expect(first.status == 1, "refused records make the run exit 1: \(first.stderr)")
    #expect(first.stdout.contains("summary: 4 rewritten, 0 already-current, 8 refused"))
    let journalLine = try #require(
      first.stdout.split(separator: "\n").first { $0.hasPrefix("journal: ") })
    let journal = String(journalLine.dropFirst("journal: ".count))

    let again = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", manifest, "--backup",
      folder + "/backup",
    ])
    #expect(again.stdout.contains("summary: 0 rewritten, 4 already-current, 8 refused"))
    #expect(again.stdout.contains("store: unchanged: nothing to migrate"))
    #expect(!again.stdout.contains("journal: "))

    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 0, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stdout.contains("rollback: 4 restored, 0 already original, 0 conflicts"))
    #expect(try StoreFixtures.checksums(ofFolder: folder + "/store") == before)
  }

  @Test("An SQLite dry run writes a JSON plan to --output and names rows by table and key")
  func sqliteJSONPlan() throws {
    let folder = try StoreFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try StoreFixtures.makeSQLiteStore(at: path)
    let result = try CommandRunner.run(
      StoreFixtures.renameOnlyDryRun(store: path, format: "json", output: folder + "/plan.json")
    )
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/plan.json"))
    let violations = try JSONSchemas.violations(
      of: String(decoding: data, as: UTF8.self), against: .migrationPlan)
    #expect(violations.isEmpty, "\(violations)")
    let plan = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let records = try #require(plan["records"] as? [[String: Any]])
    #expect(records.map { $0["record"] as? String }.contains("\(path):store[key='e-truncated']"))
  }

  @Test("migrate --format json reports every record and follows its schema")
  func migrateJSONReport() throws {
    let folder = try StoreFixtures.scratchProfileStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", manifest, "--backup",
      folder + "/backup", "--format", "json",
    ])
    #expect(result.status == 1, "\(result.stderr)")
    let violations = try JSONSchemas.violations(of: result.stdout, against: .migrationReport)
    #expect(violations.isEmpty, "\(violations)")
    let report = try JSONDocument(parsing: result.stdout)
    #expect(report["summary"]?["rewritten"] == .number(4))
    #expect(report["summary"]?["refused"] == .number(8))
    guard case .array(let records)? = report["records"] else {
      Issue.record("the report has no records")
      return
    }
    #expect(records.contains { $0["step"] == .string("decode") })
  }

  @Test("Migrate without --backup or --no-backup is a usage error, exit 2")
  func backupRequired() throws {
    let result = try CommandRunner.run([
      "migrate", "--store", "LegacyArchives/ProfilesApp-1.0", "--rename-only", "--class-map", "A=B",
    ])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains("Missing expected option '--backup <dir>' (or pass --no-backup)"))
  }
}

/// A typed `migrate` contains app code that traps: crash-test-harness is the sample's v2 classes
/// plus a `Badge` whose `init?(coder:)` force-casts its label, as an app bug would.
@Suite("A trapping init?(coder:) during typed migrate")
struct TrappingDecodeMigrationTests {
  static let harness = "crash-test-harness"

  /// A folder of five v1 profiles and a badge whose label is a number (it traps).
  private func trappingStore() throws -> String {
    let folder = try StoreFixtures.temporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder + "/store", withIntermediateDirectories: true)
    let profile = Data(try StoreFixtures.shipped(StoreFixtures.legacyProfile))
    for index in 0..<5 {
      try profile.write(to: URL(fileURLWithPath: folder + "/store/profile-\(index).archive"))
    }
    var builder = ArchiveBuilder()
    builder.setRoot(builder.object("ProfilesApp.Badge", [("label", .integer(7))]))
    try Data(builder.bytes()).write(to: URL(fileURLWithPath: folder + "/store/badge.archive"))
    return folder
  }

  private func arguments(_ command: String, _ folder: String) -> [String] {
    [
      command, "--store", folder + "/store", "--manifest",
      StoreFixtures.manifest,
      "--class-map", "ProfilesApp.Badge=crash_test_harness.Badge",
      "--allowed-classes", "crash_test_harness.Badge",
    ]
  }

  @Test("migrate finishes every other record and the report names the one that trapped")
  func trapCostsOneRecord() throws {
    let folder = try trappingStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run(
      arguments("migrate", folder) + ["--backup", folder + "/backup"],
      executableName: Self.harness)
    #expect(result.signal == nil)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.contains("summary: 5 rewritten, 0 already-current, 1 refused"))
    #expect(
      result.stdout.contains(
        "refused          \(folder)/store/badge.archive  [decode] [crashed] the app's decoding "
          + "trapped in the decode worker (SIGABRT)"))
    #expect(result.stdout.contains("Could not cast value of type 'Foundation.NSNumber'"))
  }

  @Test("A re-run is not blocked by the trapping record: it is refused again, the rest current")
  func rerunIsNotBlocked() throws {
    let folder = try trappingStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let migrate = arguments("migrate", folder) + ["--backup", folder + "/backup"]
    _ = try CommandRunner.run(migrate, executableName: Self.harness)
    let again = try CommandRunner.run(migrate, executableName: Self.harness)
    #expect(again.status == 1)
    #expect(again.stdout.contains("summary: 0 rewritten, 5 already-current, 1 refused"))
  }

  @Test("The dry run reports the trapping record as refused, crashed, and changes nothing")
  func dryRunReportsTrap() throws {
    let folder = try trappingStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try StoreFixtures.checksums(ofFolder: folder)
    let result = try CommandRunner.run(
      arguments("migrate-dry-run", folder) + ["--format", "json"], executableName: Self.harness)
    #expect(result.status == 1)
    let plan = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let records = try #require(plan["records"] as? [[String: Any]])
    let badge = try #require(records.first { ($0["file"] as? String) == "badge.archive" })
    #expect(badge["outcome"] as? String == "refused")
    #expect(badge["cause"] as? String == "crashed")
    #expect((badge["reason"] as? String)?.hasPrefix("the app's decoding trapped") == true)
    #expect(records.filter { $0["outcome"] as? String == "will-rewrite" }.count == 5)
    #expect(try StoreFixtures.checksums(ofFolder: folder) == before)
  }
}
