import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// The shipped JSON Schemas beside the enums and the manifest schema they must agree with.
@Suite("JSON schemas and vocabulary")
struct SchemaVocabularyTests {
  private static func schema(_ name: JSONSchemas.Name) throws -> JSONDocument {
    try JSONSchemas.schema(name)
  }

  private static func strings(_ document: JSONDocument?) -> [String] {
    guard case .array(let elements)? = document else { return [] }
    return elements.compactMap { if case .string(let text) = $0 { text } else { nil } }
  }

  private static func memberNames(_ document: JSONDocument?) -> Set<String> {
    guard case .object(let members)? = document else { return [] }
    return Set(members.keys)
  }

  /// The `type` constants of a `oneOf` of typed objects.
  private static func typeConstants(_ document: JSONDocument?) -> [String] {
    guard case .array(let alternatives)? = document?["oneOf"] else { return [] }
    return alternatives.compactMap {
      if case .string(let name)? = $0["properties"]?["type"]?["const"] { name } else { nil }
    }
  }

  @Test(
    "The decode, verify and migration schemas list every RejectionCategory, in order",
    arguments: [JSONSchemas.Name.decode, .verify, .migrationPlan, .migrationReport])
  func rejectionCategories(name: JSONSchemas.Name) throws {
    let category = try Self.schema(name)["$defs"]?["RejectionCategory"]?["enum"]
    #expect(Self.strings(category) == RejectionCategory.allCases.map(\.rawValue))
  }

  @Test("The decode schema's paths are the decode paths")
  func decodePaths() throws {
    let paths = try Self.schema(.decode)["properties"]?["paths"]?["properties"]
    #expect(Self.memberNames(paths) == Set(DecodePath.allCases.map(\.rawValue)))
  }

  @Test("The verify schema's paths are the structure check, the decode paths and the privacy scan")
  func verifyPaths() throws {
    let paths = try Self.schema(.verify)["$defs"]?["Case"]?["properties"]?["paths"]?["properties"]
    let checked = [CheckedPath.structure, .privacy] + DecodePath.allCases.map(CheckedPath.decode)
    #expect(Self.memberNames(paths) == Set(checked.map(\.description)))
  }

  @Test(
    "The migration schemas list every MigrationStep, in order",
    arguments: [JSONSchemas.Name.migrationPlan, .migrationReport])
  func migrationSteps(name: JSONSchemas.Name) throws {
    let steps = try Self.schema(name)["$defs"]?["MigrationStep"]?["enum"]
    #expect(Self.strings(steps) == MigrationStep.allCases.map(\.rawValue))
  }

  @Test("The decode and verify schemas describe decoded objects alike")
  func sharedDefinitions() throws {
    guard case .object(let decode)? = try Self.schema(.decode)["$defs"],
      case .object(let verify)? = try Self.schema(.verify)["$defs"]
    else {
      Issue.record("a schema has no $defs")
      return
    }
    let shared = Set(decode.keys).intersection(verify.keys)
    #expect(shared.contains("DecodedValue"))
    for name in shared.sorted() {
      #expect(decode[name] == verify[name], "$defs/\(name) differs")
    }
  }

  @Test("The verify schema's expected values are the manifest schema's expectation elements")
  func expectationElements() throws {
    let xsd = try String(
      contentsOf: Corpus.packageRoot.appendingPathComponent(ManifestSchema.relativePath),
      encoding: .utf8)
    let start = try #require(xsd.range(of: "<xs:group name=\"Expectation\">"))
    let end = try #require(xsd.range(of: "</xs:group>", range: start.upperBound..<xsd.endIndex))
    let elements = try TextPattern.captures(
      #"<xs:element name="(\w+)""#, in: xsd[start.upperBound..<end.lowerBound])
    let expected = try Self.schema(.verify)["$defs"]?["ExpectedValue"]
    #expect(Self.typeConstants(expected) == elements)
  }
}
