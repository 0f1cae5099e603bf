import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import ProfilesApp
import Testing

/// A fresh folder with `LegacyArchives/` copied from the repository's samples and an empty
/// `manifests/`, as a team's package would hold them.
private func samplesFolder(_ prefix: String) throws -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(
    at: directory.appendingPathComponent("manifests"), withIntermediateDirectories: true)
  try FileManager.default.copyItem(
    at: Corpus.packageRoot.appendingPathComponent("LegacyArchives"),
    to: directory.appendingPathComponent("LegacyArchives"))
  return directory
}

/// Names in the ignore file every archive of the folder but `authored`: verify fails an archive
/// no manifest lists, and these tests author a few of the samples.
private func keepOnly(_ authored: [String], in directory: URL) throws {
  let all = ArchiveFolder.archives(in: directory.appendingPathComponent("LegacyArchives").path)
  let others = all.filter { !authored.contains($0) }
  try (others.joined(separator: "\n") + "\n").write(
    to: directory.appendingPathComponent("manifests/" + ArchiveFolder.ignoreFileName),
    atomically: false, encoding: .utf8)
}

/// The property authoring promises, run as a team would.
///
/// `verify` passes on a manifest fresh from `manifest author`, over the archives it was written
/// from, and stays passing after `--update`; each test works in a folder of its own with the
/// shipped `archive-harness`.
@Suite("A manifest fresh from manifest author passes verify at once")
struct AuthoredManifestVerifiesTests {
  private func teamFolder() throws -> URL { try samplesFolder("authored") }

