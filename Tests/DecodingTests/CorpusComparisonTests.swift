import Decoding
import Foundation
import HarnessVocabulary
import Testing

/// The harness coder against Foundation's unarchiver over the shared corpus, in both modes.
///
/// Cases are the corpus's non-broken keyed archives whose classes the Foundation registry knows;
/// the secure read allows exactly the archive's classes. Outcomes agree when their kinds agree
/// and decoded values are equal; known disagreements are listed with reasons in
/// ``CorpusKnownDisagreements``.
@Suite("Corpus: harness coder against the Foundation reference path")
struct CorpusComparisonTests {
  static let supervisor: FoundationReferenceSupervisor? = WorkerBinary.url.map {
    FoundationReferenceSupervisor(executableURL: $0)
  }

  @Test("The corpus folder is found and has cases") func corpusHasCases() {
    #expect(FileManager.default.fileExists(atPath: CorpusCase.folder.path))
    #expect(CorpusCase.all.count >= 20)
  }

  @Test("Harness and Foundation agree, or the disagreement is listed", arguments: CorpusCase.all)
  func harnessAgreesWithFoundation(_ corpusCase: CorpusCase) throws {
    let supervisor = try #require(Self.supervisor, "build the archive-harness product first")
    let bytes = try corpusCase.bytes()
    let decoder = HarnessDecoder(registry: .foundation)
    let pairs: [(DecodePath, DecodePath)] = [
      (.legacy, .foundationLegacy), (.secure, .foundationSecure),
    ]
    for (harnessPath, foundationPath) in pairs {
      let harness = decoder.outcome(bytes, path: harnessPath, allowedClasses: corpusCase.classes)
      let foundation = try supervisor.decode(
        bytes, path: foundationPath, allowedClasses: corpusCase.classes)
      let agree =
        harness.kind == foundation.kind && harness.decodedValue == foundation.decodedValue
      let sideBySide = "harness \(harnessPath.rawValue): \(harness)\nfoundation: \(foundation)"
      if let reason = CorpusKnownDisagreements.reason(
        path: corpusCase.path, mode: harnessPath.rawValue)
      {
        #expect(
          !agree,
          "unexpected pass: remove the known disagreement (\(reason))\n\(sideBySide)")
      } else {
        #expect(agree, "disagreement\n\(sideBySide)")
      }
    }
  }
}
