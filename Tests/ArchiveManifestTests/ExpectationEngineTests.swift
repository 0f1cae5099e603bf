import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

@Suite("Expectation engine")
struct ExpectationEngineTests {
  /// One expectation written in manifest XML, and whether it holds for the sample archive.
  struct Case: Sendable, CustomTestStringConvertible {
    var element: String
    var passes: Bool
    var actual: String? = nil
    var testDescription: String { "\(passes ? "holds" : "fails"): \(element)" }
  }

  static let cases: [Case] = [
    Case(element: #"<string key="name">Alice</string>"#, passes: true),
    Case(element: #"<string key="name">Bob</string>"#, passes: false, actual: #"string "Alice""#),
    Case(element: #"<string key="age">42</string>"#, passes: false, actual: "integer 42"),
    Case(element: #"<integer key="age">42</integer>"#, passes: true),
    Case(element: #"<integer key="age">+042</integer>"#, passes: true),
    Case(element: #"<integer key="age">41</integer>"#, passes: false, actual: "integer 42"),
    Case(element: #"<real key="score">3.5</real>"#, passes: true),
    Case(element: #"<real key="score" tolerance="0.1">3.45</real>"#, passes: true),
    Case(element: #"<real key="score">3.45</real>"#, passes: false, actual: "real 3.5"),
    Case(element: #"<real key="age">42</real>"#, passes: true),
    Case(element: #"<bool key="active">true</bool>"#, passes: true),
    Case(element: #"<bool key="active">0</bool>"#, passes: false, actual: "bool true"),
    Case(element: #"<date key="created">2021-01-01T00:00:00.5Z</date>"#, passes: true),
    Case(element: #"<date key="created">2021-01-01T01:00:00.5+01:00</date>"#, passes: true),
    Case(
      element: #"<date key="created">2021-01-01T00:00:01Z</date>"#, passes: false,
      actual: "date 2021-01-01T00:00:00.500Z"),
    Case(element: #"<data key="photo">AQID</data>"#, passes: true),
    Case(element: #"<data key="photo">AQIE</data>"#, passes: false, actual: "data of 3 bytes"),
    Case(
      element:
        #"<dataDigest key="photo" sha256="039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81" length="3"/>"#,
      passes: true),
    Case(
      element:
        #"<dataDigest key="photo" sha256="039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81" length="4"/>"#,
      passes: false),
    Case(element: #"<null key="nickname"/>"#, passes: true),
    Case(element: #"<null key="name"/>"#, passes: false, actual: #"string "Alice""#),
    // The current name, matched through the class map on the archive's graph.
    Case(element: #"<class name="ProfileKit.UserProfile"/>"#, passes: true),
    Case(element: #"<class name="ProfileKit.UserProfile"/>"#, passes: true),
    Case(
      element: #"<class key="address" name="ProfileKit.UserProfile"/>"#, passes: false,
      actual: "class 'ProfilesApp.Address'"),
    Case(element: #"<class key="tags" name="NSMutableArray"/>"#, passes: true),
    Case(element: #"<present key="address.owner.address.city"/>"#, passes: true),
    Case(element: #"<present key="address.street"/>"#, passes: false, actual: "absent"),
    Case(element: #"<absent key="address.street"/>"#, passes: true),
    Case(element: #"<absent key="name"/>"#, passes: false, actual: #"string "Alice""#),
    Case(element: #"<maxLength key="name" utf16="5"/>"#, passes: true),
    Case(element: #"<maxLength key="name" utf16="4"/>"#, passes: false, actual: "5 UTF-16 units"),
    Case(element: #"<range key="age" min="18" max="120"/>"#, passes: true),
    Case(element: #"<range key="score" max="3"/>"#, passes: false, actual: "real 3.5"),
    Case(element: #"<range key="name" min="0"/>"#, passes: false, actual: #"string "Alice""#),
    Case(element: #"<count key="tags" equals="3"/>"#, passes: true),
    Case(element: #"<count key="tags" min="4"/>"#, passes: false, actual: "3 elements"),
    Case(element: #"<count key="name" max="5"/>"#, passes: true),
    Case(element: #"<integer key="tags.@count">3</integer>"#, passes: true),
    Case(
      element: #"<oneOf key="tags[0]"><value>swift</value><value>kotlin</value></oneOf>"#,
      passes: true),
    Case(element: #"<oneOf key="age"><value>42.0</value></oneOf>"#, passes: true),
    Case(element: #"<oneOf key="name"><value>Bob</value></oneOf>"#, passes: false),
    Case(element: #"<matches key="address.city" pattern="[A-Z][a-z]+"/>"#, passes: true),
    Case(element: #"<matches key="address.city" pattern="[a-z]+"/>"#, passes: false),
    Case(element: #"<matches key="tags[*]" pattern="[a-z]+"/>"#, passes: true),
    Case(
      element: #"<string key="tags[*]">swift</string>"#, passes: false,
      actual: #"string "archives" (1 of 3 elements fail)"#),
    Case(element: #"<string key="me.me.me.address.owner.name">Alice</string>"#, passes: true),
    Case(element: #"<string key="$top.root.name">Alice</string>"#, passes: true),
    Case(element: #"<string key="tags[7]">swift</string>"#, passes: false, actual: "absent"),
  ]

  /// The sample archive as the decode paths would describe the decoded profile.
  static let decodedSample: ExpectationTree = {
    let profileClass = "ProfilesApp.UserProfile"
    let back = ExpectationTree.leaf(.object(className: profileClass, index: 0, count: nil))
    return .object(
      className: profileClass,
      fields: [
        .init("name", .leaf(.string("Alice"))), .init("age", .leaf(.integer(42))),
        .init(
          "tags",
          .collection(
            className: "NSMutableArray",
            elements: [
              .leaf(.string("swift")), .leaf(.string("archives")), .leaf(.string("swift")),
            ])),
        .init(
          "address",
          .object(
            className: "ProfilesApp.Address",
            fields: [.init("city", .leaf(.string("Berlin"))), .init("owner", back)])),
        .init("score", .leaf(.real(3.5))), .init("active", .leaf(.bool(true))),
        .init("created", .leaf(.date(631_152_000.5))), .init("photo", .leaf(.data([1, 2, 3]))),
        .init("me", back), .init("nickname", .leaf(.null)),
      ])
  }()

  @Test(
    "A decoded object gives the same findings as the archive's graph",
    arguments: cases.filter { !$0.element.contains("me.me") && !$0.element.contains("owner.") })
  func decodedObjectAgreesWithGraph(testCase: Case) throws {
    let (manifest, entry, _) = try load(testCase.element)
    let engine = ExpectationEngine(manifest: manifest)
    let fromTree = engine.evaluate(entry, in: Self.decodedSample)
    let fromGraph = engine.evaluate(entry, in: CyclicProfileArchive.archive())
    #expect(fromTree.map(\.passed) == [testCase.passes], "\(fromTree)")
    #expect(fromTree.map(\.actual) == fromGraph.map(\.actual))
  }

  @Test("A back-reference in a decoded object is a leaf, not a loop")
  func decodedBackReferenceIsALeaf() throws {
    let (manifest, entry, _) = try load(#"<class key="me" name="ProfileKit.UserProfile"/>"#)
    let findings = ExpectationEngine(manifest: manifest).evaluate(entry, in: Self.decodedSample)
    #expect(findings.map(\.passed) == [true])
    let (_, deep, _) = try load(#"<string key="me.name">Alice</string>"#)
    #expect(ExpectationEngine().evaluate(deep, in: Self.decodedSample).map(\.actual) == [.absent])
  }

  /// Loads a manifest with one expectation over the sample archive written to a fresh folder.
  private func load(_ element: String) throws -> (Manifest, ArchiveEntry, String) {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bytes = try CyclicProfileArchive.write(to: archives)
    let body = """
        <classMap><map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/></classMap>
        <archive path="alice.archive" sha256="\(SHA256Checksum.hash(bytes).hexadecimal)">
          \(element)
        </archive>
      """
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(body), archivesDirectory: archives)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let manifest = try #require(result.manifest)
    return (manifest, try #require(manifest.archives.first), archives)
  }

  /// Loads a manifest with one expectation over the sample archive and evaluates it.
  private func evaluate(_ element: String) throws -> ExpectationFinding {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bytes = try CyclicProfileArchive.write(to: archives)
    let body = """
        <classMap><map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/></classMap>
        <archive path="alice.archive" sha256="\(SHA256Checksum.hash(bytes).hexadecimal)">
          \(element)
        </archive>
      """
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(body), archivesDirectory: archives)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let manifest = try #require(result.manifest)
    let entry = try #require(manifest.archives.first)
    let findings = ExpectationEngine(manifest: manifest).evaluate(
      entry, archivesDirectory: archives)
    try #require(findings.count == 1)
    let finding = try #require(findings.first)
    #expect(finding.location.line == 6)
    #expect(finding.location.column == 5)
    return finding
  }

  @Test("Each kind of expectation holds or fails as it should", arguments: cases)
  func expectationKinds(testCase: Case) throws {
    let finding = try evaluate(testCase.element)
    #expect(finding.passed == testCase.passes, "\(finding)")
    if let actual = testCase.actual {
      #expect(finding.actual.description == actual)
    }
  }

  @Test("A wildcard over an empty collection holds, over a missing one fails")
  func wildcardOverEmptyCollection() throws {
    let archive = KeyedArchive(
      top: ["root": .uid(1)],
      objects: [
        .null,
        .instance(
          ArchiveInstance(
            classIndex: 2, archiveClass: CyclicProfileArchive.arrayClass,
            fields: ["NS.objects": .array([])])),
        .classDescription(CyclicProfileArchive.arrayClass),
      ])
    let engine = ExpectationEngine()
    let empty = FieldExpectation(
      keyPathText: "[*]", keyPath: try ArchiveKeyPath("[*]"), kind: .string("x"),
      elementName: "string",
      location: Place(file: "m.xml", line: 1, column: 1))
    #expect(engine.evaluate(empty, in: archive).passed)
    var missing = empty
    missing.keyPath = try ArchiveKeyPath("items[*]")
    #expect(!engine.evaluate(missing, in: archive).passed)
  }

  @Test("A wildcard fan-out past the limit is a failed finding, not an error")
  func wildcardLimitIsAFinding() throws {
    var limits = ArchiveLimits()
    limits.maximumKeyPathMatches = 2
    let engine = ExpectationEngine(limits: limits)
    let expectation = FieldExpectation(
      keyPathText: "tags[*]", keyPath: try ArchiveKeyPath("tags[*]"), kind: .present,
      elementName: "present",
      location: Place(file: "m.xml", line: 1, column: 1))
    let finding = engine.evaluate(expectation, in: CyclicProfileArchive.archive())
    #expect(!finding.passed)
    #expect(finding.actual.description.contains("more than 2"))
  }

  @Test("A self-referencing graph does not loop")
  func cyclicGraphTerminates() throws {
    let path = try ArchiveKeyPath(String(repeating: "me.", count: 2_000) + "address.city")
    let expectation = FieldExpectation(
      keyPathText: path.description, keyPath: path, kind: .string("Berlin"), elementName: "string",
      location: Place(file: "m.xml", line: 1, column: 1))
    var finding: ExpectationFinding?
    let elapsed = MonotonicInstant.measure {
      finding = ExpectationEngine().evaluate(expectation, in: CyclicProfileArchive.archive())
    }
    #expect(finding?.passed == true)
    #expect(elapsed < .seconds(2))
  }

  @Test("An archive that does not read fails every expectation with the reason")
  func unreadableArchiveFailsAll() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    try Data([0x62, 0x70]).write(to: URL(fileURLWithPath: archives + "/bad.archive"))
    let entry = ArchiveEntry(
      path: "bad.archive", sha256: "", maxSize: nil, topKey: "root", allowedClasses: nil,
      rootClass: nil, outcomes: [],
      expectations: [
        FieldExpectation(
          keyPathText: "name", keyPath: try ArchiveKeyPath("name"), kind: .present,
          elementName: "present",
          location: Place(file: "m.xml", line: 3, column: 5))
      ],
      location: Place(file: "m.xml", line: 2, column: 3),
      pathLocation: Place(file: "m.xml", line: 2, column: 12),
      sha256Location: Place(file: "m.xml", line: 2, column: 30))
    let findings = ExpectationEngine().evaluate(entry, archivesDirectory: archives)
    #expect(findings.count == 1)
    #expect(findings.first?.passed == false)
    #expect(findings.first?.actual.description.hasPrefix("an archive that does not read") == true)
  }

  @Test("An entry path outside the archives folder is never read")
  func escapingPathIsNotRead() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let entry = ArchiveEntry(
      path: "../../etc/hostname", sha256: "",
      expectations: [
        FieldExpectation(
          keyPathText: "name", keyPath: try ArchiveKeyPath("name"), kind: .present,
          elementName: "present", location: Place(file: "m.xml", line: 3, column: 5))
      ], location: Place(file: "m.xml", line: 2, column: 3))
    let findings = ExpectationEngine().evaluate(entry, archivesDirectory: archives)
    #expect(findings.map(\.actual) == [.archiveOutsideFolder])
  }

  @Test("An archive over its maxSize fails without being read")
  func oversizedArchiveFails() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bytes = try CyclicProfileArchive.write(to: archives)
    let body = """
        <archive path="alice.archive" sha256="\(SHA256Checksum.hash(bytes).hexadecimal)" maxSize="10">
          <present key="name"/>
        </archive>
      """
    let manifest = try #require(
      try ManifestTestSupport.load(ManifestTestSupport.manifest(body), archivesDirectory: archives)
        .manifest)
    let entry = try #require(manifest.archives.first)
    let findings = ExpectationEngine(manifest: manifest).evaluate(
      entry, archivesDirectory: archives)
    #expect(findings.first?.actual == .oversizedArchive(size: bytes.count, maxSize: 10))
  }
}
