import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What keeps a worker from growing without bound: Foundation's paths screened by the
/// harness's own reader first, and an address-space limit on every worker.
@Suite("Worker limits: the Foundation screen and the memory limit")
struct WorkerLimitsTests {
  /// NSArrays each holding the next twice: 2^levels paths to one string.
  static func doublingArchive(levels: Int) -> [UInt8] {
    var builder = ArchiveBuilder()
    var next = builder.string("leaf")
    for _ in 0..<levels { next = builder.array([next, next]) }
    builder.setRoot(next)
    return builder.bytes()
  }

  /// An archive of crash-test-harness's Ballast, whose decoder allocates `mebibytes` MiB.
  static func ballast(mebibytes: Int64) -> [UInt8] {
    var builder = ArchiveBuilder()
    builder.setRoot(
      builder.object("crash_test_harness.Ballast", [("mebibytes", .integer(mebibytes))]))
    return builder.bytes()
  }

  @Test("A reference bomb is screened from Foundation: limit-exceeded at root")
  func referenceBombIsScreened() throws {
    let screen = try #require(
      FoundationScreen.check(Self.doublingArchive(levels: 40), topKeys: ["root"]))
    #expect(screen.category == .limitExceeded)
    #expect(screen.keyPath == "root")
    let rejection = screen.rejection(for: .foundationLegacy)
    #expect(rejection.message.hasPrefix("foundation-legacy: root: shared references expand"))
    #expect(
      rejection.message.hasSuffix(
        "not run on Foundation: the harness's reader refused the archive first"))
  }

  @Test("A graph within the expansion limit is not screened")
  func smallGraphIsNotScreened() {
    #expect(FoundationScreen.check(Self.doublingArchive(levels: 10), topKeys: ["root"]) == nil)
  }

  @Test("A property list that is no archive is screened with the reader's category and place")
  func nonArchiveIsScreened() throws {
    let plain = BinaryPropertyListWriter().write(
      .dictionary(PropertyListDictionary([("volume", .integer(7))])))
    let screen = try #require(FoundationScreen.check(plain, topKeys: ["root"]))
    #expect(screen.category == .malformed)
    #expect(screen.keyPath == "$archiver")
    #expect(screen.detail.contains("missing-archiver"))
  }

  @Test("A runner rejects a bomb's Foundation paths without starting any worker")
  func runnerScreensWithoutWorker() {
    // No executable there: any path that needs a worker does not run.
    let runner = WorkerPathRunner(executable: URL(fileURLWithPath: "/nonexistent/harness"))
    let results = runner.outcomes(
      Self.doublingArchive(levels: 40), paths: DecodePath.allCases,
      allowedClasses: ["NSArray", "NSString"], classMap: .empty, topKeys: ["root"])
    #expect(results.count == 4)
    for (path, result) in zip(DecodePath.allCases, results) {
      if path.isFoundation {
        #expect((try? result.get())?.rejection?.category == .limitExceeded, "\(path): \(result)")
      } else {
        #expect((try? result.get()) == nil, "\(path) needs a worker: \(result)")
      }
    }
    let single = Result { () throws(WorkerProtocolError) in
      try runner.outcome(
        Self.doublingArchive(levels: 40), path: .foundationSecure, allowedClasses: [],
        classMap: .empty, topKeys: ["root"])
    }
    #expect((try? single.get())?.rejection?.category == .limitExceeded, "\(single)")
  }

  @Test("The memory limit is 1 GiB unless the variable gives MiB within its range")
  func memoryLimitParses() {
    #expect(WorkerMemoryLimit.parse(nil).mebibytes == 1024)
    #expect(WorkerMemoryLimit.parse("2048").mebibytes == 2048)
    #expect(WorkerMemoryLimit.parse("64").mebibytes == 64)
    #expect(WorkerMemoryLimit.parse("63").mebibytes == 1024)
    #expect(WorkerMemoryLimit.parse("lots").mebibytes == 1024)
    #expect(WorkerMemoryLimit(mebibytes: 256).bytes == 256 << 20)
  }

  #if os(Linux)
    // Workers set the limit on Linux only; elsewhere no death is its doing.
    @Test("Only a death with a runtime's out-of-memory words is the memory limit's doing")
    func exhaustionIsRecognised() {
      let limit = WorkerMemoryLimit(mebibytes: 256)
      let swift = "Fatal error: failed to allocate 2147483680 bytes of memory with alignment 8"
      #expect(limit.explains(CrashReport(signal: SIGABRT, detail: swift)))
      #expect(limit.explains(CrashReport(signal: SIGABRT, detail: "terminate: std::bad_alloc")))
      #expect(!limit.explains(CrashReport(signal: SIGKILL, timedOut: true, detail: swift)))
      #expect(!limit.explains(CrashReport(signal: SIGILL, detail: "Fatal error: boom")))
      #expect(!limit.explains(CrashReport(signal: 0, detail: swift)))
    }

    @Test("A decode that allocates past the limit is limit-exceeded, and the next one decodes")
    func decodePastTheLimit() throws {
      let url = try #require(CommandRunner.executable(named: "crash-test-harness"))
      let supervisor = WorkerSupervisor(
        executableURL: url, memoryLimit: WorkerMemoryLimit(mebibytes: 256))
      let allowed = ["crash_test_harness.Ballast"]
      let hog = try supervisor.decode(
        Self.ballast(mebibytes: 2048), path: .secure, allowedClasses: allowed)
      let rejection = try #require(hog.rejection, "\(hog)")
      #expect(rejection.category == .limitExceeded)
      #expect(
        rejection.message.hasPrefix(
          "secure: the decode worker ran out of its memory limit of 256 MiB"))
      let small = try supervisor.decode(
        Self.ballast(mebibytes: 8), path: .secure, allowedClasses: allowed)
      #expect(small.decodedValue?.className == "crash_test_harness.Ballast", "\(small)")
    }

    @Test("A record whose decode runs its worker out of memory is refused as limit-exceeded")
    func migrationPastTheLimit() throws {
      let url = try #require(CommandRunner.executable(named: "crash-test-harness"))
      let supervisor = WorkerSupervisor(
        executableURL: url, memoryLimit: WorkerMemoryLimit(mebibytes: 256))
      let results = try supervisor.migrate(
        [Self.ballast(mebibytes: 8), Self.ballast(mebibytes: 2048), Self.ballast(mebibytes: 8)],
        classMap: .empty, allowedClasses: ["crash_test_harness.Ballast"])
      #expect(results.count == 3)
      #expect(results[0] == .unchanged, "\(results)")
      guard case .refused(let refusal) = results[1] else {
        Issue.record("the 2 GiB record was not refused: \(results[1])")
        return
      }
      #expect(refusal.cause == .rejected(.limitExceeded))
      #expect(refusal.reason.contains("memory limit of 256 MiB"), "\(refusal)")
      #expect(results[2] == .unchanged)
    }
  #endif
}
