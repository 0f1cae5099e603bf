import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `coredata preflight` on CoreDataPlus's real Core Data stores and models, and on a copy of
/// one whose declared `NSSecureUnarchiveFromData` drops a row.
@Suite("coredata preflight")
struct CoreDataPreflightTests {
  private typealias Fixtures = CoreDataPreflightFixtures

  private func preflight(_ arguments: [String]) throws -> CommandRunner.Result {
    try CommandRunner.run(["coredata", "preflight"] + arguments)
  }

  /// A JSON string's text, or empty.
  private func text(_ document: JSONDocument?) -> String {
    if case .string(let text)? = document { return text }
    return ""
  }

  /// The JSON report's attribute `Entity.attribute`.
  private func attribute(_ name: String, in json: String) throws -> JSONDocument? {
    guard case .array(let attributes)? = try JSONDocument(parsing: json)["attributes"] else {
      return nil
    }
    return attributes.first {
      "\(text($0["entity"])).\(text($0["attribute"]))"
        == name
    }
  }

  @Test(
    "The real SampleModel store reads with every form of its real model; Car.color names its custom transformer",
    arguments: [
      "SampleModel.xcdatamodeld", "SampleModel.xcdatamodeld/SampleModel.xcdatamodel",
      "SampleModel.xcdatamodeld/SampleModel.xcdatamodel/contents", "SampleModel.momd",
      "SampleModel.momd/SampleModel.mom",
    ])
  func realModelForms(_ model: String) throws {
    let run = try preflight([
      Fixtures.path("SampleModel_V1.sqlite"), "--model", Fixtures.path(model), "--format", "json",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let violations = try JSONSchemas.violations(of: run.stdout, against: .coreDataPreflight)
    #expect(violations.isEmpty, "\(violations)")
    let color = try #require(try attribute("Car.color", in: run.stdout))
    #expect(color["valueTransformerName"] == .string("ColorTransformer"))
    #expect(color["transformer"] == .string("custom"))
    #expect(color["table"] == .string("ZCAR"))
    #expect(color["column"] == .string("ZCOLOR"))
    #expect(color["rows"]?["total"] == .number(125))
    #expect(color["rows"]?["null"] == .number(125))
    #expect(color["lostRowCount"] == .number(0))
    let place = text(color["modelPlace"])
    if model.contains("mom") {
      #expect(place.hasSuffix("SampleModel.mom:NSEntities.Car.NSProperties.color"), "\(place)")
    } else {
      #expect(place.hasSuffix("SampleModel.xcdatamodel/contents:4:9"), "\(place)")
      #expect(color["customClassName"] == .string("Color"))
    }
  }

  @Test(
    "The real SampleModel2 store's 5022 archives: a custom transformer's unknown list proposes the defaults, which lose every row"
  )
  func realArchivesProposedDefaults() throws {
    let run = try preflight([
      Fixtures.path("SampleModel2_V1.sqlite"), "--model",
      Fixtures.path("SampleModel2-V1-transcribed.xcdatamodel"), "--format", "json",
    ])
    #expect(run.status == 1, "\(run.stderr)")
    let violations = try JSONSchemas.violations(of: run.stdout, against: .coreDataPreflight)
    #expect(violations.isEmpty, "\(violations)")
    let cover = try #require(try attribute("Book.cover", in: run.stdout))
    #expect(cover["basis"] == .string("proposed-for-custom"))
    #expect(cover["lostRowCount"] == .number(52))
    #expect(cover["minimalAllowedClasses"] == .array([.string("CoreDataPlus_Tests.Cover")]))
    guard case .array(let lost)? = cover["lostRows"], let first = lost.first else {
      Issue.record("no lost rows")
      return
    }
    #expect(first["pk"] == .number(1))
    #expect(first["class"] == .string("CoreDataPlus_Tests.Cover"))
    #expect(first["keyPath"] == .string("root"))
    // Row 11 is a GraphicNovel, a sub-entity of Book in the same table.
    #expect(lost.contains { $0["pk"] == .number(11) && $0["entity"] == .string("GraphicNovel") })
    let content = try #require(try attribute("Page.content", in: run.stdout))
    #expect(content["lostRowCount"] == .number(4970))
    #expect(content["minimalAllowedClasses"] == .array([.string("Content")]))
    #expect(text(content["swift"]).contains("Content.self"))
  }

  @Test(
    "With the custom transformers' lists given, every real archive row reads, and the snippet registers the transformer"
  )
  func realArchivesWithLists() throws {
    let run = try preflight([
      Fixtures.path("SampleModel2_V1.sqlite"), "--model",
      Fixtures.path("SampleModel2-V1-transcribed.xcdatamodel"),
      "--allowed-classes", "Book.cover=CoreDataPlus_Tests.Cover",
      "--allowed-classes", "Page.content=Content",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("checked against (declared-custom): CoreDataPlus_Tests.Cover"))
    #expect(run.stdout.contains("Cover.self,  // archived as CoreDataPlus_Tests.Cover"))
    #expect(
      run.stdout.contains(
        "ValueTransformer.setValueTransformer(CoverTransformer(), forName: name)"))
    #expect(run.stdout.contains("summary: 2 transformable attributes, 0 rows would become nil"))
  }

  @Test(
    "The declared NSSecureUnarchiveFromData drops row 3: the report names its Z_PK, the class and the key path, and writes nothing"
  )
  func declaredSecureDropsRow() throws {
    let (folder, store) = try Fixtures.makeDroppingStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let files = try Fixtures.listing(folder)
    let model = Fixtures.path("SampleModel-secure-derived.xcdatamodel")
    let text = try preflight([store, "--model", model])
    #expect(text.status == 1, "\(text.stderr)")
    #expect(
      text.stdout.contains(
        "lost  Car[Z_PK=3].color  [class-not-allowed] class 'ProfilesApp.UserProfile'"),
      "\(text.stdout)")
    #expect(text.stdout.contains("at root[0]"))
    #expect(text.stdout.contains("rows that would become nil: 1\n"))

    let json = try preflight([store, "--model", model, "--format", "json"])
    #expect(json.status == 1)
    let violations = try JSONSchemas.violations(of: json.stdout, against: .coreDataPreflight)
    #expect(violations.isEmpty, "\(violations)")
    let color = try #require(try attribute("Car.color", in: json.stdout))
    #expect(color["basis"] == .string("declared"))
    #expect(color["rows"]?["archives"] == .number(4))
    #expect(color["lostRowCount"] == .number(1))
    guard case .array(let lost)? = color["lostRows"] else {
      Issue.record("no lostRows")
      return
    }
    #expect(lost.count == 1)
    #expect(lost.first?["pk"] == .number(3))
    #expect(lost.first?["class"] == .string("ProfilesApp.UserProfile"))
    #expect(lost.first?["keyPath"] == .string("root[0]"))
    guard case .array(let minimal)? = color["minimalAllowedClasses"] else {
      Issue.record("no minimal list")
      return
    }
    for name in ["NSArray", "NSDictionary", "NSURL", "NSUUID", "NSNull", "ProfilesApp.UserProfile"]
    {
      #expect(minimal.contains(.string(name)), "\(name) missing from \(minimal)")
    }
    #expect(!minimal.contains(.string("NSSet")))

    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(try Fixtures.listing(folder) == files)
  }

  @Test("HTML output escapes the model's text and names the lost row")
  func htmlEscapes() throws {
    let (folder, store) = try Fixtures.makeDroppingStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let contents = try String(
      contentsOfFile: Fixtures.path("SampleModel-secure-derived.xcdatamodel/contents"),
      encoding: .utf8
    ).replacingOccurrences(
      of: #"valueTransformerName="NSSecureUnarchiveFromData""#,
      with:
        #"valueTransformerName="NSSecureUnarchiveFromData" customClassName="&lt;script&gt;x&lt;/script&gt;""#
    )
    let model = try Fixtures.writeModel(contents, in: folder, name: "Escaped")
    let run = try preflight([store, "--model", model, "--format", "html"])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(!run.stdout.contains("<script>x"))
    #expect(run.stdout.contains("&lt;script&gt;x&lt;/script&gt;"))
    #expect(run.stdout.contains("<td data-label=\"Z_PK\">3</td>"))
    #expect(run.stdout.contains("ProfilesApp.UserProfile"))
  }

  @Test(
    "A team's harness decodes rows in its decode worker: an init?(coder:) that traps loses that row, and the command finishes"
  )
  func trappingDecoderInWorker() throws {
    var trapping = ArchiveBuilder()
    trapping.setRoot(trapping.object("crash_test_harness.Badge", [("label", .integer(7))]))
    var fine = ArchiveBuilder()
    fine.setRoot(fine.object("crash_test_harness.Badge", [("label", .string("gold"))]))
    let (folder, store) = try Fixtures.makeStore(colors: [
      2: fine.bytes(), 5: trapping.bytes(), 9: fine.bytes(),
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try CommandRunner.run(
      [
        "coredata", "preflight", store, "--model", Fixtures.path("SampleModel.xcdatamodeld"),
        "--allowed-classes", "Car.color=crash_test_harness.Badge", "--format", "json",
      ], executableName: "crash-test-harness")
    #expect(run.signal == nil)
    #expect(run.status == 1, "\(run.stderr)")
    let color = try #require(try attribute("Car.color", in: run.stdout))
    #expect(color["lostRowCount"] == .number(1))
    #expect(color["secure"]?["decoded"] == .number(2))
    guard case .array(let lost)? = color["lostRows"], let row = lost.first else {
      Issue.record("no lost rows")
      return
    }
    #expect(row["pk"] == .number(5))
    #expect(row["reason"] == .string("decoder-crashed"))
    #expect(text(row["message"]).contains("trapped in the decode worker on the secure path"))
    #expect(text(row["message"]).contains("SIGABRT"), "\(text(row["message"]))")
  }

  // MARK: Bad input, each its own test

  @Test("Malformed model XML: exit 2, naming contents:LINE:COL")
  func malformedModelXML() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let model = try Fixtures.writeModel(
      "<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"Car\">\n    <attribute name=\"color\" attributeType=\"Transformable\">\n  </entity>\n</model>\n",
      in: folder)
    let run = try preflight([Fixtures.path("SampleModel_V1.sqlite"), "--model", model])
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("Broken.xcdatamodel/contents:5:"), "\(run.stderr)")
    #expect(run.stderr.contains("[invalid-model]"))
  }

  @Test("A model with a DOCTYPE is refused at its place, as manifests are")
  func modelWithDoctype() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let model = try Fixtures.writeModel(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY x \"y\">]>\n<model/>\n", in: folder)
    let run = try preflight([Fixtures.path("SampleModel_V1.sqlite"), "--model", model])
    #expect(run.status == 2)
    #expect(run.stderr.contains("contents:2:"), "\(run.stderr)")
  }

