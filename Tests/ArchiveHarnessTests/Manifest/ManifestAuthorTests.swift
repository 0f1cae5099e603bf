import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@Suite("Manifest authoring and evaluation")
struct ManifestAuthorTests {
  /// Authors a manifest for the sample archive in a fresh archives folder.
  private func authored(options: ManifestAuthor.Options = ManifestAuthor.Options()) throws -> (
    archives: String, text: String
  ) {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bytes = try CyclicProfileArchive.write(to: archives, name: "ProfilesApp-1.2/alice.archive")
    let result = ManifestAuthor(options: options).author([
      ManifestAuthor.Input(path: "ProfilesApp-1.2/alice.archive", bytes: bytes)
    ])
    #expect(result.diagnostics.isEmpty)
    return (archives, result.text)
  }

  @Test("Author, validate and evaluate: every expectation passes")
  func authorValidateEvaluate() throws {
    let (archives, text) = try authored()
    let result = try ManifestTestSupport.load(text, archivesDirectory: archives)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)\n\(text)")
    let manifest = try #require(result.manifest)
    let entry = try #require(manifest.archives.first)
    // Each entry's own root class and allowed classes: the narrowest set its archive needs.
    #expect(manifest.rootClass == nil && manifest.allowedClasses == nil)
    #expect(entry.rootClass?.name == "ProfilesApp.UserProfile")
    #expect(
      Set(entry.allowedClasses?.map(\.name) ?? [])
        == ["ProfilesApp.UserProfile", "ProfilesApp.Address", "NSMutableArray", "NSDate"])
    #expect(
      Set(manifest.classMappings.map(\.archivedName)).isSuperset(of: ["NSObject", "NSArray"]))
    let findings = ExpectationEngine(manifest: manifest).evaluate(
      entry, archivesDirectory: archives)
    #expect(findings.count == entry.expectations.count)
    #expect(findings.allSatisfy { $0.passed }, "\(findings.filter { !$0.passed })")
    let keys = Set(entry.expectations.map(\.keyPathText))
    #expect(
      keys.isSuperset(of: [
        "name", "age", "tags[1]", "tags.@count", "address.city", "created", "photo", "nickname",
      ]) || keys.contains("tags"))
    #expect(keys.contains("address.city"))
  }

  @Test("Changing one byte of a string fails the right expectation with its key path")
  func oneChangedByteFailsItsExpectation() throws {
    let (archives, text) = try authored()
    let manifest = try #require(
      try ManifestTestSupport.load(text, archivesDirectory: archives).manifest)
    let entry = try #require(manifest.archives.first)
    let path = archives + "/ProfilesApp-1.2/alice.archive"
    var bytes = try #require(FileManager.default.contents(atPath: path).map(Array.init))
    let berlin = Array("Berlin".utf8)
    let start = try #require(
      bytes.indices.first { bytes[$0...].starts(with: berlin) })
    bytes[start + 5] = UInt8(ascii: "m")
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    let findings = ExpectationEngine(manifest: manifest).evaluate(
      entry, archivesDirectory: archives)
    let failed = findings.filter { !$0.passed }
    #expect(failed.count == 1)
    let finding = try #require(failed.first)
    #expect(finding.keyPath == "address.city")
    #expect(finding.expected == .string("Berlin"))
    #expect(finding.actual == .value(.string("Berlim")))
    #expect(finding.location.line > 0)
    #expect(finding.description.contains("failed: ProfilesApp-1.2/alice.archive address.city"))

    let reloaded = try ManifestTestSupport.load(text, archivesDirectory: archives)
    #expect(ManifestTestSupport.lines(reloaded).contains { $0.contains("a fixture changed") })
  }

  @Test("Authoring stops at its expectation cap and says so")
  func authoringIsCapped() throws {
    var options = ManifestAuthor.Options()
    options.maximumExpectationsPerArchive = 3
    let (archives, text) = try authored(options: options)
    #expect(text.contains("authoring stopped after 3 expectations"))
    let result = try ManifestTestSupport.load(text, archivesDirectory: archives)
    #expect(result.diagnostics.isEmpty)
    #expect(result.manifest?.archives.first?.expectations.count == 3)
  }

  @Test("An unreadable archive is listed with the rejection every path must give, and a warning")
  func brokenArchiveIsListedAsRejected() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let junk: [UInt8] = Array("bplist00--".utf8)
    try Data(junk).write(to: URL(fileURLWithPath: archives + "/junk.archive"))
    let result = ManifestAuthor().author([ManifestAuthor.Input(path: "junk.archive", bytes: junk)])
    #expect(result.diagnostics.map(\.severity) == [.warning])
    #expect(result.diagnostics.first?.location.file == "junk.archive")
    #expect(result.addedArchives == ["junk.archive"])
    #expect(result.text.contains("does not read as a keyed archive"))
    #expect(result.text.contains("<legacy outcome=\"rejected\" category=\"truncated\"/>"))
    let loaded = try ManifestTestSupport.load(result.text, archivesDirectory: archives)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)\n\(result.text)")
    #expect(loaded.manifest?.archives.first?.expectations.isEmpty == true)
    #expect(loaded.manifest?.archives.first?.sha256 == SHA256Checksum.hash(junk).hexadecimal)
  }

  @Test("A produced value that is not a date is reported")
  func badProducedDate() {
    var options = ManifestAuthor.Options()
    options.produced = "last \"spring\""
    let result = ManifestAuthor(options: options).author([])
    #expect(result.diagnostics.map(\.severity) == [.error])
    #expect(result.text.contains("produced=\"last &quot;spring&quot;\""))
  }

  @Test("Update adds a new archive and keeps comments and human edits")
  func updateKeepsHumanEdits() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let alice = try CyclicProfileArchive.write(to: archives, name: "alice.archive")
    let bob = try CyclicProfileArchive.write(to: archives, name: "bob.archive", city: "Paris")
    let aliceSHA = SHA256Checksum.hash(alice).hexadecimal
    let existing = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- Hand-written, keep me. -->
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="ProfilesApp" version="1.2" platform="iOS 14.4" produced="2021-03-04"/>
        <classMap>
          <!-- renamed in 2.0 -->
          <map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/>
        </classMap>
        <allowedClasses/>
        <rootClass name="ProfileKit.UserProfile"/>
        <archive path="alice.archive" sha256="\(aliceSHA)">
          <string key="name">Alice</string>   <!-- checked by hand -->
        </archive>
      </manifest>

      """
    let result = ManifestAuthor().update(
      existingText: existing, file: archives + "/manifest.xml",
      with: [
        ManifestAuthor.Input(path: "alice.archive", bytes: alice),
        ManifestAuthor.Input(path: "bob.archive", bytes: bob),
      ])
    #expect(result.addedArchives == ["bob.archive"])
    #expect(result.diagnostics.map(\.severity) == [.note])
    let text = result.text
    for line in existing.split(separator: "\n") where !line.contains("allowedClasses") {
      #expect(text.contains(line), "lost: \(line)")
    }
    #expect(text.contains("<map from=\"ProfilesApp.Address\" to=\"ProfilesApp.Address\"/>"))
    #expect(
      !text.contains("<map from=\"ProfilesApp.UserProfile\" to=\"ProfilesApp.UserProfile\"/>"))
    #expect(text.contains("<class name=\"ProfileKit.UserProfile\"/>"))
    #expect(text.contains("<string key=\"address.city\">Paris</string>"))

    // No model classes given: the identity rows the author wrote count as known targets.
    let loaded = try ManifestTestSupport.load(text, archivesDirectory: archives)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)\n\(text)")
    let manifest = try #require(loaded.manifest)
    #expect(manifest.archives.map(\.path) == ["alice.archive", "bob.archive"])
    #expect(manifest.archives[0].expectations.count == 1)
    let bobEntry = manifest.archives[1]
    #expect(bobEntry.rootClass?.name == "ProfileKit.UserProfile")
    let findings = ExpectationEngine(manifest: manifest).evaluate(
      bobEntry, archivesDirectory: archives)
    #expect(findings.allSatisfy { $0.passed }, "\(findings.filter { !$0.passed })")
  }

  @Test(
    "Update creates the class map and allowed classes it needs, in schema order",
    arguments: [
      "  <classMapFile href=\"maps/map.xml\"/>",
      "  <classMapFile href=\"maps/map.xml\"/>\n  <allowedClasses/>",
      "  <classMapFile href=\"maps/map.xml\"/>\n  <allowedClasses></allowedClasses>",
    ])
  func updateCreatesMissingSections(sections: String) throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bob = try CyclicProfileArchive.write(to: archives, name: "bob.archive")
    try FileManager.default.createDirectory(
      atPath: archives + "/maps", withIntermediateDirectories: true)
    let map = """
      <classMap xmlns="urn:archive-harness:manifest:1">
        <map from="ProfilesApp.Address" to="ProfileKit.Address"/>
      </classMap>
      """
    try Data(map.utf8).write(to: URL(fileURLWithPath: archives + "/maps/map.xml"))
    let existing = ManifestTestSupport.manifest(sections)
    let result = ManifestAuthor().update(
      existingText: existing, file: archives + "/manifest.xml",
      with: [ManifestAuthor.Input(path: "bob.archive", bytes: bob)])
    #expect(!result.text.contains("<map from=\"ProfilesApp.Address\""))
    #expect(result.text.contains("<class name=\"ProfileKit.Address\"/>"))
    let loaded = ManifestLoader.load(
      bytes: Array(result.text.utf8), file: archives + "/manifest.xml", baseDirectory: archives,
      archivesDirectory: archives)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)\n\(result.text)")
    #expect(loaded.manifest?.archives.map(\.path) == ["bob.archive"])
  }

  @Test("Update of a manifest with a namespace prefix writes prefixed elements")
  func updateKeepsPrefix() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bob = try CyclicProfileArchive.write(to: archives, name: "bob.archive")
    let existing = """
      <m:manifest xmlns:m="urn:archive-harness:manifest:1" schemaVersion="1">
      \t<m:producer app="P" version="1" platform="iOS" produced="2021-03-04"/>
      </m:manifest>
      """
    let result = ManifestAuthor().update(
      existingText: existing, file: archives + "/manifest.xml",
      with: [ManifestAuthor.Input(path: "bob.archive", bytes: bob)])
    #expect(result.text.contains("\t<m:archive path=\"bob.archive\""))
    #expect(result.text.contains("\t\t<m:string key=\"name\">Alice</m:string>"))
    let loaded = try ManifestTestSupport.load(result.text, archivesDirectory: archives)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)\n\(result.text)")
    #expect(loaded.manifest?.archives.first?.rootClass?.name == "ProfilesApp.UserProfile")
  }

  @Test("Update refuses a manifest that does not follow the schema")
  func updateRefusesInvalidManifest() {
    let result = ManifestAuthor().update(
      existingText: "<manifest/>", file: "manifest.xml", with: [])
    #expect(result.text.isEmpty)
    #expect(result.diagnostics.containsErrors)
  }
}

@Suite("Manifest authoring over the shipped legacy archives")
struct LegacyArchivesAuthoringTests {
  static let archivesDirectory = ManifestTestSupport.packageRoot + "/LegacyArchives"

  @Test("A path typed by the user becomes a path relative to the archives folder")
  func relativePathOfTypedPath() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    try CyclicProfileArchive.write(to: archives, name: "v1/alice.archive")
    #expect(
      ManifestAuthor.relativePath(
        of: archives + "/v1/../v1/alice.archive", archivesDirectory: archives)
        == "v1/alice.archive")
    #expect(ManifestAuthor.relativePath(of: "/etc/hostname", archivesDirectory: archives) == nil)
    #expect(ManifestAuthor.relativePath(of: archives + "/none", archivesDirectory: archives) == nil)
  }

  @Test(
    "Authoring every readable shipped archive gives a manifest that validates and passes",
    .enabled(if: FileManager.default.fileExists(atPath: archivesDirectory)))
  func shippedArchivesAuthorAndPass() throws {
    let paths = try FileManager.default.subpathsOfDirectory(atPath: Self.archivesDirectory)
      .filter { $0.hasSuffix(".archive") }.sorted()
    try #require(!paths.isEmpty)
    let (inputs, problems) = ManifestAuthor.inputs(
      paths: paths, archivesDirectory: Self.archivesDirectory)
    #expect(problems.isEmpty)
    let authored = ManifestAuthor().author(inputs)
    // Deliberately broken fixtures (truncated) are listed bare, each with a warning.
    #expect(authored.addedArchives.count == paths.count)
    #expect(authored.diagnostics.allSatisfy { $0.severity == .warning })
    let loaded = ManifestLoader.load(
      bytes: Array(authored.text.utf8), file: "legacy.manifest.xml",
      baseDirectory: Self.archivesDirectory, archivesDirectory: Self.archivesDirectory)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.prefix(5))")
    let manifest = try #require(loaded.manifest)
    let engine = ExpectationEngine(manifest: manifest)
    for entry in manifest.archives {
      let failed = engine.evaluate(entry, archivesDirectory: Self.archivesDirectory).filter {
        !$0.passed
      }
      #expect(failed.isEmpty, "\(entry.path): \(failed.prefix(3))")
    }
  }
}

/// Sets have no order: authoring states their elements as a whole, never by index.
@Suite("Authoring sets without order")
struct AuthoringSetTests {
  /// An archive whose root holds `tags`, an NSSet of three strings, and `codes`, a dictionary
  /// keyed by numbers.
  static func archive() -> [UInt8] {
    var builder = KeyedArchiveBuilder()
    let tags = builder.object(
      "NSSet", [("NS.objects", .array(["moss", "birds", "rain"].map { builder.string($0) }))])
    let codes = builder.dictionary(
      keys: [.integer(1), .integer(2)],
      values: [
        builder.string("one"), builder.string("two"),
      ])
    builder.setRoot(builder.object("FieldNotes.Notebook", [("tags", tags), ("codes", codes)]))
    return builder.bytes()
  }

  @Test("A set of strings is one oneOf at [*] with its count, and no element is indexed")
  func setOfStringsIsOrderFree() throws {
    let result = ManifestAuthor().author([
      ManifestAuthor.Input(path: "notebook.archive", bytes: Self.archive())
    ])
    #expect(result.text.contains("<count key=\"tags\" equals=\"3\"/>"), "\(result.text)")
    #expect(
      result.text.contains(
        "<oneOf key=\"tags[*]\"><value>birds</value><value>moss</value><value>rain</value></oneOf>"
      ), "\(result.text)")
    #expect(!result.text.contains("tags[0]"), "\(result.text)")
    // What was authored holds on the archive it came from, whatever order the set is in.
    let archives = try ManifestTestSupport.temporaryDirectory()
    try Data(Self.archive()).write(to: URL(fileURLWithPath: archives + "/notebook.archive"))
    let loaded = try ManifestTestSupport.load(result.text, archivesDirectory: archives)
    let manifest = try #require(loaded.manifest, "\(loaded.diagnostics)")
    let entry = try #require(manifest.archives.first)
    let findings = ExpectationEngine(manifest: manifest).evaluate(
      entry, archivesDirectory: archives)
    #expect(findings.allSatisfy { $0.passed }, "\(findings.filter { !$0.passed })")
  }

  @Test("A dictionary keyed by numbers states its count and indexes none of its values")
  func dictionaryWithNumberKeysIsNotIndexed() throws {
    let result = ManifestAuthor().author([
      ManifestAuthor.Input(path: "notebook.archive", bytes: Self.archive())
    ])
    #expect(result.text.contains("<count key=\"codes\" equals=\"2\"/>"), "\(result.text)")
    #expect(!result.text.contains("codes[0]") && !result.text.contains("codes["), "\(result.text)")
  }
}
