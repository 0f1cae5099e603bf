import ArchiveFormat
import ArchiveHarness
import Testing

@Suite("What the passed cases read as")
struct ReadTallyTests {
  static func item(
    _ manifest: String, _ archive: String, legacy: PathResult, secure: PathResult
  ) -> VerificationCase {
    VerificationCase(
      manifest: manifest, archive: archive, location: Place(file: manifest, line: 1, column: 1),
      paths: [legacy, secure], expectations: [])
  }

  static let decoded = PathResult(path: .decode(.legacy), outcome: .decoded, matches: true)
  static func rejected(_ path: DecodePath, _ category: RejectionCategory) -> PathResult {
    PathResult(
      path: .decode(path), outcome: .rejected, category: .rejection(category),
      expected: .rejected(category), matches: true)
  }

  @Test("Decoded and expected rejections are counted apart, by category")
  func countsApart() {
    var tally = ReadTally()
    tally.add(
      Self.item(
        "a.xml", "1", legacy: Self.decoded,
        secure: PathResult(path: .decode(.secure), outcome: .decoded, matches: true)))
    for archive in ["2", "3"] {
      tally.add(
        Self.item(
          "a.xml", archive, legacy: Self.rejected(.legacy, .unmappedClass),
          secure: Self.rejected(.secure, .unmappedClass)))
    }
    #expect(tally.summary == "1 decoded, 2 rejected as expected (2 unmapped-class)")
    #expect(tally.manifestsWithNothingDecoded.isEmpty)
  }

  @Test("A manifest whose every entry is rejected is named, and the summary warns of it")
  func manifestWithNothingDecodedIsNamed() {
    var tally = ReadTally()
    tally.add(
      Self.item(
        "v1.xml", "1", legacy: Self.rejected(.legacy, .unmappedClass),
        secure: Self.rejected(.secure, .unmappedClass)))
    #expect(tally.manifestsWithNothingDecoded == ["v1.xml"])
    let text = TextReportWriter().closingText(
      notes: [], total: 1, counts: [.passed: 1], tally: tally)
    #expect(text.contains("warning: v1.xml: no entry decodes"), "\(text)")
    #expect(text.contains("passed: 0 decoded, 1 rejected as expected (1 unmapped-class)"))
  }
}