  @Test("A .mom that is not a keyed archive: exit 2, naming the file")
  func momNotAnArchive() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let mom = folder + "/Model.mom"
    try Data("bplist00 this is no archive".utf8).write(to: URL(fileURLWithPath: mom))
    let run = try preflight([Fixtures.path("SampleModel_V1.sqlite"), "--model", mom])
    #expect(run.status == 2)
    #expect(run.stderr.contains("Model.mom"), "\(run.stderr)")
    #expect(run.stderr.contains("not a compiled Core Data model"))
  }

  @Test("A keyed archive that is not a model, given as .mom: exit 2, naming its root class")
  func momOfAnotherClass() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let mom = folder + "/Model.mom"
    try FileManager.default.copyItem(
      atPath: Corpus.packageRoot.appendingPathComponent(
        "Tests/Fixtures/RealArchives/swift-corelibs-foundation/NSKeyedUnarchiver-ArrayTest.plist"
      ).path, toPath: mom)
    let run = try preflight([Fixtures.path("SampleModel_V1.sqlite"), "--model", mom])
    #expect(run.status == 2)
    #expect(run.stderr.contains("Model.mom:root"), "\(run.stderr)")
    #expect(run.stderr.contains("not an NSManagedObjectModel"))
  }

  @Test(
    "A model attribute with no column: exit 2, naming the table, the attribute and the model's place"
  )
  func modelNamesMissingColumn() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let model = try Fixtures.writeModel(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <model type="com.apple.IDECoreDataModeler.DataModel">
          <entity name="Car" representedClassName="Car">
              <attribute name="paint" optional="YES" attributeType="Transformable"/>
          </entity>
      </model>
      """, in: folder)
    let run = try preflight([Fixtures.path("SampleModel_V1.sqlite"), "--model", model])
    #expect(run.status == 2)
    #expect(run.stderr.contains("table ZCAR"), "\(run.stderr)")
    #expect(run.stderr.contains("no attribute 'paint' (column ZPAINT)"))
    #expect(run.stderr.contains("Car.paint (\(model)/contents:4:9)"))
  }

  @Test("A model entity the store does not have: exit 2, naming Z_PRIMARYKEY's entities")
  func modelNamesMissingEntity() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let model = try Fixtures.writeModel(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <model>
          <entity name="Boat"><attribute name="flag" attributeType="Transformable"/></entity>
      </model>
      """, in: folder)
    let run = try preflight([Fixtures.path("SampleModel_V1.sqlite"), "--model", model])
    #expect(run.status == 2)
    #expect(run.stderr.contains("no entity 'Boat'"), "\(run.stderr)")
    #expect(run.stderr.contains("Z_PRIMARYKEY"))
  }

  @Test("A store that is not Core Data: exit 2, and the store is unchanged")
  func storeNotCoreData() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/plain.sqlite"
    let database = try SQLiteDatabase(path: store, readOnly: false, create: true)
    try database.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body BLOB)")
    let files = try Fixtures.listing(folder)
    let run = try preflight([
      store, "--model", Fixtures.path("SampleModel.xcdatamodeld"),
    ])
    #expect(run.status == 2)
    #expect(run.stderr.contains("plain.sqlite"), "\(run.stderr)")
    #expect(run.stderr.contains("not a Core Data store"))
    #expect(try Fixtures.listing(folder) == files)
  }

  @Test("A versioned model folder with several versions and no current one: exit 2, listing them")
  func ambiguousVersions() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bundle = folder + "/Model.xcdatamodeld"
    _ = try Fixtures.writeModel("<model/>", in: bundle, name: "A")
    _ = try Fixtures.writeModel("<model/>", in: bundle, name: "B")
    let run = try preflight([Fixtures.path("SampleModel_V1.sqlite"), "--model", bundle])
    #expect(run.status == 2)
    #expect(run.stderr.contains("A.xcdatamodel, B.xcdatamodel"), "\(run.stderr)")
  }

  @Test("--allowed-classes for an attribute the model does not have: a usage error")
  func allowedClassesUnknownAttribute() throws {
    let run = try preflight([
      Fixtures.path("SampleModel_V1.sqlite"), "--model", Fixtures.path("SampleModel.xcdatamodeld"),
      "--allowed-classes", "Car.paint=NSArray",
    ])
    #expect(run.status == 2)
    #expect(run.stderr.contains("Car.paint"), "\(run.stderr)")
    #expect(run.stderr.contains("Car.color"))
  }
}
