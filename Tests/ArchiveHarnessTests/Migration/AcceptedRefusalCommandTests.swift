import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `migrate-dry-run` and `migrate` with a store manifest that accepts a known-bad record.
///
/// Run as a user would; every store and manifest is made in a temporary folder.
@Suite("Accepted refusals: migrate-dry-run and migrate")
struct AcceptedRefusalCommandTests {
  /// A store manifest whose `<accepted>` elements are `accepted`, one a line from line 4.
  private static func manifest(_ accepted: [String]) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
      <producer app="ProfilesApp" version="1.0" platform="iOS 14.4" produced="2021-03-04" store="store.sqlite"/>
    \(accepted.map { "  " + $0 }.joined(separator: "\n"))
    </manifest>

    """
  }

  private static func acceptedElement(
    _ key: String = "e-truncated", category: String = "truncated",
    reason: String = "written by 1.0's crash on save; the user re-enters it"
  ) -> String {
    "<accepted key=\"\(key)\" category=\"\(category)\" reason=\"\(reason)\"/>"
  }

  /// A folder holding `store.sqlite` (the sample rows plus `extraRows`) and `store.xml`.
  private struct Scratch {
    var folder: String
    var store: String { folder + "/store.sqlite" }
    var manifest: String { folder + "/store.xml" }

    init(accepted: [String], extraRows: [(String, [UInt8]?)] = []) throws {
      folder = try MigrationFixtures.temporaryFolder()
      try MigrationFixtures.makeDatabase(
        at: folder + "/store.sqlite", rows: MigrationFixtures.sampleRows() + extraRows)
      try Data(AcceptedRefusalCommandTests.manifest(accepted).utf8).write(
        to: URL(fileURLWithPath: folder + "/store.xml"))
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// The arguments of a rename-only run of `command` over the store with the manifest.
    func arguments(_ command: String, _ more: [String] = []) -> [String] {
      [
        command, "--store", store, "--table", "store", "--manifest", manifest, "--rename-only",
        "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile",
        "--class-map", "ProfilesApp.Address=ProfileKit.Address",
      ] + more
    }
  }

  @Test("A store manifest that accepts the store's one refusal makes the dry run exit 0")
  func acceptedDryRunExitsZero() throws {
    let scratch = try Scratch(accepted: [Self.acceptedElement()])
    defer { scratch.remove() }
    let result = try CommandRunner.run(scratch.arguments("migrate-dry-run"))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("accepted         \(scratch.store):store[key='e-truncated']"))
    #expect(
      result.stdout.contains(
        "accepted (truncated) at \(scratch.manifest):4:3: written by 1.0's crash on save"))
    #expect(result.stdout.contains("0 refused, 3 skipped, 1 accepted (7 records)"))
  }

  @Test("Without the manifest's acceptance the same store exits 1")
  func withoutAcceptanceExitsOne() throws {
    let scratch = try Scratch(accepted: [])
    defer { scratch.remove() }
    let result = try CommandRunner.run(scratch.arguments("migrate-dry-run"))
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("refused          \(scratch.store):store[key='e-truncated']"))
  }

  @Test("The accepted store plus one new bad record exits 1, naming the new one as refused")
  func newRefusalExitsOne() throws {
    let bad = Array(MigrationFixtures.profile(id: 9).prefix(12))
    let scratch = try Scratch(accepted: [Self.acceptedElement()], extraRows: [("h-new-bad", bad)])
    defer { scratch.remove() }
    let result = try CommandRunner.run(scratch.arguments("migrate-dry-run"))
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("refused          \(scratch.store):store[key='h-new-bad']"))
    #expect(result.stdout.contains("accepted         \(scratch.store):store[key='e-truncated']"))
    #expect(result.stdout.contains("1 refused, 3 skipped, 1 accepted (8 records)"))
  }

  @Test("An accepted key whose refusal has another category exits 1, naming both categories")
  func categoryMismatchExitsOne() throws {
    let scratch = try Scratch(accepted: [Self.acceptedElement(category: "malformed")])
    defer { scratch.remove() }
    let result = try CommandRunner.run(scratch.arguments("migrate-dry-run"))
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains("category-changed \(scratch.store):store[key='e-truncated']"))
    #expect(
      result.stdout.contains(
        "accepted as 'malformed' at \(scratch.manifest):4:3, but the refusal is now 'truncated'"))
  }

  @Test(
    "Migrate with an accepted refusal exits 0 and leaves the accepted record's bytes as they were")
  func migrateLeavesAcceptedBytes() throws {
    let scratch = try Scratch(accepted: [Self.acceptedElement()])
    defer { scratch.remove() }
    let before = try MigrationFixtures.rows(at: scratch.store)
    let result = try CommandRunner.run(
      scratch.arguments("migrate", ["--backup", scratch.folder + "/backup"]))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("summary: 2 rewritten"))
    let after = try MigrationFixtures.rows(at: scratch.store)
    let original = try #require(before["e-truncated"])
    #expect(after["e-truncated"] == original)
    #expect(after["a-legacy"] != before["a-legacy"], "the other records are migrated")
  }

  @Test("Migrate over a folder store accepts a file by its relative path and leaves its bytes")
  func migrateFolderLeavesAcceptedBytes() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try MigrationFixtures.makeFolder(at: folder + "/store")
    let manifestPath = folder + "/store.xml"
    try Data(Self.manifest([Self.acceptedElement("e-truncated.archive")]).utf8).write(
      to: URL(fileURLWithPath: manifestPath))
    let before = try MigrationFixtures.checksum(ofFile: folder + "/store/e-truncated.archive")
    let result = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", manifestPath, "--rename-only",
      "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile",
      "--class-map", "ProfilesApp.Address=ProfileKit.Address", "--backup", folder + "/backup",
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("accepted         \(folder)/store/e-truncated.archive"))
    #expect(try MigrationFixtures.checksum(ofFile: folder + "/store/e-truncated.archive") == before)
  }

  @Test("An accepted key that is no longer refused is a warning, not a failure")
  func staleAcceptanceWarns() throws {
    let scratch = try Scratch(accepted: [
      Self.acceptedElement(), Self.acceptedElement("a-legacy"), Self.acceptedElement("zz-gone"),
    ])
    defer { scratch.remove() }
    let result = try CommandRunner.run(scratch.arguments("migrate-dry-run"))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains(
        "\(scratch.manifest):5:3: warning: accepted refusal of 'a-legacy' (truncated) no longer "
          + "happens; remove it (now will-rewrite)"))
    #expect(
      result.stderr.contains(
        "\(scratch.manifest):6:3: warning: accepted refusal of 'zz-gone' (truncated) no longer "
          + "happens; remove it (no record has this key)"))
  }

  @Test("A key accepted twice makes the manifest unusable, exit 2, at the second key")
  func duplicateAcceptedKey() throws {
    let scratch = try Scratch(accepted: [Self.acceptedElement(), Self.acceptedElement()])
    defer { scratch.remove() }
    let result = try CommandRunner.run(scratch.arguments("migrate-dry-run"))
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains(
        "\(scratch.manifest):5:13: error: [semantic] accepted refusal of key 'e-truncated' is "
          + "already listed at \(scratch.manifest):4:3"))
  }

  @Test("An accepted category outside the vocabulary is a schema error on the manifest, exit 2")
  func unknownCategory() throws {
    let scratch = try Scratch(accepted: [Self.acceptedElement(category: "broken")])
    defer { scratch.remove() }
    let result = try CommandRunner.run(scratch.arguments("migrate-dry-run"))
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("\(scratch.manifest):4:"))
    #expect(result.stderr.contains("[schema]"))
  }

  @Test("migrate --format json with an accepted refusal follows the report schema")
  func migrateJSON() throws {
    let scratch = try Scratch(accepted: [Self.acceptedElement()])
    defer { scratch.remove() }
    let result = try CommandRunner.run(
      scratch.arguments("migrate", ["--no-backup", "--format", "json"]))
    #expect(result.status == 0, "\(result.stderr)")
    let violations = try JSONSchemas.violations(of: result.stdout, against: .migrationReport)
    #expect(violations.isEmpty, "\(violations)")
    let report = try JSONDocument(parsing: result.stdout)
    #expect(report["summary"]?["accepted"] == .number(1))
    #expect(report["summary"]?["refused"] == .number(0))
  }
}
