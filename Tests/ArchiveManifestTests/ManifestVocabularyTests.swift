import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// The manifest schema's enumerations, read from the XSD as text, beside the enums that model them.
@Suite("Manifest schema and vocabulary")
struct ManifestVocabularyTests {
  private static func schemaText() throws -> String {
    try String(contentsOfFile: ManifestTestSupport.schemaPath, encoding: .utf8)
  }

  /// The `xs:enumeration` values of the named `xs:simpleType`, in document order.
  private static func enumeration(_ simpleType: String) throws -> [String] {
    let text = try schemaText()
    let start = try #require(text.range(of: "<xs:simpleType name=\"\(simpleType)\">"))
    let end = try #require(
      text.range(of: "</xs:simpleType>", range: start.upperBound..<text.endIndex))
    return try TextPattern.captures(
      #"<xs:enumeration value="([^"]*)"\s*/?>"#, in: text[start.upperBound..<end.lowerBound])
  }

  @Test("The schema's RejectionCategory lists the RejectionCategory cases, in order")
  func rejectionCategories() throws {
    #expect(try Self.enumeration("RejectionCategory") == RejectionCategory.allCases.map(\.rawValue))
  }

  @Test("The schema's OutcomeKind lists the kinds of an outcome expectation, in order")
  func outcomeKinds() throws {
    #expect(
      try Self.enumeration("OutcomeKind") == OutcomeExpectation.Kind.allCases.map(\.rawValue))
  }

  @Test("The schema's Strictness lists the Strictness cases, in order")
  func strictness() throws {
    #expect(try Self.enumeration("Strictness") == Strictness.allCases.map(\.rawValue))
  }

  @Test("The schema's ValueType lists the value types of an added field, in order")
  func valueTypes() throws {
    #expect(try Self.enumeration("ValueType") == Manifest.ValueType.allCases.map(\.rawValue))
  }

  @Test("The elements that state an outcome are the manifest names of the decode paths")
  func outcomeElements() throws {
    let text = try Self.schemaText()
    let elements = try TextPattern.captures(#"<xs:element name="(\w+)" type="m:Outcome""#, in: text)
    #expect(elements == DecodePath.manifestPaths.compactMap(\.manifestElementName))
    #expect(DecodePath.foundationLegacy.manifestElementName == nil)
  }

  @Test("Each outcome element reads back as its decode path", arguments: DecodePath.manifestPaths)
  func elementNamesRoundTrip(path: DecodePath) throws {
    let name = try #require(path.manifestElementName)
    #expect(DecodePath(manifestElementName: name) == path)
  }

  @Test("A name that is not an outcome element is no decode path")
  func unknownElementName() {
    #expect(DecodePath(manifestElementName: "foundation-legacy") == nil)
  }
}
