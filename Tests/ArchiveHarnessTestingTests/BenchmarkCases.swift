import ArchiveHarnessTesting
import Foundation
import Testing

/// The cases `scripts/bench-cases` times; they run only when it sets `ARCHIVE_HARNESS_BENCH_ROOT`.
///
/// Nothing here measures time: the script times whole `swift test` runs and prints the figures.
@Suite("Benchmark cases (scripts/bench-cases)")
struct BenchmarkCases {
  private static let environment = ProcessInfo.processInfo.environment
  private static let root = environment["ARCHIVE_HARNESS_BENCH_ROOT"]
  private static let mode = environment["ARCHIVE_HARNESS_BENCH_MODE"] ?? "worker"

  private static let cases: [HarnessCase] = {
    guard let root else { return [] }
    return Fixture.project(
      root: URL(fileURLWithPath: root), worker: mode == "in-process" ? .inProcess : Fixture.worker
    ).cases
  }()

  @Test(
    "Every generated entry, through the worker or in process",
    .enabled(if: root != nil && mode != "exit-test"), arguments: cases)
  func entry(_ harnessCase: HarnessCase) {
    harnessCase.verify()
  }

  // Exit tests came with Swift 6.2 (Xcode 26); the package's tools version is 6.1. They run where
  // a test can start a process: macOS, Linux and Windows, not iOS.
  #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test(
      "One empty exit test per entry: the least an exit-test design costs",
      .enabled(if: root != nil && mode == "exit-test"), arguments: cases)
    func exitTest(_ harnessCase: HarnessCase) async {
      await #expect(processExitsWith: .success) {}
    }
  #endif
}
