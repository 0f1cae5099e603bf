import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// The detector names are one vocabulary: the Swift enum, the manifest schema and the JSON schema agree.
@Suite("Privacy vocabulary")
struct PrivacyVocabularyTests {
  @Test("The manifest schema's detectors are PersonalDataKind's cases, in order")
  func manifestSchemaAgrees() throws {
    let text = ManifestSchema.builtInXSD
    let start = try #require(text.range(of: #"<xs:simpleType name="PrivacyDetector">"#))
    let end = try #require(text[start.upperBound...].range(of: "</xs:simpleType>"))
    let values = try TextPattern.captures(
      #"value="([a-z0-9]+)""#, in: text[start.upperBound..<end.lowerBound])
    #expect(values == PersonalDataKind.allCases.map(\.rawValue))
  }

  @Test("The JSON schema's detectors and holders are the Swift enums' cases")
  func jsonSchemaAgrees() throws {
    let path = Corpus.packageRoot.appendingPathComponent("schemas/privacy-scan.schema.json")
    let data = try Data(contentsOf: path)
    let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let definitions = try #require(document["$defs"] as? [String: Any])
    let finding = try #require(definitions["Finding"] as? [String: Any])
    let properties = try #require(finding["properties"] as? [String: Any])
    let detector = try #require(properties["detector"] as? [String: Any])
    let holder = try #require(properties["holder"] as? [String: Any])
    #expect(detector["enum"] as? [String] == PersonalDataKind.allCases.map(\.rawValue))
    #expect(holder["enum"] as? [String] == PrivacyFinding.Holder.allCases.map(\.rawValue))
  }
}
