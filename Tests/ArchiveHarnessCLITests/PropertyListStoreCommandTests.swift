import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

/// `migrate-dry-run`, `migrate` and `migrate --rollback` on a preferences file, run as a team runs them.
@Suite("archive-harness on property-list stores, run as a user would")
struct PropertyListStoreCommandTests {
  private static let manifest = Corpus.packageRoot.appendingPathComponent(
    "manifests/ProfilesApp-1.0.xml"
  ).path

  private static func shipped(_ name: String) throws -> [UInt8] {
    Array(
      try Data(
        contentsOf: Corpus.packageRoot.appendingPathComponent(
          "LegacyArchives/ProfilesApp-1.0/\(name)")
      ))
  }

  /// A preferences tree: two v1 profiles (one nested in an array), a truncated memo, a `Data`
  /// value that is no archive, and values that are no records, in no sorted key order.
  private static func tree() throws -> PropertyListValue {
    .dictionary([
      "NSWindow Frame main": .string("0 0 800 600"),
      "profile": .dictionary(["current": .data(try shipped("profile-valid.archive"))]),
      "recent": .array([
        .data(Array("not an archive".utf8)), .data(try shipped("profile-valid.archive")),
      ]),
      "memo.draft": .data(try shipped("memo-truncated.archive")),
      "launches": .integer(12),
    ])
  }

  /// A folder holding `Preferences/com.example.app.plist` in `format`; returns the folder and file.
  private func workspace(_ format: PropertyListFormat) throws -> (folder: String, file: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "plist-cli-\(getpid())-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(
      atPath: folder + "/Preferences", withIntermediateDirectories: true)
    let file = folder + "/Preferences/com.example.app.plist"
    let tree = try Self.tree()
    let bytes =
      format == .binary
      ? BinaryPropertyListWriter().write(tree) : Array(XMLPropertyListWriter().write(tree).utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return (folder, file)
  }

  private func contents(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test("A typed dry run names each value by key path, changes no byte, and exits 1 for a refusal")
  func dryRun() throws {
    let (folder, file) = try workspace(.binary)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try contents(file)
    let result = try CommandRunner.run([
      "migrate-dry-run", "--store", file, "--manifest", Self.manifest,
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("will-rewrite     \(file):profile.current  "))
    #expect(result.stdout.contains("will-rewrite     \(file):recent[1]  "))
    #expect(result.stdout.contains("skipped          \(file):recent[0]  not an archive"))
    #expect(result.stdout.contains("refused          \(file):\"memo.draft\"  [read]"))
    #expect(
      result.stdout.contains("summary: 2 will-rewrite, 0 already-current, 1 refused, 1 skipped"))
    #expect(try contents(file) == before)
    let entries = try FileManager.default.contentsOfDirectory(atPath: folder + "/Preferences")
    #expect(entries == ["com.example.app.plist"], "the dry run writes nothing beside the file")
  }

  @Test(
    "Migrate keeps the format, follows the JSON schema, re-runs as a no-op, and rolls back",
    arguments: [PropertyListFormat.binary, .xml])
  func migrateRerunRollback(format: PropertyListFormat) throws {
    let (folder, file) = try workspace(format)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try contents(file)
    let first = try CommandRunner.run([
      "migrate", "--store", file, "--manifest", Self.manifest, "--backup", folder + "/backup",
      "--format", "json",
    ])
    #expect(first.status == 1, "the refused memo makes the run exit 1: \(first.stderr)")
    let violations = try JSONSchemas.violations(of: first.stdout, against: .migrationReport)
    #expect(violations.isEmpty, "\(violations)")
    let report = try JSONDocument(parsing: first.stdout)
    #expect(report["summary"]?["rewritten"] == .number(2))
    guard case .string(let journal)? = report["summary"]?["journal"] else {
      Issue.record("the report names no journal: \(first.stdout)")
      return
    }

    let (after, afterFormat) = try PropertyListReader().readWithFormat(try contents(file))
    #expect(afterFormat == format)
    let original = try PropertyListReader().read(before)
    #expect(after.dictionaryValue?.keys == original.dictionaryValue?.keys)
    for key in ["NSWindow Frame main", "memo.draft", "launches"] {
      #expect(after.dictionaryValue?[key] == original.dictionaryValue?[key], "\(key) changed")
    }
    #expect(after.dictionaryValue?["profile"] != original.dictionaryValue?["profile"])
    let backups = try FileManager.default.contentsOfDirectory(atPath: folder + "/backup")
    let run = try #require(backups.first)
    #expect(try contents(folder + "/backup/\(run)/com.example.app.plist") == before)

    let again = try CommandRunner.run([
      "migrate", "--store", file, "--manifest", Self.manifest, "--backup", folder + "/backup",
    ])
    #expect(again.stdout.contains("summary: 0 rewritten, 2 already-current, 1 refused, 1 skipped"))
    #expect(again.stdout.contains("store: unchanged: nothing to migrate"))
    #expect(!again.stdout.contains("journal: "))

    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 0, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stdout.contains("rollback: 2 restored, 0 already original, 0 conflicts"))
    #expect(rollback.stdout.contains(":profile.current\n"))
    #expect(try contents(file) == before, "the project's writers are deterministic")
  }

