import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// The manifest's part in anonymization: `<reviewed>` elements, and sha256 updates after an archive is rewritten.
@Suite("Manifest reviews and checksum updates")
struct ManifestPrivacyTests {
  /// A temporary archives folder holding `a.archive`, and its checksum.
  static func archives() throws -> (folder: String, sha: String) {
    let folder = try ManifestTestSupport.temporaryDirectory()
    let bytes = Array("archive bytes".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/a.archive"))
    return (folder, SHA256Checksum.hash(bytes).hexadecimal)
  }

  @Test("A reviewed element gives the entry a review with its key path, detector, reason and place")
  func readsReviews() throws {
    let (folder, sha) = try Self.archives()
    let text = ManifestTestSupport.manifest(
      """
        <archive path="a.archive" sha256="\(sha)" topKey="other">
          <string key="name">x</string>
          <reviewed keyPath="support.email" detector="email" reason="the public support address"/>
          <reviewed keyPath="$top.root.items[*].id" reason="order numbers"/>
        </archive>
      """)
    let result = try ManifestTestSupport.load(text, archivesDirectory: folder)
    #expect(ManifestTestSupport.lines(result).isEmpty)
    let reviews = try #require(result.manifest?.archives.first?.reviewed)
    #expect(reviews.count == 2)
    #expect(
      reviews[0].keyPath
        == ArchiveKeyPath(topKey: "other", components: [.key("support"), .key("email")]))
    #expect(reviews[0].detector == "email")
    #expect(reviews[0].reason == "the public support address")
    #expect(reviews[0].location.line == 6)
    #expect(reviews[1].keyPath?.topKey == "root")
    #expect(reviews[1].detector == nil)
  }

  @Test("A reviewed element without a reason is refused by the schema")
  func refusesReviewWithoutReason() throws {
    let (folder, sha) = try Self.archives()
    let text = ManifestTestSupport.manifest(
      """
        <archive path="a.archive" sha256="\(sha)">
          <reviewed keyPath="name"/>
        </archive>
      """)
    let result = try ManifestTestSupport.load(text, archivesDirectory: folder)
    #expect(result.diagnostics.contains { $0.category == .schema && $0.location.line == 5 })
  }

  @Test("A reviewed element with an unknown detector is refused by the schema")
  func refusesUnknownDetector() throws {
    let (folder, sha) = try Self.archives()
    let text = ManifestTestSupport.manifest(
      """
        <archive path="a.archive" sha256="\(sha)">
          <reviewed keyPath="name" detector="ssn" reason="checked"/>
        </archive>
      """)
    let result = try ManifestTestSupport.load(text, archivesDirectory: folder)
    #expect(result.diagnostics.contains { $0.category == .schema })
  }

  @Test("A reviewed element whose reason is only white space is an error at the reason")
  func refusesBlankReason() throws {
    let (folder, sha) = try Self.archives()
    let text = ManifestTestSupport.manifest(
      """
        <archive path="a.archive" sha256="\(sha)">
          <reviewed keyPath="name" reason="   "/>
        </archive>
      """)
    let lines = ManifestTestSupport.lines(
      try ManifestTestSupport.load(text, archivesDirectory: folder))
    #expect(lines.contains { $0.hasPrefix("5:") && $0.contains("needs a reason") })
  }

  @Test("A reviewed element with a malformed key path is an error at the key path")
  func refusesMalformedReviewPath() throws {
    let (folder, sha) = try Self.archives()
    let text = ManifestTestSupport.manifest(
      """
        <archive path="a.archive" sha256="\(sha)">
          <reviewed keyPath="items[" reason="checked"/>
        </archive>
      """)
    let result = try ManifestTestSupport.load(text, archivesDirectory: folder)
    #expect(
      ManifestTestSupport.lines(result).contains {
        $0.hasPrefix("5:") && $0.contains("malformed key path")
      })
    #expect(result.manifest?.archives.first?.reviewed.first?.keyPath == nil)
  }

  @Test("Reviews are declared in the schema after the expectations, as many as needed")
  func schemaDeclaresReviews() {
    #expect(ManifestSchema.builtInXSD.contains(#"<xs:element name="reviewed" type="m:Reviewed""#))
  }

  @Test("A checksum update rewrites the listed entries' sha256 and keeps every other byte")
  func updatesChecksums() throws {
    let old = String(repeating: "a", count: 64)
    let new = String(repeating: "b", count: 64)
    let text = ManifestTestSupport.manifest(
      """
        <!-- keep this comment -->
        <archive path="v1/a.archive"   sha256='\(old.uppercased())' maxSize="10">
          <string key="name">x</string>
        </archive>
        <archive path="v1/b.archive" sha256="\(new)"/>
      """)
    let update = ManifestAuthor().updateChecksums(
      existingText: text, file: "m.xml",
      checksums: ["./v1/a.archive": new, "v1/b.archive": new, "v1/c.archive": old])
    #expect(update.text == text.replacingOccurrences(of: old.uppercased(), with: new))
    #expect(update.updated == ["./v1/a.archive"])
    #expect(update.unchanged == ["v1/b.archive"])
    #expect(update.unlisted == ["v1/c.archive"])
  }

  @Test("A checksum update of a manifest that does not read changes nothing and says why")
  func refusesUnreadableManifest() {
    let update = ManifestAuthor().updateChecksums(
      existingText: "<manifest", file: "m.xml",
      checksums: ["a.archive": ManifestTestSupport.zeroSHA])
    #expect(update.text.isEmpty)
    #expect(!update.diagnostics.isEmpty)
  }
}
