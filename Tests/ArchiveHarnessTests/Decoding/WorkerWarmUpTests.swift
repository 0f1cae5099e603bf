import ArchiveCoder
import ArchiveFormat
import Testing

@testable import ArchiveHarness

/// The fork server's warm-up, which fills the runtime's caches once before the first fork.
@Suite("Fork server warm-up")
struct WorkerWarmUpTests {
  @Test("The warm-up archive decodes on every path with a registry of no app classes")
  func warmUpDecodesOnEveryPath() {
    let registries = [HarnessWorker.defaultRegistryName: ClassRegistry()]
    #expect(WorkerWarmUp.run(registries: registries) == DecodePath.allCases.count)
  }
}
