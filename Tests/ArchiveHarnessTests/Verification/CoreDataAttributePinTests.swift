import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// A manifest's `<coreDataAttribute>` pin, checked by `verify` as one case, on CoreDataPlus's
/// real stores and models (`Tests/Fixtures/CoreData`) and on a copy of one whose declared
/// `NSSecureUnarchiveFromData` drops row 3.
@Suite("Core Data attribute pins in verify")
struct CoreDataAttributePinTests {
  private typealias Fixtures = CoreDataPreflightFixtures

  /// The real fixtures as an archives folder: pins name `CoreDataPlus/…`.
  static let archives = Corpus.packageRoot.appendingPathComponent("Tests/Fixtures/CoreData").path

  /// A file's SHA-256, in hexadecimal.
  static func sha(_ path: String) throws -> String {
    SHA256Checksum.hash(try Data(contentsOf: URL(fileURLWithPath: path))).hexadecimal
  }

  /// A pin of the real SampleModel2 store's `Book.cover`, with its custom transformer's list.
  static func coverPin(rows: Int = 52) throws -> String {
    let sha = try sha(Fixtures.path("SampleModel2_V1.sqlite"))
    return """
        <coreDataAttribute store="CoreDataPlus/SampleModel2_V1.sqlite" storeSHA256="\(sha)" model="CoreDataPlus/SampleModel2-V1-transcribed.xcdatamodel" entity="Book" attribute="cover" transformer="CoverTransformer" customClassName="Cover" rows="\(rows)">
          <allowedClass name="CoreDataPlus_Tests.Cover"/>
        </coreDataAttribute>
      """
  }

  /// A pin of `Car.color` in the real SampleModel store, against the real model.
  static func colorPin(entity: String = "Car", attribute: String = "color") throws -> String {
    let sha = try sha(Fixtures.path("SampleModel_V1.sqlite"))
    return """
        <coreDataAttribute store="CoreDataPlus/SampleModel_V1.sqlite" storeSHA256="\(sha)" model="CoreDataPlus/SampleModel.xcdatamodeld" entity="\(entity)" attribute="\(attribute)" transformer="NSSecureUnarchiveFromData" rows="125"/>
      """
  }

  /// The store that drops row 3 and the secure-derived model, in a new archives folder.
  static func droppingFolder() throws -> String {
    let (folder, _) = try Fixtures.makeDroppingStore()
    try FileManager.default.copyItem(
      atPath: Fixtures.path("SampleModel-secure-derived.xcdatamodel"),
      toPath: folder + "/Secure.xcdatamodel")
    return folder
  }

  /// A pin of `Car.color` in the dropping store, with `lostRows` as its children.
  static func droppingPin(in folder: String, lostRows: String = "") throws -> String {
    let sha = try sha(folder + "/SampleModel_V1.sqlite")
    return """
        <coreDataAttribute store="SampleModel_V1.sqlite" storeSHA256="\(sha)" model="Secure.xcdatamodel" entity="Car" attribute="color" transformer="NSSecureUnarchiveFromData" rows="125">
      \(lostRows)
        </coreDataAttribute>
      """
  }