  @Test("A keyed archive given as the store is an error that says what to pass instead, exit 2")
  func archiveAsStore() throws {
    let (folder, _) = try workspace(.binary)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let archive = folder + "/profile.plist"
    try Data(try Self.shipped("profile-valid.archive")).write(to: URL(fileURLWithPath: archive))
    let result = try CommandRunner.run([
      "migrate-dry-run", "--store", archive, "--manifest", Self.manifest,
    ])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.contains(
        "\(archive): error: [not-a-store] the property list is a keyed archive"))
    #expect(result.stderr.contains("inspect \(archive)"))
  }

  @Test("A symbolic link given as the store is refused, exit 2, and nothing is written")
  func symbolicLinkStore() throws {
    let (folder, file) = try workspace(.binary)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let link = folder + "/prefs.plist"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    let before = try contents(file)
    let result = try CommandRunner.run([
      "migrate", "--store", link, "--manifest", Self.manifest, "--backup", folder + "/backup",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(link): error: [symbolic-link]"))
    #expect(try contents(file) == before)
    #expect(!FileManager.default.fileExists(atPath: folder + "/backup"))
  }

  @Test("A malformed preferences file is an error at its byte offset, exit 2, nothing written")
  func malformedFile() throws {
    let (folder, file) = try workspace(.binary)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var bytes = try contents(file)
    bytes[bytes.count - 9] = 0xFF  // the top object's index, in the trailer
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    let result = try CommandRunner.run([
      "migrate", "--store", file, "--manifest", Self.manifest, "--backup", folder + "/backup",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(file):offset "), "\(result.stderr)")
    #expect(result.stderr.contains("the property list does not read"))
    #expect(try contents(file) == bytes)
    #expect(!FileManager.default.fileExists(atPath: folder + "/backup"))
  }

  @Test("--table with a property-list store is an invalid option, exit 2")
  func tableOption() throws {
    let (folder, file) = try workspace(.xml)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run([
      "migrate-dry-run", "--store", file, "--manifest", Self.manifest, "--table", "t",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("[invalid-options]"))
    #expect(result.stderr.contains("this store is a property list"))
  }
}

/// `[*]` in a property-list store's key paths: every element of an array, however many this
/// device's file holds.
@Suite("Property-list key paths with [*]")
struct PropertyListWildcardTests {
  @Test("[*] matches each index of its array and nothing else")
  func patternMatchesEveryIndex() throws {
    let pattern = try #require(PropertyListKeyPathPattern(parsing: "recent[*].data"))
    #expect(pattern.matches(PropertyListKeyPath([.key("recent"), .index(0), .key("data")])))
    #expect(pattern.matches(PropertyListKeyPath([.key("recent"), .index(41), .key("data")])))
    #expect(!pattern.matches(PropertyListKeyPath([.key("recent"), .key("data")])))
    #expect(!pattern.matches(PropertyListKeyPath([.key("recent"), .index(0)])))
    #expect(PropertyListKeyPathPattern(parsing: "recent[*") == nil)
    #expect(PropertyListKeyPath(parsing: "recent[*]") == nil, "a key path names one value")
  }

  @Test("A manifest's recent[*] migrates every archive of the array, three or thirty")
  func wildcardStoreMigratesEveryElement() throws {
    let folder = NSTemporaryDirectory() + "plist-wildcard-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let profile = Array(
      try Data(
        contentsOf: Corpus.packageRoot.appendingPathComponent(
          "LegacyArchives/ProfilesApp-1.0/profile-valid.archive")))
    let tree = PropertyListValue.dictionary([
      "recent": .array(Array(repeating: .data(profile), count: 5))
    ])
    try Data(BinaryPropertyListWriter().write(tree)).write(
      to: URL(fileURLWithPath: folder + "/prefs.plist"))
    let manifest = try String(
      contentsOf: Corpus.packageRoot.appendingPathComponent("manifests/ProfilesApp-1.0.xml"),
      encoding: .utf8
    ).replacingOccurrences(
      of: "  </migration>\n",
      with:
        "  </migration>\n  <store kind=\"property-list\">\n    <keyPath>recent[*]</keyPath>\n  </store>\n"
    )
    // Beside the shipped manifests, whose class map file it references.
    try FileManager.default.copyItem(
      atPath: Corpus.packageRoot.appendingPathComponent("manifests").path,
      toPath: folder + "/manifests")
    try manifest.write(toFile: folder + "/manifests/m.xml", atomically: false, encoding: .utf8)
    let result = try CommandRunner.run(
      [
        "migrate-dry-run", "--store", folder + "/prefs.plist", "--manifest",
        folder + "/manifests/m.xml",
      ], in: URL(fileURLWithPath: folder))
    #expect(result.stdout.contains("summary: 5 will-rewrite"), "\(result.stdout)\(result.stderr)")
  }
}
