import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// `<accepted key category reason/>`: the refusals a store manifest accepts, in the XSD and the model.
@Suite("Manifest accepted refusals")
struct AcceptedRefusalManifestTests {
  private static let user17 =
    #"  <accepted key="user_17" category="truncated" reason="written by 1.0's crash on save; the user re-enters it"/>"#

  @Test("An accepted refusal loads with its key, category, reason and place")
  func loadsAcceptedRefusal() throws {
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(Self.user17))
    #expect(result.diagnostics.isEmpty, "\(ManifestTestSupport.lines(result))")
    let manifest = try #require(result.manifest)
    let accepted = try #require(manifest.acceptedRefusals.first)
    #expect(manifest.acceptedRefusals.count == 1)
    #expect(accepted.key == "user_17")
    #expect(accepted.category == .truncated)
    #expect(accepted.reason == "written by 1.0's crash on save; the user re-enters it")
    #expect(accepted.location.description == "manifest.xml:4:3")
    #expect(accepted.keyLocation.description == "manifest.xml:4:13")
  }

  @Test("Accepted refusals go after migration and before the archives, in document order")
  func placeInSequence() throws {
    let body = """
        <migration/>
      \(Self.user17)
        <accepted key="nested/a.archive" category="class-not-allowed" reason="an old test fixture"/>
      """
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(body))
    #expect(result.diagnostics.isEmpty, "\(ManifestTestSupport.lines(result))")
    #expect(result.manifest?.acceptedRefusals.map(\.key) == ["user_17", "nested/a.archive"])
    #expect(result.manifest?.acceptedRefusals.last?.category == .classNotAllowed)
  }

  @Test("A key accepted twice is a semantic error at the second key, naming the first")
  func duplicateKey() throws {
    let body =
      Self.user17 + "\n"
      + #"  <accepted key="user_17" category="malformed" reason="again"/>"#
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(body))
    #expect(result.diagnostics.allSatisfy { $0.category == .semantic && $0.severity == .error })
    #expect(
      ManifestTestSupport.lines(result) == [
        "5:13: accepted refusal of key 'user_17' is already listed at manifest.xml:4:3"
      ])
  }

  @Test("An accepted refusal whose reason is only white space is an error at the reason")
  func blankReason() throws {
    let body = #"  <accepted key="user_17" category="truncated" reason="   "/>"#
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(body))
    #expect(
      ManifestTestSupport.lines(result) == [
        "4:48: an accepted refusal needs a reason, not white space"
      ])
  }

  @Test("An accepted refusal without a reason is a schema error")
  func missingReason() throws {
    let body = #"  <accepted key="user_17" category="truncated"/>"#
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(body))
    #expect(result.manifest == nil)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.category == .schema)
    #expect(diagnostic.location.line == 4)
    #expect(diagnostic.message.contains("reason"))
  }

  @Test("An accepted refusal with a category outside RejectionCategory is a schema error")
  func unknownCategory() throws {
    let body = #"  <accepted key="user_17" category="corrupt" reason="old"/>"#
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(body))
    #expect(result.manifest == nil)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.category == .schema)
    #expect(diagnostic.location.line == 4)
    #expect(diagnostic.message.contains("corrupt"))
  }

  @Test("An accepted refusal after an archive entry is a schema error")
  func afterArchiveRefused() throws {
    let body =
      #"  <archive path="a.archive" sha256="\#(ManifestTestSupport.zeroSHA)"/>"# + "\n"
      + Self.user17
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(body))
    #expect(result.manifest == nil)
    #expect(result.diagnostics.contains { $0.category == .schema && $0.location.line == 5 })
  }

  @Test("The schema documents the accepted element and each of its attributes")
  func documented() throws {
    let xsd = try String(contentsOfFile: ManifestTestSupport.schemaPath, encoding: .utf8)
    let element = try #require(xsd.range(of: #"<xs:element name="accepted""#))
    let afterElement = xsd[element.upperBound...]
    let end = try #require(afterElement.range(of: "</xs:element>"))
    #expect(afterElement[..<end.lowerBound].contains("<xs:documentation>"))
    let type = try #require(xsd.range(of: #"<xs:complexType name="AcceptedRefusal">"#))
    let body = xsd[type.upperBound...]
    let typeEnd = try #require(body.range(of: "</xs:complexType>"))
    let text = body[..<typeEnd.lowerBound]
    for name in ["key", "category", "reason"] {
      let attribute = try #require(text.range(of: "<xs:attribute name=\"\(name)\""), "\(name)")
      let rest = text[attribute.upperBound...]
      let close = try #require(rest.range(of: "</xs:attribute>"), "\(name) has no body")
      #expect(rest[..<close.lowerBound].contains("<xs:documentation>"), "\(name)")
    }
    #expect(text.contains(#"type="m:RejectionCategory""#))
  }
}
