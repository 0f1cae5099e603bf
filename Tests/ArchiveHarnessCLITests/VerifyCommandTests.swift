import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@Suite("archive-harness verify and decode, run as a user would")
struct VerifyCommandTests {
  /// A scratch copy of the shipped manifests and archives, so a test can change them.
  private func scratchCopy() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "verify-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for folder in ["manifests", "LegacyArchives"] {
      try FileManager.default.copyItem(
        at: Corpus.packageRoot.appendingPathComponent(folder),
        to: directory.appendingPathComponent(folder))
    }
    return directory
  }

  private func arguments(_ directory: URL, _ extra: [String] = []) -> [String] {
    [
      "verify", "--manifests", directory.appendingPathComponent("manifests").path,
      "--archives", directory.appendingPathComponent("LegacyArchives").path,
      "--schema", directory.appendingPathComponent("manifests/schema/archive-manifest.xsd").path,
    ] + extra
  }

  /// Expects an output to follow its shipped JSON Schema.
  private func expectValid(
    _ text: String, against schema: JSONSchemas.Name,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let violations = try JSONSchemas.violations(of: text, against: schema)
    #expect(
      violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))",
      sourceLocation: sourceLocation)
  }

  @Test("A passing run exits 0 and summarises every entry")
  func passingRun() throws {
    let result = try CommandRunner.run(["verify"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("24 archive entries: 24 passed, 0 failed, 0 unexpected-pass"))
    #expect(result.stderr.isEmpty)
  }

  @Test("An archive expected to be rejected that decodes fails loudly as a hole, exit 1")
  func unexpectedPassIsAHole() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Claim the valid memo must be rejected.
    let manifest = directory.appendingPathComponent("manifests/ProfilesApp-1.0.xml")
    var text = try String(contentsOf: manifest, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "    <rootClass name=\"ProfileKit.Memo\"/>\n    <integer key=\"schema\">1</integer>",
      with:
        "    <rootClass name=\"ProfileKit.Memo\"/>\n    <secure outcome=\"rejected\" category=\"class-not-allowed\"/>\n    <integer key=\"schema\">1</integer>"
    )
    try text.write(to: manifest, atomically: false, encoding: .utf8)
    let result = try CommandRunner.run(arguments(directory))
    #expect(result.status == 1)
    #expect(result.stdout.contains("HOLE manifests") || result.stdout.contains("HOLE /"))
    #expect(result.stdout.contains("1 unexpected-pass"))
  }

  @Test("A changed string in an archive fails its expectation with the key path, exit 1")
  func changedFieldFails() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifest = directory.appendingPathComponent("manifests/ProfilesApp-1.0.xml")
    var text = try String(contentsOf: manifest, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "<string key=\"address.city\">Walldorf</string>",
      with: "<string key=\"address.city\">Heidelberg</string>")
    try text.write(to: manifest, atomically: false, encoding: .utf8)
    let result = try CommandRunner.run(arguments(directory, ["--format", "json"]))
    #expect(result.status == 1)
    try expectValid(result.stdout, against: .verify)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["serializationVersion"] as? Int == 3)
    let cases = try #require(json["cases"] as? [[String: Any]])
    let failed = cases.filter { $0["status"] as? String == "failed" }
    #expect(failed.count == 1)
    let expectations = try #require(failed.first?["expectations"] as? [[String: Any]])
    #expect(
      expectations.contains {
        $0["keyPath"] as? String == "address.city" && $0["status"] as? String == "failed"
      })
    let city = try #require(
      expectations.first { $0["keyPath"] as? String == "address.city" })
    #expect(city["expected"] as? [String: String] == ["type": "string", "value": "Heidelberg"])
    #expect(city["actual"] as? [String: String] == ["type": "string", "value": "Walldorf"])
  }

  @Test("verify --format json of the shipped manifests follows its schema, objects as data")
  func passingRunJSON() throws {
    let result = try CommandRunner.run(["verify", "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    try expectValid(result.stdout, against: .verify)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let cases = try #require(json["cases"] as? [[String: Any]])
    let objects = cases.compactMap {
      (($0["paths"] as? [String: [String: Any]])?["secure"]?["object"]) as? [String: Any]
    }
    #expect(!objects.isEmpty)
    #expect(objects.allSatisfy { $0["$class"] is String })
  }

  @Test("verify --format json --output FILE writes the report standard output gets")
  func jsonOutputFileMatchesStandardOutput() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("report.json")
    let written = try CommandRunner.run(
      arguments(directory, ["--format", "json", "--output", file.path]))
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.isEmpty)
    let printed = try CommandRunner.run(arguments(directory, ["--format", "json"]))
    // Two runs: each entry's measured time may differ; nothing else may.
    #expect(
      ReportTimes.zeroed(try String(contentsOf: file, encoding: .utf8))
        == ReportTimes.zeroed(printed.stdout))
    try expectValid(printed.stdout, against: .verify)
  }

  @Test("A silently changed fixture is an unusable input, exit 2, naming the manifest line")
  func changedFixtureIsUnusable() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    let archive = directory.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/memo-valid.archive")
    var bytes = try Data(contentsOf: archive)
    bytes[bytes.count / 2] ^= 0x01
    try bytes.write(to: archive)
    let result = try CommandRunner.run(arguments(directory))
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("ProfilesApp-1.0.xml:"))
    #expect(result.stderr.contains("sha256"))
  }

  @Test("An invalid manifest exits 2 with file:line:column diagnostics")
  func invalidManifestIsUnusable() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifest = directory.appendingPathComponent("manifests/ProfilesApp-1.1.xml")
    var text = try String(contentsOf: manifest, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "<legacy outcome=\"rejected\"", with: "<legacy outcome=\"refused\"")
    try text.write(to: manifest, atomically: false, encoding: .utf8)
    let result = try CommandRunner.run(arguments(directory))
    #expect(result.status == 2)
    #expect(
      result.stderr.range(
        of: #"ProfilesApp-1\.1\.xml:\d+:\d+: error: "#, options: .regularExpression) != nil)
  }

  @Test("--format junit writes one testcase per archive entry")
  func junitOutput() throws {
    let result = try CommandRunner.run(["verify", "--format", "junit"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("<?xml"))
    #expect(result.stdout.components(separatedBy: "<testcase ").count - 1 == 24)
  }

  @Test("--format html --output writes one self-contained page with a row per archive entry")
  func htmlOutput() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = directory.appendingPathComponent("report.html")
    let result = try CommandRunner.run(
      arguments(directory, ["--format", "html", "--output", page.path]))
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    let text = try String(contentsOf: page, encoding: .utf8)
    #expect(text.hasPrefix("<!DOCTYPE html>"))
    #expect(text.components(separatedBy: "<tr class=\"entry\"").count - 1 == 24)
    #expect(!text.contains("https://"))
  }

  @Test("verify --shard K/N: the shards of the shipped manifests cover every entry once")
  func shardsCoverEveryEntry() throws {
    var archives: [String] = []
    var digests: Set<String> = []
    for index in 1...3 {
      let result = try CommandRunner.run(["verify", "--shard", "\(index)/3", "--format", "json"])
      #expect(result.status == 0)
      try expectValid(result.stdout, against: .verify)
      let document = try JSONDocument(parsing: result.stdout)
      #expect(document["shard"]?["index"] == .number(Double(index)))
      if case .string(let digest)? = document["manifestsDigest"] { digests.insert(digest) }
      guard case .array(let cases)? = document["cases"] else {
        Issue.record("shard \(index) has no cases")
        continue
      }
      for item in cases {
        if case .string(let archive)? = item["archive"] { archives.append(archive) }
      }
    }
    #expect(archives.count == 24)
    #expect(Set(archives).count == 24)
    #expect(digests.count == 1)
  }

  @Test("report merge of the shipped manifests' shards equals an unsharded run")
  func mergeEqualsUnsharded() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    var files: [String] = []
    for index in [2, 3, 1] {
      let file = directory.appendingPathComponent("shard-\(index).json").path
      let result = try CommandRunner.run(
        arguments(directory, ["--shard", "\(index)/3", "--format", "json", "--output", file]))
      #expect(result.status == 0)
      files.append(file)
    }
    let merged = try CommandRunner.run(["report", "merge"] + files)
    #expect(merged.status == 0)
    try expectValid(merged.stdout, against: .verify)
    let unsharded = try CommandRunner.run(arguments(directory, ["--format", "json"]))
    // Each entry's measured time differs from run to run; the rest must not.
    let mergedCases = try JSONDocument(parsing: ReportTimes.zeroed(merged.stdout))["cases"]
    let unshardedCases = try JSONDocument(parsing: ReportTimes.zeroed(unsharded.stdout))["cases"]
    #expect(mergedCases != nil)
    #expect(mergedCases == unshardedCases)
  }

  @Test("report merge --format html, junit and text write what an unsharded verify writes")
  func mergeEqualsUnshardedInEveryFormat() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    var files: [String] = []
    for index in [3, 1, 2] {
      let file = directory.appendingPathComponent("shard-\(index).json").path
      let result = try CommandRunner.run(
        arguments(directory, ["--shard", "\(index)/3", "--format", "json", "--output", file]))
      #expect(result.status == 0)
      files.append(file)
    }
    for format in ["html", "junit", "text"] {
      let merged = try CommandRunner.run(["report", "merge", "--format", format] + files)
      #expect(merged.status == 0, "\(format): \(merged.stderr)")
      let unsharded = try CommandRunner.run(arguments(directory, ["--format", format]))
      #expect(!merged.stdout.isEmpty)
      // JUnit's times are measured, so they differ between runs; nothing else may.
      #expect(
        ReportTimes.zeroed(merged.stdout) == ReportTimes.zeroed(unsharded.stdout), "\(format)")
    }
  }

  @Test("report merge refuses a missing shard, exit 2")
  func mergeRefusesMissingShard() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = directory.appendingPathComponent("shard-1.json").path
    _ = try CommandRunner.run(
      arguments(directory, ["--shard", "1/3", "--format", "json", "--output", first]))
    let merged = try CommandRunner.run(["report", "merge", "--format", "html", first])
    #expect(merged.status == 2)
    #expect(merged.stdout.isEmpty)
    #expect(merged.stderr.contains("missing shard 2, 3 of 3"))
  }

  @Test("report merge refuses a repeated shard, exit 2")
  func mergeRefusesRepeatedShard() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = directory.appendingPathComponent("shard-1.json").path
    _ = try CommandRunner.run(
      arguments(directory, ["--shard", "1/1", "--format", "json", "--output", first]))
    let merged = try CommandRunner.run(["report", "merge", "--format", "junit", first, first])
    #expect(merged.status == 2)
    #expect(merged.stderr.contains("shard 1 again"))
  }

  @Test(
    "report merge --format html names the shard and the place a report cannot be read at, exit 2")
  func mergeNamesUnreadableShard() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "merge-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("shard-1.json")
    let digest = String(repeating: "a", count: 64)
    let text = """
      {"cases": [{"archive": "a.archive", "expectations": [], "location": "m.xml:3:3",
      "manifest": "m.xml", "notes": [], "paths": {"legacy": {"outcome": "exploded",
      "matches": true}}, "status": "passed"}], "manifestsDigest": "\(digest)", "notes": [],
      "serializationVersion": 3, "shard": {"count": 1, "index": 1}}
      """
    try Data(text.utf8).write(to: file)
    let merged = try CommandRunner.run(["report", "merge", "--format", "html", file.path])
    #expect(merged.status == 2)
    #expect(merged.stdout.isEmpty)
    #expect(
      merged.stderr.contains(
        "\(file.path):$.cases[0].paths.legacy.outcome: error: [unreadable] no such outcome"))
  }

  @Test("report merge refuses shards of different manifests, exit 2")
  func mergeRefusesOtherManifests() throws {
    let directory = try scratchCopy()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = directory.appendingPathComponent("shard-1.json").path
    let second = directory.appendingPathComponent("shard-2.json").path
    #expect(
      try CommandRunner.run(
        arguments(directory, ["--shard", "1/2", "--format", "json", "--output", first])
      ).status == 0)
    let manifest = directory.appendingPathComponent("manifests/ProfilesApp-1.0.xml")
    let text = try String(contentsOf: manifest, encoding: .utf8)
    try (text + "<!-- changed -->\n").write(to: manifest, atomically: false, encoding: .utf8)
    #expect(
      try CommandRunner.run(
        arguments(directory, ["--shard", "2/2", "--format", "json", "--output", second])
      ).status == 0)
    let merged = try CommandRunner.run(["report", "merge", first, second])
    #expect(merged.status == 2)
    #expect(merged.stderr.contains("manifestsDigest differs"))
  }

  @Test("verify --shard with an index above the count is a usage error, exit 2")
  func shardAboveCount() throws {
    let result = try CommandRunner.run(["verify", "--shard", "4/3"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--shard"))
  }

  @Test("decode --format json has the documented shape and names the crash of corelibs")
  func decodeJSON() throws {
    let result = try CommandRunner.run([
      "decode", "LegacyArchives/ProfilesApp-1.0/profiles-list-cyclic.archive", "--format", "json",
      "--manifest", "manifests/ProfilesApp-1.0.xml",
    ])
    #expect(result.status == 1)
    try expectValid(result.stdout, against: .decode)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["serializationVersion"] as? Int == 1)
    let paths = try #require(json["paths"] as? [String: [String: Any]])
    #expect(paths["secure"]?["outcome"] as? String == "rejected")
    #expect(paths["secure"]?["category"] as? String == "cycle")
    #expect(Set(paths.keys) == ["legacy", "secure", "foundation-legacy", "foundation-secure"])
  }

  @Test("decode of a valid archive exits 0 and shows its fields")
  func decodeValid() throws {
    let result = try CommandRunner.run([
      "decode", "LegacyArchives/ProfilesApp-1.1/profile-valid.archive", "--path", "secure",
      "--manifest", "manifests/ProfilesApp-1.1.xml", "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    try expectValid(result.stdout, against: .decode)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let secure = try #require((json["paths"] as? [String: [String: Any]])?["secure"])
    let object = try #require(secure["object"] as? [String: Any])
    #expect(object["$class"] as? String == "ProfileKit.UserProfile")
    #expect(object["id"] as? Int == 1001)
  }

  @Test("v1's trapping decoder is contained: the path is reported crashed, the harness exits 1")
  func trappingInitIsContained() throws {
    let result = try CommandRunner.run([
      "decode", "LegacyArchives/ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive",
      "--registry", "ProfilesApp-1", "--path", "legacy", "--format", "json",
    ])
    #expect(result.signal == nil)
    #expect(result.status == 1)
    try expectValid(result.stdout, against: .decode)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let legacy = try #require((json["paths"] as? [String: [String: Any]])?["legacy"])
    #expect(legacy["outcome"] as? String == "crashed")
  }

  @Test("decode with an unknown registry is a usage error, exit 2")
  func unknownRegistry() throws {
    let result = try CommandRunner.run([
      "decode", "LegacyArchives/ProfilesApp-1.0/memo-valid.archive", "--registry", "Nope",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("Error: Unknown registry 'Nope'"))
  }
}