  /// The archive paths of one sample folder, relative to `LegacyArchives`.
  private func archives(_ folder: String, in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: directory.appendingPathComponent("LegacyArchives/\(folder)").path
    ).filter { $0.hasSuffix(".archive") }.sorted().map { "\(folder)/\($0)" }
  }

  private func author(
    _ paths: [String], version: String, in directory: URL, extra: [String] = []
  ) throws -> CommandRunner.Result {
    try CommandRunner.run(
      [
        "manifest", "author", "--app", "ProfilesApp", "--version", version, "-o",
        "manifests/ProfilesApp-\(version).xml",
      ] + extra + paths,
      in: directory)
  }

  private func verify(in directory: URL) throws -> CommandRunner.Result {
    try CommandRunner.run(["verify"], in: directory)
  }

  @Test("Every sample archive of both versions: authored, then verify passes every entry")
  func samplesPassAtOnce() throws {
    let directory = try teamFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    for version in ["1.0", "1.1"] {
      let authored = try author(
        try archives("ProfilesApp-\(version)", in: directory), version: version, in: directory)
      #expect(authored.status == 0, "\(authored.stderr)")
    }
    let verified = try verify(in: directory)
    #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
    #expect(verified.stdout.contains("24 archive entries: 24 passed, 0 failed"))
  }

  @Test("What the author records: each path's outcome, current class names, the root class")
  func recordsOutcomesUnderCurrentNames() throws {
    let directory = try teamFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try author(
      [
        "ProfilesApp-1.0/memo-unknown-schema.archive", "ProfilesApp-1.0/memo-wrong-root.archive",
        "ProfilesApp-1.0/profile-valid.archive",
      ], version: "1.0", in: directory)
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(
      contentsOf: directory.appendingPathComponent("manifests/ProfilesApp-1.0.xml"),
      encoding: .utf8)
    let unknownSchema = try #require(entry("memo-unknown-schema.archive", in: text))
    #expect(unknownSchema.contains(#"<legacy outcome="rejected" category="init-failed"/>"#))
    #expect(unknownSchema.contains(#"<secure outcome="rejected" category="init-failed"/>"#))
    let wrongRoot = try #require(entry("memo-wrong-root.archive", in: text))
    #expect(wrongRoot.contains(#"<rootClass name="NSString"/>"#))
    #expect(wrongRoot.contains(#"<secure outcome="rejected" category="wrong-root-class"/>"#))
    let valid = try #require(entry("profile-valid.archive", in: text))
    #expect(valid.contains(#"<class name="ProfileKit.UserProfile"/>"#))
    #expect(valid.contains(#"<class key="address" name="ProfileKit.Address"/>"#))
    #expect(!valid.contains(#"<class name="ProfilesApp."#))
    #expect(valid.contains("allowedClasses: REVIEW"))
  }

  @Test("--read gives an entry the app's read; one that misses a container is recorded rejected")
  func readsGiveEachEntryItsAllowedClasses() throws {
    let directory = try teamFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let reads = directory.appendingPathComponent("reads.txt")
    try Data(
      """
      # The app's reads, by the root each asks for.
      ProfileKit.UserProfile=ProfileKit.UserProfile,ProfileKit.Address
      NSArray=ProfileKit.UserProfile,ProfileKit.Address
      """.utf8
    ).write(to: reads)
    let result = try author(
      ["ProfilesApp-1.0/profile-valid.archive", "ProfilesApp-1.0/profiles-list.archive"],
      version: "1.0", in: directory, extra: ["--reads", reads.path])
    #expect(result.status == 0, "\(result.stderr)")
    try keepOnly(
      ["ProfilesApp-1.0/profile-valid.archive", "ProfilesApp-1.0/profiles-list.archive"],
      in: directory)
    let text = try String(
      contentsOf: directory.appendingPathComponent("manifests/ProfilesApp-1.0.xml"),
      encoding: .utf8)
    let valid = try #require(entry("profile-valid.archive", in: text))
    #expect(valid.contains("the app's read of a 'ProfileKit.UserProfile' root"))
    #expect(!valid.contains(#"<class name="NSMutableString"/>"#))
    // The list's read names no container: the secure read refuses it, and the manifest says so.
    let list = try #require(entry("profiles-list.archive", in: text))
    #expect(list.contains("the app's read of a 'NSArray' root"))
    #expect(!list.contains("<class name=\"NSArray\"/>\n    </allowedClasses>"))
    #expect(list.contains(#"<secure outcome="rejected""#))
    #expect(list.contains(#"<legacy outcome="decodes"/>"#))
    let verified = try verify(in: directory)
    #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
  }

  @Test("A read that is not ROOT=CLASS,… is a usage error naming its line")
  func malformedReadIsAUsageError() throws {
    let directory = try teamFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let reads = directory.appendingPathComponent("reads.txt")
    try Data("ProfileKit.UserProfile=ProfileKit.UserProfile\nNSArray\n".utf8).write(to: reads)
    let result = try author(
      ["ProfilesApp-1.0/profile-valid.archive"], version: "1.0", in: directory,
      extra: ["--reads", reads.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("reads.txt:2: the read 'NSArray' is not ROOT=CLASS,CLASS,…"))
    #expect(
      !FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("manifests/ProfilesApp-1.0.xml").path))
  }

  @Test("A root read twice is a usage error")
  func rootReadTwiceIsAUsageError() throws {
    let directory = try teamFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try author(
      ["ProfilesApp-1.0/profile-valid.archive"], version: "1.0", in: directory,
      extra: ["--read", "NSArray=NSArray", "--read", "NSArray=NSArray,NSString"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("the read of a 'NSArray' root is given twice"))
  }

  @Test("A regenerated archive (new bytes, same values) plus --update: sha256 refreshed, exit 0")
  func regeneratedArchiveAndUpdatePass() throws {
    let directory = try teamFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let authored = try author(
      try archives("ProfilesApp-1.0", in: directory), version: "1.0", in: directory)
    #expect(authored.status == 0, "\(authored.stderr)")
    try keepOnly(try archives("ProfilesApp-1.0", in: directory), in: directory)

    // As Foundation would write it again: the same objects, dictionary keys in another order.
    let path = "ProfilesApp-1.0/profile-valid.archive"
    let file = directory.appendingPathComponent("LegacyArchives/\(path)")
    let before = try Data(contentsOf: file)
    let regenerated = try Self.reordered([UInt8](before))
    #expect(regenerated != [UInt8](before))
    try Data(regenerated).write(to: file)
    #expect(try verify(in: directory).status == 2)

    let updated = try CommandRunner.run(
      ["manifest", "author", "--update", "manifests/ProfilesApp-1.0.xml", path], in: directory)
    #expect(updated.status == 0, "\(updated.stderr)")
    #expect(updated.stderr.contains("archive '\(path)': sha256 refreshed"))
    let verified = try verify(in: directory)
    #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
  }

  @Test("--update with an archive whose outcome changed reports it, keeps the entry, exits 1")
  func changedOutcomeIsReportedNotWrittenOver() throws {
    let directory = try teamFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = "ProfilesApp-1.0/profile-valid.archive"
    #expect(try author([path], version: "1.0", in: directory).status == 0)
    let manifest = directory.appendingPathComponent("manifests/ProfilesApp-1.0.xml")
    let before = try String(contentsOf: manifest, encoding: .utf8)
    // Another archive's bytes under the same name: the address became a dictionary.
    try FileManager.default.removeItem(
      at: directory.appendingPathComponent("LegacyArchives/\(path)"))
    try FileManager.default.copyItem(
      at: directory.appendingPathComponent(
        "LegacyArchives/ProfilesApp-1.0/profile-address-substituted.archive"),
      to: directory.appendingPathComponent("LegacyArchives/\(path)"))
    let updated = try CommandRunner.run(
      ["manifest", "author", "--update", "manifests/ProfilesApp-1.0.xml", path], in: directory)
    #expect(updated.status == 1, "\(updated.stderr)")
    #expect(updated.stderr.contains("no longer gives what its entry records"))
    #expect(updated.stderr.contains("secure: expected decodes, now rejected [class-not-allowed]"))
    let after = try String(contentsOf: manifest, encoding: .utf8)
    #expect(after.contains(#"<secure outcome="decodes"/>"#))
    #expect(after.count == before.count)
  }

  /// The archive's entry in a manifest's text, from its start tag to its end tag.
  private func entry(_ name: String, in text: String) -> Substring? {
    guard let start = text.range(of: "/\(name)\"") else { return nil }
    guard let end = text.range(of: "</archive>", range: start.upperBound..<text.endIndex) else {
      return nil
    }
    return text[start.lowerBound..<end.upperBound]
  }

  /// The archive with every dictionary's keys in reverse order: the bytes a second run of
  /// NSKeyedArchiver may write for the same objects.
  static func reordered(_ bytes: [UInt8]) throws -> [UInt8] {
    func reverse(_ value: PropertyListValue) -> PropertyListValue {
      switch value {
      case .dictionary(let dictionary):
        return .dictionary(
          PropertyListDictionary(dictionary.entries.reversed().map { ($0.key, reverse($0.value)) }))
      case .array(let elements):
        return .array(elements.map(reverse))
      default:
        return value
      }
    }
    let value = try PropertyListReader().read(bytes)
    return BinaryPropertyListWriter().write(reverse(value))
  }
}