  /// Loads a manifest of `body` (from line 4) and verifies each pin as a case.
  private func verify(
    _ body: String, archives: String = Self.archives,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [VerificationCase] {
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(body), archivesDirectory: archives)
    #expect(
      !result.diagnostics.containsErrors, "\(ManifestTestSupport.lines(result))",
      sourceLocation: sourceLocation)
    let manifest = try #require(result.manifest, sourceLocation: sourceLocation)
    let verifier = Verifier(
      registry: .foundation, runner: InProcessPathRunner(registry: .foundation))
    return Verifier.storeChecks(of: manifest).map {
      verifier.verify($0, of: manifest, archivesDirectory: archives)
    }
  }

  /// The findings as `line:col: severity: message` lines.
  private func lines(_ item: VerificationCase) -> [String] {
    item.storeFindings.map {
      "\($0.place.line):\($0.place.column): \($0.severity): \($0.message)"
    }
  }

  @Test("Pins that match the real store and model pass, one case each, with no findings")
  func matchingPinPasses() throws {
    let sha = try Self.sha(Fixtures.path("SampleModel2_V1.sqlite"))
    let cases = try verify(
      try Self.coverPin() + """

          <coreDataAttribute store="CoreDataPlus/SampleModel2_V1.sqlite" storeSHA256="\(sha)" model="CoreDataPlus/SampleModel2-V1-transcribed.xcdatamodel" entity="Page" attribute="content" transformer="ContentTransformer" rows="4970">
            <allowedClass name="Content"/>
          </coreDataAttribute>
        """)
    #expect(cases.count == 2)
    for item in cases {
      #expect(item.status == .passed, "\(lines(item))")
      #expect(item.storeFindings.isEmpty)
      #expect(item.paths.isEmpty)
    }
    #expect(cases.first?.archive == "CoreDataPlus/SampleModel2_V1.sqlite#Book.cover")
    #expect(cases.first?.location.line == 4)
  }

  @Test("The model's transformer differs from the pin: an error at the pin's transformer")
  func transformerChanged() throws {
    let item = try #require(try verify(try Self.colorPin()).first)
    #expect(item.status == .failed)
    let finding = try #require(item.storeFindings.first)
    #expect(finding.check == .coreDataAttribute)
    #expect(finding.severity == .error)
    #expect(finding.place.file == "manifest.xml")
    #expect(finding.place.line == 4)
    #expect(finding.message.contains("valueTransformerName 'ColorTransformer'"), "\(finding)")
    #expect(finding.message.contains("the pin says 'NSSecureUnarchiveFromData'"))
    #expect(finding.message.contains("SampleModel.xcdatamodel/contents:4:9"))
  }

  @Test("The model's customClassName differs from the pin: an error")
  func customClassNameChanged() throws {
    let item = try #require(
      try verify(
        try Self.coverPin().replacingOccurrences(
          of: #"customClassName="Cover""#, with: #"customClassName="Jacket""#)
      ).first)
    #expect(item.status == .failed)
    #expect(lines(item).count == 1)
    #expect(item.storeFindings.first?.message.contains("customClassName 'Cover'") == true)
  }

  @Test(
    "A row lost that the pin does not list: an error naming Entity[Z_PK].attribute, the class, the key path and what to write"
  )
  func unlistedLostRow() throws {
    let folder = try Self.droppingFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let item = try #require(
      try verify(try Self.droppingPin(in: folder), archives: folder).first)
    #expect(item.status == .failed)
    #expect(item.storeFindings.count == 1, "\(lines(item))")
    let finding = try #require(item.storeFindings.first)
    #expect(finding.severity == .error)
    #expect(finding.place.line == 4)
    #expect(finding.place.column == 3)
    #expect(finding.message.contains("Car[Z_PK=3].color would become nil"), "\(finding)")
    #expect(finding.message.contains("class 'ProfilesApp.UserProfile'"))
    #expect(finding.message.contains("root[0]"))
    #expect(finding.message.contains(#"<lostRow pk="3" class="ProfilesApp.UserProfile"/>"#))
    #expect(finding.message.contains("NSArray"))
  }

  @Test("The pin lists the lost row: the case passes")
  func listedLostRowPasses() throws {
    let folder = try Self.droppingFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let item = try #require(
      try verify(
        try Self.droppingPin(
          in: folder, lostRows: #"    <lostRow pk="3" class="ProfilesApp.UserProfile"/>"#),
        archives: folder
      ).first)
    #expect(item.status == .passed, "\(lines(item))")
    #expect(item.storeFindings.isEmpty)
  }

  @Test("A pinned lost row that now decodes: a warning at its lostRow, the case passes")
  func stalePinnedRow() throws {
    let folder = try Self.droppingFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let item = try #require(
      try verify(
        try Self.droppingPin(
          in: folder,
          lostRows: """
                <lostRow pk="3" class="ProfilesApp.UserProfile"/>
                <lostRow pk="4"/>
            """),
        archives: folder
      ).first)
    #expect(item.status == .passed)
    #expect(
      lines(item) == [
        "6:5: warning: Car[Z_PK=4].color is pinned as lost but now decodes under "
          + "NSSecureUnarchiveFromData: remove its lostRow"
      ])
  }

  @Test("A pinned lost row lost for another class: an error at its lostRow")
  func lostRowOtherClass() throws {
    let folder = try Self.droppingFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let item = try #require(
      try verify(
        try Self.droppingPin(
          in: folder, lostRows: #"    <lostRow pk="3" class="ProfileKit.Memo"/>"#),
        archives: folder
      ).first)
    #expect(item.status == .failed)
    #expect(lines(item).count == 1)
    #expect(item.storeFindings.first?.place.line == 5)
    #expect(
      item.storeFindings.first?.message.contains(
        "lost for class 'ProfilesApp.UserProfile', not for class 'ProfileKit.Memo'") == true,
      "\(lines(item))")
  }

  @Test("allowedClass on a transformer that is not custom: an error at the allowedClass")
  func allowedClassNeedsCustomTransformer() throws {
    let folder = try Self.droppingFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let item = try #require(
      try verify(
        try Self.droppingPin(
          in: folder,
          lostRows: #"    <allowedClass name="ProfilesApp.UserProfile"/><lostRow pk="3"/>"#),
        archives: folder
      ).first)
    #expect(item.status == .failed)
    #expect(
      lines(item) == [
        "5:5: error: allowedClass applies to a custom transformer only; Car.color's transformer "
          + "reads with NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate, NSData, NSURL, "
          + "NSUUID, NSNull"
      ])
  }

  @Test(
    "Thousands of lost rows the pin does not list: twenty are named, the rest counted in one finding"
  )
  func manyUnlistedLostRows() throws {
    let sha = try Self.sha(Fixtures.path("SampleModel2_V1.sqlite"))
    let item = try #require(
      try verify(
        #"  <coreDataAttribute store="CoreDataPlus/SampleModel2_V1.sqlite" storeSHA256=""#
          + sha
          + #"" model="CoreDataPlus/SampleModel2-V1-transcribed.xcdatamodel" entity="Page" attribute="content" transformer="ContentTransformer" rows="4970"/>"#
      ).first)
    #expect(item.status == .failed)
    #expect(item.storeFindings.count == Verifier.maximumUnpinnedRowFindings + 1)
    #expect(
      item.storeFindings.first?.message.contains("Page[Z_PK=1].content would become nil") == true,
      "\(lines(item))")
    #expect(
      item.storeFindings.last?.message
        == "4950 more rows of Page.content would become nil that the pin does not list; "
        + "`coredata preflight` lists them")
  }

  @Test("The row count differs from the pin: an error at rows")
  func wrongRowCount() throws {
    let item = try #require(try verify(try Self.coverPin(rows: 51)).first)
    #expect(item.status == .failed)
    #expect(lines(item).count == 1)
    let finding = try #require(item.storeFindings.first)
    #expect(finding.message == "ZBOOK.ZCOVER has 52 rows for Book.cover, but the pin says 51")
  }

  @Test(
    "A store whose checksum differs from the pin: the manifest does not load, naming storeSHA256's place"
  )
  func checksumMismatch() throws {
    let pin = try Self.coverPin().replacingOccurrences(
      of: try Self.sha(Fixtures.path("SampleModel2_V1.sqlite")), with: ManifestTestSupport.zeroSHA)
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(pin), archivesDirectory: Self.archives)
    #expect(result.diagnostics.containsErrors)
    let lines = ManifestTestSupport.lines(result)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("4:") == true, "\(lines)")
    #expect(
      lines.first?.contains(
        "store 'CoreDataPlus/SampleModel2_V1.sqlite' has sha256 ") == true)
    #expect(
      lines.first?.contains("but the manifest expects \(ManifestTestSupport.zeroSHA)") == true)
  }

  @Test("A store path that leaves the archives folder: the manifest does not load")
  func storeOutsideArchives() throws {
    let pin = try Self.coverPin().replacingOccurrences(
      of: #"store="CoreDataPlus/"#, with: #"store="../CoreDataPlus/"#)
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(pin), archivesDirectory: Self.archives)
    #expect(
      ManifestTestSupport.lines(result).contains {
        $0.hasPrefix("4:") && $0.contains("uses '..'")
      }, "\(ManifestTestSupport.lines(result))")
  }

  @Test("An entity the model does not have: an error naming the model's transformable attributes")
  func unknownEntity() throws {
    let item = try #require(try verify(try Self.colorPin(entity: "Boat")).first)
    #expect(item.status == .failed)
    #expect(lines(item).count == 1)
    let message = try #require(item.storeFindings.first?.message)
    #expect(message.contains("has no entity 'Boat'"), "\(message)")
    #expect(message.contains("its transformable attributes are: Car.color"))
  }

  @Test("An attribute that is not a transformable of the entity: an error")
  func unknownAttribute() throws {
    let item = try #require(try verify(try Self.colorPin(attribute: "maker")).first)
    #expect(item.status == .failed)
    let message = try #require(item.storeFindings.first?.message)
    #expect(
      message.contains("has no transformable attribute 'maker' in entity 'Car'"), "\(message)")
  }

  @Test("A model that cannot be read: an error at the pin's model, naming the model's place")
  func unreadableModel() throws {
    let folder = try Self.droppingFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("<model><entity name=\"Car\">\n</model>".utf8).write(
      to: URL(fileURLWithPath: folder + "/Secure.xcdatamodel/contents"))
    let item = try #require(
      try verify(try Self.droppingPin(in: folder), archives: folder).first)
    #expect(item.status == .failed)
    let message = try #require(item.storeFindings.first?.message)
    #expect(message.contains("the model 'Secure.xcdatamodel' cannot be read"), "\(message)")
    #expect(message.contains("Secure.xcdatamodel/contents:2:"))
  }

  /// A manifests folder holding `body` as `coredata.xml`, and an archives folder holding only
  /// the fixtures named (by path below `CoreDataPlus/`): `(root, manifest path, archives)`.
  private func project(_ body: String, fixtures: [String]) throws -> (
    root: String, manifest: String, archives: String
  ) {
    let root = try ManifestTestSupport.temporaryDirectory()
    let archives = root + "/LegacyArchives"
    try FileManager.default.createDirectory(
      atPath: root + "/manifests", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: archives + "/CoreDataPlus", withIntermediateDirectories: true)
    for fixture in fixtures {
      try FileManager.default.copyItem(
        atPath: Fixtures.path(fixture), toPath: archives + "/CoreDataPlus/" + fixture)
    }
    let manifest = root + "/manifests/coredata.xml"
    try Data(ManifestTestSupport.manifest(body).utf8).write(to: URL(fileURLWithPath: manifest))
    return (root, manifest, archives)
  }

  @Test("verify exits 1 for a pin the model no longer matches, printing the pin's manifest place")
  func verifyCommandFails() throws {
    let (root, manifest, archives) = try project(
      try Self.colorPin(), fixtures: ["SampleModel_V1.sqlite", "SampleModel.xcdatamodeld"])
    defer { try? FileManager.default.removeItem(atPath: root) }
    let run = try CommandRunner.run([
      "verify", "--manifests", root + "/manifests", "--archives", archives,
    ])
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("[core-data-attribute] \(manifest):4:"), "\(run.stdout)")
    #expect(run.stdout.contains("valueTransformerName 'ColorTransformer'"))
    #expect(!run.stdout.contains("[unlisted]"), "\(run.stdout)")
  }

  @Test(
    "verify exits 0 for pins that match, decoding in the harness's worker; the pinned store and model are not unlisted"
  )
  func verifyCommandPasses() throws {
    let (root, _, archives) = try project(
      try Self.coverPin(),
      fixtures: ["SampleModel2_V1.sqlite", "SampleModel2-V1-transcribed.xcdatamodel"])
    defer { try? FileManager.default.removeItem(atPath: root) }
    let run = try CommandRunner.run([
      "verify", "--manifests", root + "/manifests", "--archives", archives, "--format", "json",
    ])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let violations = try JSONSchemas.violations(of: run.stdout, against: .verify)
    #expect(violations.isEmpty, "\(violations)")
    guard case .array(let cases)? = try JSONDocument(parsing: run.stdout)["cases"] else {
      Issue.record("no cases in \(run.stdout)")
      return
    }
    #expect(cases.count == 1)
    #expect(cases.first?["archive"] == .string("CoreDataPlus/SampleModel2_V1.sqlite#Book.cover"))
  }

  @Test(
    "verify in a team's harness decodes the pinned rows in its decode worker: a trapping init?(coder:) is a finding for that row"
  )
  func verifyTrapInWorker() throws {
    var trapping = ArchiveBuilder()
    trapping.setRoot(trapping.object("crash_test_harness.Badge", [("label", .integer(7))]))
    var fine = ArchiveBuilder()
    fine.setRoot(fine.object("crash_test_harness.Badge", [("label", .string("gold"))]))
    let (folder, store) = try Fixtures.makeStore(colors: [2: fine.bytes(), 5: trapping.bytes()])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let archives = folder + "/LegacyArchives"
    try FileManager.default.createDirectory(
      atPath: archives + "/CoreDataPlus", withIntermediateDirectories: true)
    try FileManager.default.moveItem(
      atPath: store, toPath: archives + "/CoreDataPlus/SampleModel_V1.sqlite")
    try FileManager.default.copyItem(
      atPath: Fixtures.path("SampleModel.xcdatamodeld"),
      toPath: archives + "/CoreDataPlus/SampleModel.xcdatamodeld")
    try FileManager.default.createDirectory(
      atPath: folder + "/manifests", withIntermediateDirectories: true)
    let sha = try Self.sha(archives + "/CoreDataPlus/SampleModel_V1.sqlite")
    let pin = """
        <coreDataAttribute store="CoreDataPlus/SampleModel_V1.sqlite" storeSHA256="\(sha)" model="CoreDataPlus/SampleModel.xcdatamodeld" entity="Car" attribute="color" transformer="ColorTransformer" rows="125">
          <allowedClass name="crash_test_harness.Badge"/>
        </coreDataAttribute>
      """
    try Data(ManifestTestSupport.manifest(pin).utf8).write(
      to: URL(fileURLWithPath: folder + "/manifests/coredata.xml"))
    let run = try CommandRunner.run(
      ["verify", "--manifests", folder + "/manifests", "--archives", archives],
      executableName: "crash-test-harness")
    #expect(run.signal == nil)
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("Car[Z_PK=5].color would become nil"), "\(run.stdout)")
    #expect(run.stdout.contains("[decoder-crashed]"))
    #expect(run.stdout.contains("trapped in the decode worker on the secure path (SIGABRT"))
    #expect(!run.stdout.contains("Z_PK=2]"))
  }
}
