import ArchiveFormat
import ArchiveHarness
import Testing

/// What a case says of itself: its status and whether every path ran.
@Suite("A verification case")
struct VerificationCaseTests {
  private func verificationCase(_ outcomes: [OutcomeKind]) -> VerificationCase {
    VerificationCase(
      manifest: "m.xml", archive: "a.archive", location: Place(parsing: "m.xml:3:3"),
      paths: zip(DecodePath.allCases, outcomes).map { path, outcome in
        PathResult(path: .decode(path), outcome: outcome, matches: true)
      }, expectations: [])
  }

  @Test("A case whose paths all decoded ran every path")
  func everyPathRan() {
    #expect(verificationCase([.decoded, .decoded, .decoded, .decoded]).ranEveryPath)
  }

  @Test("A case with one path not run did not run every path")
  func onePathNotRun() {
    #expect(!verificationCase([.decoded, .notRun, .decoded, .decoded]).ranEveryPath)
  }

  @Test("A case whose paths were refused or crashed still ran every path")
  func refusalsRan() {
    #expect(verificationCase([.rejected, .crashed, .decoded, .decoded]).ranEveryPath)
  }
}
