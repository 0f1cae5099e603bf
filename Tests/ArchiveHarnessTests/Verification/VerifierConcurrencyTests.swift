import ArchiveCoder
import Testing

@testable import ArchiveHarness

/// Entries verified on several threads at once give the report one thread gives, in the same order.
@Suite("Verifier concurrency")
struct VerifierConcurrencyTests {
  /// The shipped manifests verified with the harness paths in process.
  static func report(concurrency: Int) -> VerificationReport {
    let registry = ManifestCase.registry
    let verifier = Verifier(
      registry: registry, runner: InProcessPathRunner(registry: registry),
      paths: [.legacy, .secure], concurrency: concurrency)
    return verifier.verify(ManifestCase.loaded.manifests, archivesDirectory: ManifestCase.archives)
  }

  @Test("Four threads give the same cases as one, in manifest and entry order")
  func fourThreadsMatchOne() {
    let serial = Self.report(concurrency: 1)
    let parallel = Self.report(concurrency: 4)
    #expect(serial.cases.count == ManifestCase.all.count)
    #expect(parallel.cases.map(\.archive) == serial.cases.map(\.archive))
    #expect(parallel == serial)
  }

  @Test("A concurrency below one is taken as one")
  func concurrencyBelowOneIsOne() {
    let registry = ManifestCase.registry
    let verifier = Verifier(
      registry: registry, runner: InProcessPathRunner(registry: registry), concurrency: 0)
    #expect(verifier.concurrency == 1)
  }
}
