import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// `<store kind … />`: where a store manifest's archives are, in the XSD and the model.
@Suite("Manifest store shapes")
struct StoreShapeManifestTests {
  private func load(_ body: String) throws -> ManifestLoadResult {
    try ManifestTestSupport.load(ManifestTestSupport.manifest(body))
  }

  @Test("An SQLite store loads with its table and columns, at its place")
  func sqliteStore() throws {
    let result = try load(#"  <store kind="sqlite" table="store" keyColumn="k" valueColumn="v"/>"#)
    #expect(result.diagnostics.isEmpty, "\(ManifestTestSupport.lines(result))")
    let store = try #require(result.manifest?.store)
    #expect(store.kind == .sqlite)
    #expect(store.table == "store")
    #expect(store.keyColumn == "k")
    #expect(store.valueColumn == "v")
    #expect(store.location.description == "manifest.xml:4:3")
  }

  @Test("A Core Data store loads with its entity and attribute")
  func coreDataStore() throws {
    let result = try load(#"  <store kind="core-data" entity="Book" attribute="cover"/>"#)
    #expect(result.diagnostics.isEmpty, "\(ManifestTestSupport.lines(result))")
    #expect(result.manifest?.store?.entity == "Book")
    #expect(result.manifest?.store?.attribute == "cover")
  }

  @Test("A property-list store loads with its key paths in order")
  func propertyListStore() throws {
    let body = """
        <store kind="property-list">
          <keyPath>profile.current</keyPath>
          <keyPath>recent[2]</keyPath>
        </store>
      """
    let result = try load(body)
    #expect(result.diagnostics.isEmpty, "\(ManifestTestSupport.lines(result))")
    #expect(result.manifest?.store?.keyPaths == ["profile.current", "recent[2]"])
  }

  @Test("The store goes after migration and before accepted refusals")
  func placeInSequence() throws {
    let body = """
        <migration/>
        <store kind="folder"/>
        <accepted key="a" category="truncated" reason="old"/>
      """
    let result = try load(body)
    #expect(result.diagnostics.isEmpty, "\(ManifestTestSupport.lines(result))")
    #expect(result.manifest?.store?.kind == .folder)
  }

  @Test("An SQLite store without a table is an error at the element")
  func sqliteNeedsTable() throws {
    let result = try load(#"  <store kind="sqlite" keyColumn="k"/>"#)
    #expect(ManifestTestSupport.lines(result) == ["4:3: a sqlite store needs the table attribute"])
  }

  @Test("A Core Data store without its attribute is an error at the element")
  func coreDataNeedsAttribute() throws {
    let result = try load(#"  <store kind="core-data" entity="Book"/>"#)
    #expect(
      ManifestTestSupport.lines(result) == ["4:3: a core-data store needs the attribute attribute"])
  }

  @Test("A table on a Core Data store is an error at the attribute")
  func foreignAttribute() throws {
    let result = try load(
      #"  <store kind="core-data" entity="Book" attribute="cover" table="ZBOOK"/>"#)
    #expect(ManifestTestSupport.lines(result).count == 1)
    #expect(
      ManifestTestSupport.lines(result).first?.hasSuffix(
        "table does not apply to a core-data store") == true)
  }

  @Test("A key path on an SQLite store is an error")
  func keyPathOnSQLite() throws {
    let body = """
        <store kind="sqlite" table="t">
          <keyPath>a</keyPath>
        </store>
      """
    let result = try load(body)
    #expect(
      ManifestTestSupport.lines(result) == ["4:3: keyPath applies to a property-list store only"])
  }

  @Test("An unknown store kind is a schema error")
  func unknownKind() throws {
    let result = try load(#"  <store kind="realm"/>"#)
    #expect(result.manifest == nil)
    #expect(result.diagnostics.first?.category == .schema)
  }

  @Test("The written element loads back as the same shape")
  func writtenElementLoadsBack() throws {
    let shape = Manifest.StoreShape(
      kind: .propertyList, keyPaths: ["profile.current", "a&b"],
      location: Place(file: "x", line: 1, column: 1))
    let result = try load(ManifestXMLWriter.storeElement(shape))
    #expect(result.diagnostics.isEmpty, "\(ManifestTestSupport.lines(result))")
    #expect(result.manifest?.store?.keyPaths == ["profile.current", "a&b"])
    #expect(result.manifest?.store?.kind == .propertyList)
  }
}