/// An entry that decodes with an earlier version's own classes (`registry="NAME"`), so that
/// what 1.0's read did is an expectation like any other.
@Suite("Old code, on purpose: registry=\"NAME\" entries")
struct RegistryEntryTests {
  private func folder() throws -> URL { try samplesFolder("registry") }

  @Test("Authored with --registry ProfilesApp-1: 1.0's own read traps, recorded, and verify passes")
  func oldCodeTrapIsRecorded() throws {
    let directory = try folder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let authored = try CommandRunner.run(
      [
        "manifest", "author", "--registry", "ProfilesApp-1", "-o", "manifests/own-code.xml",
        "ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive",
      ], in: directory)
    #expect(authored.status == 0, "\(authored.stderr)")
    let text = try String(
      contentsOf: directory.appendingPathComponent("manifests/own-code.xml"), encoding: .utf8)
    #expect(text.contains(#"registry="ProfilesApp-1""#))
    #expect(text.contains(#"<rootClass name="ProfilesApp.UserProfile"/>"#))
    #expect(text.contains(#"<legacy outcome="rejected" category="crashed"/>"#))
    try keepOnly(["ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive"], in: directory)
    let verified = try CommandRunner.run(["verify"], in: directory)
    #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
  }

  @Test("The same entry without its registry fails: the current classes do not trap")
  func entryWithoutItsRegistryFails() throws {
    let directory = try folder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifest = directory.appendingPathComponent("manifests/own-code.xml")
    #expect(
      try CommandRunner.run(
        [
          "manifest", "author", "--registry", "ProfilesApp-1", "-o", manifest.path,
          "ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive",
        ], in: directory
      ).status == 0)
    let text = try String(contentsOf: manifest, encoding: .utf8)
    try Data(text.replacingOccurrences(of: #" registry="ProfilesApp-1""#, with: "").utf8).write(
      to: manifest)
    let verified = try CommandRunner.run(["verify"], in: directory)
    #expect(verified.status == 1, "\(verified.stdout)")
    #expect(verified.stdout.contains("FAIL manifests/own-code.xml"), "\(verified.stdout)")
    #expect(verified.stdout.contains("(expected rejected(crashed))"), "\(verified.stdout)")
  }

