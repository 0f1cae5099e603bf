import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// `<coreDataAttribute>`: a pinned Core Data attribute, in the XSD, the model and the checks
/// made when a manifest loads, on the real fixtures of `Tests/Fixtures/CoreData`.
@Suite("Manifest Core Data attribute pins")
struct CoreDataAttributeManifestTests {
  /// The real fixtures as an archives folder.
  static let archives = Corpus.packageRoot.appendingPathComponent("Tests/Fixtures/CoreData").path

  /// The real SampleModel store's checksum.
  static func storeSHA() throws -> String {
    SHA256Checksum.hash(
      try Data(
        contentsOf: URL(fileURLWithPath: archives + "/CoreDataPlus/SampleModel_V1.sqlite"))
    ).hexadecimal
  }

  /// A pin of `Car.color` with `extra` attributes and `children`, starting on line 4.
  static func pin(
    model: String = "CoreDataPlus/SampleModel.xcdatamodeld", rows: String = "125",
    children: String = ""
  ) throws -> String {
    """
      <coreDataAttribute store="CoreDataPlus/SampleModel_V1.sqlite" storeSHA256="\(try storeSHA().uppercased())" model="\(model)" entity="Car" attribute="color" transformer="ColorTransformer" rows="\(rows)">
    \(children)
      </coreDataAttribute>
    """
  }

  private func load(_ body: String) throws -> ManifestLoadResult {
    try ManifestTestSupport.load(
      ManifestTestSupport.manifest(body), archivesDirectory: Self.archives)
  }

  @Test(
    "A pin loads with its paths, transformer, rows, allowed classes and lost rows, at their places")
  func loads() throws {
    let result = try load(
      try Self.pin(
        children: """
              <allowedClass name="Module.Color"/>
              <lostRow pk="7" class="Module.Paint"/>
              <lostRow pk="9"/>
          """))
    #expect(result.diagnostics.isEmpty, "\(ManifestTestSupport.lines(result))")
    let pin = try #require(result.manifest?.coreDataAttributes.first)
    #expect(pin.qualifiedName == "Car.color")
    #expect(pin.storeSHA256 == (try Self.storeSHA()))
    #expect(pin.transformer == "ColorTransformer")
    #expect(pin.customClassName == nil)
    #expect(pin.rows == 125)
    #expect(pin.allowedClasses?.map(\.name) == ["Module.Color"])
    #expect(pin.lostRows.map(\.primaryKey) == [7, 9])
    #expect(pin.lostRows.map(\.className) == ["Module.Paint", nil])
    #expect(pin.location.description == "manifest.xml:4:3")
    #expect(pin.lostRows.last?.location.description == "manifest.xml:7:5")
    #expect(pin.location(ofAttribute: "rows").line == 4)
    #expect(
      result.manifest?.listedPaths.contains("CoreDataPlus/SampleModel.xcdatamodeld") == true)
  }

  @Test("A Z_PK listed twice: an error at the second")
  func duplicateLostRow() throws {
    let result = try load(
      try Self.pin(
        children: """
              <lostRow pk="7"/>
              <lostRow pk="7"/>
          """))
    #expect(
      ManifestTestSupport.lines(result).contains {
        $0.hasPrefix("6:") && $0.contains("lost row Z_PK=7 is already listed at manifest.xml:5:5")
      }, "\(ManifestTestSupport.lines(result))")
  }

  @Test("More lost rows than rows: an error at rows")
  func moreLostRowsThanRows() throws {
    let result = try load(try Self.pin(rows: "1", children: #"<lostRow pk="1"/><lostRow pk="2"/>"#))
    #expect(
      ManifestTestSupport.lines(result).contains {
        $0.hasPrefix("4:") && $0.contains("2 lost rows are listed, but the attribute has 1 rows")
      }, "\(ManifestTestSupport.lines(result))")
  }

  @Test("An attribute of a store pinned twice: an error at the second pin")
  func duplicatePin() throws {
    let result = try load(try Self.pin() + "\n" + (try Self.pin()))
    #expect(
      ManifestTestSupport.lines(result).contains {
        $0.contains(
          "Core Data attribute Car.color of store 'CoreDataPlus/SampleModel_V1.sqlite' "
            + "is already pinned at manifest.xml:4:3")
      }, "\(ManifestTestSupport.lines(result))")
  }

  @Test("A model that does not exist: an error at the pin's model")
  func missingModel() throws {
    let result = try load(try Self.pin(model: "CoreDataPlus/Gone.xcdatamodeld"))
    #expect(
      ManifestTestSupport.lines(result).contains {
        $0.hasPrefix("4:") && $0.contains("model 'CoreDataPlus/Gone.xcdatamodeld' does not exist")
      }, "\(ManifestTestSupport.lines(result))")
  }

  @Test("A pin without rows does not follow the schema")
  func rowsRequired() throws {
    let result = try load(try Self.pin().replacingOccurrences(of: #" rows="125""#, with: ""))
    #expect(result.manifest == nil)
    #expect(
      ManifestTestSupport.lines(result).contains { $0.contains("rows") },
      "\(ManifestTestSupport.lines(result))")
  }
}
