import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// The harness coder against Foundation's unarchiver over the shared corpus, in both modes.
///
/// Cases are the corpus's non-broken keyed archives whose classes the Foundation registry, with
/// every Apple-platform stand-in, knows, read on every top key; the secure read allows the
/// archive's classes and the classes of inline top values. Outcomes agree when their kinds agree
/// and decoded values are equal; known disagreements are listed with reasons in
/// ``CorpusKnownDisagreements``.
@Suite("Corpus: harness coder against the Foundation reference path")
struct CorpusComparisonTests {
  static let supervisor: WorkerSupervisor? = CommandRunner.executable.map {
    WorkerSupervisor(executableURL: $0)
  }

  @Test("The corpus folder is found and has cases") func corpusHasCases() {
    #expect(FileManager.default.fileExists(atPath: CorpusCase.folder.path))
    #expect(CorpusCase.all.count >= 60)
  }

  // CorpusKnownDisagreements was measured against corelibs; Apple's unarchiver differs.
  @Test(
    "Harness and Foundation agree, or the disagreement is listed",
    .enabled(
      if: FoundationImplementation.isCorelibs, "pins swift-corelibs-foundation's behaviour"),
    arguments: CorpusCase.all)
  func harnessAgreesWithFoundation(_ corpusCase: CorpusCase) throws {
    let supervisor = try #require(Self.supervisor, "build the archive-harness product first")
    let bytes = try corpusCase.bytes()
    let decoder = HarnessDecoder(registry: CorpusCase.registry)
    let pairs: [(DecodePath, DecodePath)] = [
      (.legacy, .foundationLegacy), (.secure, .foundationSecure),
    ]
    for (harnessPath, foundationPath) in pairs {
      let harness = decoder.outcome(
        bytes, path: harnessPath, allowedClasses: corpusCase.classes,
        topKeys: corpusCase.topKeys)
      let foundation = try supervisor.decode(
        bytes, path: foundationPath, allowedClasses: corpusCase.classes,
        topKeys: corpusCase.topKeys)
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