  @Test("An entry naming a registry the executable does not serve is an error at the entry")
  func unknownRegistryIsAnError() throws {
    let directory = try folder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifest = directory.appendingPathComponent("manifests/own-code.xml")
    #expect(
      try CommandRunner.run(
        [
          "manifest", "author", "--registry", "ProfilesApp-1", "-o", manifest.path,
          "ProfilesApp-1.0/profile-valid.archive",
        ], in: directory
      ).status == 0)
    let text = try String(contentsOf: manifest, encoding: .utf8)
    try Data(
      text.replacingOccurrences(of: #"registry="ProfilesApp-1""#, with: #"registry="v0""#).utf8
    ).write(
      to: manifest)
    let verified = try CommandRunner.run(["verify"], in: directory)
    #expect(verified.status == 2)
    #expect(verified.stderr.contains("registry 'v0' is not one this executable serves"))
    #expect(verified.stderr.contains("own-code.xml:11:3: error"))
  }

  @Test("manifest author --registry with a name the harness does not serve is a usage error")
  func unknownRegistryOptionIsAUsageError() throws {
    let result = try CommandRunner.run([
      "manifest", "author", "--registry", "v0", "ProfilesApp-1.0/profile-valid.archive",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("Unknown registry 'v0'; this harness serves: ProfilesApp-1"))
    #expect(result.stdout.isEmpty)
  }
}

/// Archives this test writes with Foundation's own NSKeyedArchiver, from version 1's classes:
/// what a team's regenerated fixtures look like, dictionary keys in hash order and all.
@Suite("Authoring archives Foundation writes now")
struct GeneratedArchiveAuthoringTests {
  @Test(
    "Fresh v1 archives from NSKeyedArchiver: authored, verify passes; written again, --update passes"
  )
  func freshArchivesPass() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generated-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let archives = directory.appendingPathComponent("LegacyArchives/Fresh")
    try FileManager.default.createDirectory(at: archives, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("manifests"), withIntermediateDirectories: true)

    func write() throws -> [String] {
      let people = (0..<4).map { index in
        ProfilesApp.UserProfile(
          id: 10 + index, name: "Person \(index)", isActive: index % 2 == 0,
          address: ProfilesApp.Address(street: "\(index) Fixture Road", city: "Town \(index)"))
      }
      let objects: [(String, Any)] = [
        ("profile.archive", people[0]),
        ("profiles.archive", people),
        ("memo.archive", ProfilesApp.Memo(text: "Fresh from the archiver.")),
        ("memo-unknown-schema.archive", ProfilesApp.Memo(schema: 9, text: "From the future.")),
        ("by-id.archive", Dictionary(uniqueKeysWithValues: people.map { ("\($0.id)", $0) })),
      ]
      for (name, object) in objects {
        let data = try NSKeyedArchiver.archivedData(
          withRootObject: object, requiringSecureCoding: false)
        try data.write(to: archives.appendingPathComponent(name))
      }
      return objects.map { "Fresh/\($0.0)" }
    }
    let paths = try write()
    let authored = try CommandRunner.run(
      ["manifest", "author", "-o", "manifests/Fresh.xml"] + paths, in: directory)
    #expect(authored.status == 0, "\(authored.stderr)")
    let verified = try CommandRunner.run(["verify"], in: directory)
    #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
    #expect(verified.stdout.contains("5 archive entries: 5 passed"))

    _ = try write()
    let updated = try CommandRunner.run(
      ["manifest", "author", "--update", "manifests/Fresh.xml"] + paths, in: directory)
    #expect(updated.status == 0, "\(updated.stderr)")
    let again = try CommandRunner.run(["verify"], in: directory)
    #expect(again.status == 0, "\(again.stdout)\n\(again.stderr)")
  }
}
