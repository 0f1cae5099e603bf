import ArchiveCoder
import Foundation
import HarnessTestSupport
import ProfileKit
import Testing
import _ArchiveHarnessSystem

@testable import ArchiveHarness

#if canImport(Glibc)
  import Glibc
#endif

/// Typed migration in decode workers: the app's `init?(coder:)` runs in a child process, many
/// archives per frame, and a trap costs one archive.
@Suite("Typed migration in decode workers")
struct TypedMigrationWorkerTests {
  static let allowed = ["ProfileKit.UserProfile", "ProfileKit.Address"]

  /// A v1 profile whose address is a dictionary: v1's `as! Address` traps on it (SIGABRT).
  static func trappingArchive() -> [UInt8] {
    var archive = TestArchive()
    let fake = archive.dictionary([("street", archive.string("x"))])
    let profile = SampleArchives.profile(&archive, address: fake)
    return archive.bytes(root: profile)
  }

  @Test("A batch migrated in a worker gives the results of the same migration in process")
  func workerMatchesInProcess() throws {
    let url = try #require(CommandRunner.executable)
    let supervisor = WorkerSupervisor(executableURL: url)
    let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
    let archives = [
      SampleArchives.profileArchive(), SampleArchives.profileArchive(module: "ProfileKit"),
      Array(SampleArchives.profileArchive().prefix(30)), SampleArchives.memoArchive(),
    ]
    let inWorker = try supervisor.migrate(archives, classMap: map, allowedClasses: Self.allowed)
    let inProcess = archives.map {
      TypedMigration(
        registry: ClassRegistry(modelClasses: ProfileModel.classes), classMap: map,
        allowedClasses: Self.allowed
      ).migrate($0)
    }
    #expect(inWorker == inProcess)
    guard case .rewritten(_, let className) = inWorker[0] else {
      Issue.record("the v1 profile was not rewritten: \(inWorker[0])")
      return
    }
    #expect(className == "ProfileKit.UserProfile")
    #expect(inWorker[1] == .unchanged)
    #expect(supervisor.workersStarted == 1, "one worker for the whole batch")
  }

  @Test("A trapping init costs its archive alone: crashed with the signal, the rest answered")
  func trapCostsOneArchive() throws {
    let url = try #require(CommandRunner.executable)
    // The sample's v1 classes, whose init force-casts the address.
    let version1 = WorkerSupervisor(executableURL: url, registryName: "ProfilesApp-1")
    let archives = [
      SampleArchives.profileArchive(), Self.trappingArchive(), SampleArchives.profileArchive(),
      Self.trappingArchive(), SampleArchives.profileArchive(),
    ]
    let results = try version1.migrate(
      archives, classMap: .empty, allowedClasses: ["ProfilesApp.UserProfile"])
    #expect(results.count == 5)
    for index in [1, 3] {
      guard case .crashed(let crash) = results[index] else {
        Issue.record("archive \(index) did not crash: \(results[index])")
        continue
      }
      #expect(crash.signal == SIGABRT)
      #expect(crash.detail.contains("Could not cast value of type 'Foundation.NSDictionary'"))
    }
    for index in [0, 2, 4] {
      // v1 classes are not NSSecureCoding: the round trip refuses at the re-encode, no trap.
      guard case .refused(let refusal) = results[index] else {
        Issue.record("archive \(index): \(results[index])")
        continue
      }
      #expect(refusal.step == .encode)
    }
    // The first worker gathers answers and dies unattributed; the second answers each archive
    // on its own and dies on archive 1; the third on archive 3; the fourth answers archive 4.
    #expect(version1.workersStarted == 4, "a fresh worker after each death")
  }

  @Test("A worker that hangs on an archive is killed, and that archive is crashed, timed out")
  func hangIsTimedOut() throws {
    let script = try FakeWorker.script("answers the handshake, then sleeps", body: "exec sleep 30")
    defer { FakeWorker.remove(script) }
    let sleeper = WorkerSupervisor(
      executableURL: script, arguments: [], timeout: .milliseconds(500))
    let results = try sleeper.migrate(
      [SampleArchives.profileArchive()], classMap: .empty, allowedClasses: [])
    guard case .crashed(let crash) = results.first else {
      Issue.record("no crash: \(results)")
      return
    }
    #expect(crash.timedOut)
    #expect(crash.signal == SIGKILL)
  }

  @Test("A pool hands each concurrent caller its own supervisor")
  func poolIsolatesCallers() throws {
    let url = try #require(CommandRunner.executable)
    let pool = SupervisorPool(count: 2) { WorkerSupervisor(executableURL: url) }
    let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
    let results = Locked<[TypedMigrationResult?]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      let outcome = try? pool.withSupervisor { supervisor throws(WorkerProtocolError) in
        try supervisor.migrate(
          [SampleArchives.profileArchive()], classMap: map, allowedClasses: Self.allowed)
      }
      results.withLock { $0.append(outcome?.first) }
    }
    let values = results.withLock { $0 }
    #expect(values.count == 4)
    #expect(values.allSatisfy { if case .rewritten? = $0 { true } else { false } })
    #expect(pool.workersStarted <= 2)
  }
}
