import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@Suite("Manifest semantic checks")
struct ManifestSemanticCheckTests {
  /// A temporary archives folder holding `a.archive` with known contents.
  struct Fixture {
    var archives: String
    var sha: String

    init() throws {
      archives = try ManifestTestSupport.temporaryDirectory()
      let bytes = Array("not really an archive".utf8)
      try Data(bytes).write(to: URL(fileURLWithPath: archives + "/a.archive"))
      sha = SHA256Checksum.hash(bytes).hexadecimal
    }

    func load(_ body: String, registeredClasses: Set<String> = []) throws -> [String] {
      let result = try ManifestTestSupport.load(
        ManifestTestSupport.manifest(body), archivesDirectory: archives,
        registeredClasses: registeredClasses)
      #expect(result.manifest != nil)
      #expect(result.diagnostics.allSatisfy { $0.category == .semantic })
      return ManifestTestSupport.lines(result)
    }
  }

  @Test("A class expectation naming an archived class the map renames is an error at its line")
  func classExpectationUnderArchivedName() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <classMap><map from="ProfilesApp.Memo" to="ProfileKit.Memo"/></classMap>
        <archive path="a.archive" sha256="\(fixture.sha)">
          <class name="ProfilesApp.Memo"/>
        </archive>
      """)
    #expect(
      lines == [
        "6:5: class expectation 'ProfilesApp.Memo' at '' names an archived class that the class "
          + "map renames to 'ProfileKit.Memo'; the decoded object is a 'ProfileKit.Memo', so name "
          + "that"
      ])
  }

  @Test("A class expectation under the current name of a renamed class is no error")
  func classExpectationUnderCurrentName() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <classMap><map from="ProfilesApp.Memo" to="ProfileKit.Memo"/></classMap>
        <archive path="a.archive" sha256="\(fixture.sha)">
          <class name="ProfileKit.Memo"/>
        </archive>
      """)
    #expect(lines.isEmpty)
  }

  @Test("A present archive with the right checksum passes")
  func validArchivePasses() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(#"  <archive path="a.archive" sha256="\#(fixture.sha)"/>"#)
    #expect(lines.isEmpty)
  }

  @Test("A missing archive file is reported at its path attribute")
  func missingArchive() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(#"  <archive path="gone.archive" sha256="\#(fixture.sha)"/>"#)
    #expect(
      lines == [
        "4:12: archive 'gone.archive' does not exist in '\(fixture.archives)' (tried "
          + "'\(fixture.archives)/gone.archive'; archive paths are relative to the archives "
          + "folder, which --archives sets)"
      ])
  }

  @Test("A changed fixture is reported at its sha256 attribute")
  func checksumMismatch() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      #"  <archive path="a.archive" sha256="\#(ManifestTestSupport.zeroSHA)"/>"#)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("4:29: archive 'a.archive' has sha256 \(fixture.sha)") == true)
  }

  @Test("A checksum in upper case matches")
  func upperCaseChecksum() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      #"  <archive path="a.archive" sha256="\#(fixture.sha.uppercased())"/>"#)
    #expect(lines.isEmpty)
  }

  @Test("A path with '..' is refused")
  func parentPathRefused() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(#"  <archive path="../etc/passwd" sha256="\#(fixture.sha)"/>"#)
    #expect(
      lines == [
        "4:12: archive path '../etc/passwd' uses '..'; paths must stay inside the archives folder"
      ])
  }

  @Test("An absolute path is refused")
  func absolutePathRefused() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(#"  <archive path="/etc/passwd" sha256="\#(fixture.sha)"/>"#)
    #expect(
      lines == [
        "4:12: archive path '/etc/passwd' is absolute; write it relative to the archives folder"
      ])
  }

  @Test("A symbolic link that leaves the archives folder is refused")
  func symlinkOutsideRefused() throws {
    let fixture = try Fixture()
    let outside = try ManifestTestSupport.temporaryDirectory() + "/secret.archive"
    try Data("secret".utf8).write(to: URL(fileURLWithPath: outside))
    try FileManager.default.createSymbolicLink(
      atPath: fixture.archives + "/link.archive", withDestinationPath: outside)
    let lines = try fixture.load(#"  <archive path="link.archive" sha256="\#(fixture.sha)"/>"#)
    #expect(
      lines == [
        "4:12: archive 'link.archive' resolves outside the archives folder (through a symbolic link)"
      ])
  }

  @Test("A duplicate entry is reported with the first one's place")
  func duplicateEntry() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="a.archive" sha256="\(fixture.sha)"/>
        <archive path="./a.archive" sha256="\(fixture.sha)"/>
      """)
    #expect(lines == ["5:12: archive './a.archive' is already listed at manifest.xml:4:3"])
  }

  @Test("A malformed key path is reported at its key attribute")
  func malformedKeyPath() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="a.archive" sha256="\(fixture.sha)">
          <string key="address..city">Berlin</string>
          <integer key="tags[x]">1</integer>
        </archive>
      """)
    #expect(lines.count == 2)
    #expect(
      lines.first?.hasPrefix("5:13: malformed key path 'address..city': at character 9") == true)
    #expect(lines.last?.hasPrefix("6:14: malformed key path 'tags[x]'") == true)
  }

  @Test("A rejected outcome without a category is an error")
  func rejectedWithoutCategory() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="a.archive" sha256="\(fixture.sha)">
          <secure outcome="rejected"/>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix("5:5: a 'secure' outcome of 'rejected' needs a category") == true)
  }

  @Test("A decoding outcome with a category is an error")
  func decodesWithCategory() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="a.archive" sha256="\(fixture.sha)">
          <legacy outcome="decodes" category="malformed"/>
        </archive>
      """)
    #expect(lines == ["5:31: a 'legacy' outcome of 'decodes' takes no category"])
  }

  @Test("An allowed class that is neither mapped nor registered is an error")
  func unknownAllowedClass() throws {
    let fixture = try Fixture()
    let body = """
        <classMap>
          <map from="ProfilesApp.Address" to="ProfileKit.Address"/>
        </classMap>
        <allowedClasses>
          <class name="ProfileKit.UserProfile"/>
          <class name="ProfileKit.Address"/>
          <class name="NSArray"/>
          <class name="Ghost"/>
        </allowedClasses>
        <rootClass name="Phantom"/>
      """
    let lines = try fixture.load(
      body, registeredClasses: ["ProfileKit.UserProfile", "ProfileKit.Address"])
    #expect(
      lines == [
        "11:5: allowed class 'Ghost' is neither a registered class nor the target of a class mapping",
        "13:3: root class 'Phantom' is neither a registered class nor the target of a class mapping",
      ])
  }

  @Test("Migration results must name registered or mapped classes")
  func unknownMigrationClasses() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <migration>
          <renamedClass from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/>
          <renamedClass from="ProfilesApp.Memo" to="ProfileKit.Note"/>
          <addedField class="ProfileKit.Ghost" key="nickname" type="string" default=""/>
        </migration>
      """, registeredClasses: ["ProfileKit.UserProfile"])
    #expect(
      lines == [
        "6:5: renamed class 'ProfileKit.Note' is neither a registered class nor the target of a class mapping",
        "7:5: class with an added field 'ProfileKit.Ghost' is neither a registered class nor the target of a class mapping",
      ])
  }

  @Test("Conflicting class mappings are an error")
  func conflictingMappings() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <classMap>
          <map from="Old" to="NewA"/>
          <map from="Old" to="NewB"/>
        </classMap>
      """)
    #expect(
      lines == ["6:5: class 'Old' is mapped to 'NewB' here and to 'NewA' at manifest.xml:5:5"])
  }

  @Test("A regular expression that does not compile is an error")
  func badRegularExpression() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="a.archive" sha256="\(fixture.sha)">
          <matches key="email" pattern="([a-z]+"/>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix("5:26: the regular expression '([a-z]+' does not compile") == true)
  }

  @Test("A range without bounds is an error")
  func rangeWithoutBounds() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="a.archive" sha256="\(fixture.sha)">
          <range key="age"/>
        </archive>
      """)
    #expect(lines == ["5:5: a range needs min, max or both"])
  }

  @Test("A range with min above max is an error")
  func rangeOutOfOrder() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="a.archive" sha256="\(fixture.sha)">
          <range key="age" min="10" max="1"/>
        </archive>
      """)
    #expect(lines == ["5:22: min 10.0 is greater than max 1.0"])
  }

  @Test("A count with both equals and bounds is an error")
  func countWithEqualsAndBounds() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="a.archive" sha256="\(fixture.sha)">
          <count key="tags" equals="3" max="4"/>
        </archive>
      """)
    #expect(lines == ["5:23: a count takes equals or min/max, not both"])
  }

  @Test("An added field whose default does not parse is an error")
  func badAddedFieldDefault() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <migration>
          <addedField class="ProfileKit.UserProfile" key="age" type="integer" default="old"/>
        </migration>
      """, registeredClasses: ["ProfileKit.UserProfile"])
    #expect(lines == ["5:73: default 'old' is not a valid integer"])
  }

  @Test("A missing class map file is an error at its href")
  func missingClassMapFile() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(#"  <classMapFile href="maps/none.xml"/>"#)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("4:17: class map file 'maps/none.xml' does not exist") == true)
  }

  @Test("A class map file shared by manifests is loaded with its own locations")
  func classMapFileIsLoaded() throws {
    let fixture = try Fixture()
    try FileManager.default.createDirectory(
      atPath: fixture.archives + "/maps", withIntermediateDirectories: true)
    let mapText = """
      <classMap xmlns="urn:archive-harness:manifest:1">
        <map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/>
      </classMap>
      """
    try Data(mapText.utf8).write(to: URL(fileURLWithPath: fixture.archives + "/maps/profiles.xml"))
    let body = """
        <classMapFile href="maps/profiles.xml"/>
        <allowedClasses><class name="ProfileKit.UserProfile"/></allowedClasses>
      """
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(body), archivesDirectory: fixture.archives)
    #expect(result.diagnostics.isEmpty)
    let mapping = try #require(result.manifest?.classMappings.first)
    #expect(mapping.currentName == "ProfileKit.UserProfile")
    #expect(mapping.location.file?.hasSuffix("maps/profiles.xml") == true)
    #expect(mapping.location.line == 2)
    #expect(
      result.manifest?.currentClassName(forArchivedName: "ProfilesApp.UserProfile")
        == "ProfileKit.UserProfile")
  }

  @Test("An invalid class map file reports errors in that file")
  func invalidClassMapFile() throws {
    let fixture = try Fixture()
    let mapText = """
      <classMap xmlns="urn:archive-harness:manifest:1">
        <map from="A"/>
      </classMap>
      """
    try Data(mapText.utf8).write(to: URL(fileURLWithPath: fixture.archives + "/map.xml"))
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(#"  <classMapFile href="map.xml"/>"#),
      archivesDirectory: fixture.archives)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.location.file?.hasSuffix("/map.xml") == true)
    #expect(diagnostic.location.line == 2)
    #expect(diagnostic.location.column == 3)
    #expect(diagnostic.message.contains("'to' is required"))
  }

  @Test("Every semantic error is reported, not only the first")
  func everySemanticErrorIsReported() throws {
    let fixture = try Fixture()
    let lines = try fixture.load(
      """
        <archive path="/abs" sha256="\(fixture.sha)"/>
        <archive path="missing" sha256="\(fixture.sha)">
          <string key="a..b">x</string>
        </archive>
      """)
    #expect(lines.map { $0.prefix(5) } == ["4:12:", "5:12:", "6:13:"])
  }
}

@Suite("Manifest loading from files")
struct ManifestFileLoadingTests {
  @Test("Loading from a path names that path in every diagnostic")
  func diagnosticsNameThePath() throws {
    let folder = try ManifestTestSupport.temporaryDirectory()
    let path = folder + "/v1.2.xml"
    let text = ManifestTestSupport.manifest(
      #"  <archive path="a.archive" sha256="\#(ManifestTestSupport.zeroSHA)"/>"#)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let result = ManifestLoader.load(
      path: path, archivesDirectory: folder)
    #expect(
      result.diagnostics.map(\.description) == [
        "\(path):4:12: error: [semantic] archive 'a.archive' does not exist in '\(folder)' "
          + "(tried '\(folder)/a.archive'; archive paths are relative to the archives folder, "
          + "which --archives sets)"
      ])
    #expect(!result.isValid)
  }

  @Test("A missing manifest file is an io diagnostic")
  func missingManifestFile() {
    let result = ManifestLoader.load(
      path: "/nonexistent/manifest.xml", archivesDirectory: ".")
    #expect(result.diagnostics.map(\.category) == [.io])
    #expect(result.manifest == nil)
  }

  @Test("Manifests load concurrently with the same results")
  func concurrentLoadsAgree() async throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bytes = try CyclicProfileArchive.write(to: archives)
    let text = ManifestTestSupport.manifest(
      """
        <archive path="alice.archive" sha256="\(SHA256Checksum.hash(bytes).hexadecimal)">
          <string key="name">Alice</string>
          <integer key="age">oops</integer>
        </archive>
      """)
    let results = await withTaskGroup(of: [String].self) { group in
      for _ in 0..<16 {
        group.addTask {
          ManifestTestSupport.lines(
            ManifestLoader.load(
              bytes: Array(text.utf8), file: "manifest.xml", baseDirectory: archives,
              archivesDirectory: archives))
        }
      }
      var all: [[String]] = []
      for await lines in group { all.append(lines) }
      return all
    }
    #expect(results.count == 16)
    #expect(Set(results).count == 1)
    #expect(results.first?.first?.hasPrefix("6:5: Element 'integer': 'oops'") == true)
  }
}
