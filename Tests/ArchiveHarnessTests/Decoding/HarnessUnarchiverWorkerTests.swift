import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

#if canImport(Glibc)
  import Glibc
#endif

/// The harness coder's rules where they need a worker: a user init that traps, and the harness
/// paths across the worker's frame.
@Suite("Harness coder rules in the worker")
struct HarnessUnarchiverWorkerTests {
  @Test("Rule: a user init that traps is contained by the worker: crashed")
  func userInitTrapIsContained() throws {
    let url = try #require(CommandRunner.executable)
    let version1 = WorkerSupervisor(executableURL: url, registryName: "ProfilesApp-1")
    var archive = TestArchive()
    let fake = archive.dictionary([("street", archive.string("x"))])
    let profile = SampleArchives.profile(&archive, address: fake)
    let outcome = try version1.decode(archive.bytes(root: profile), path: .legacy)
    let crash = try #require(outcome.crash)
    #expect(crash.signal == SIGABRT)
    let valid = try version1.decode(SampleArchives.profileArchive(), path: .legacy)
    #expect(valid.decodedValue?.className == "ProfilesApp.UserProfile")
  }

  @Test("The harness paths run in the worker too")
  func harnessPathsInWorker() throws {
    let url = try #require(CommandRunner.executable)
    let supervisor = WorkerSupervisor(executableURL: url)
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .secure, allowedClasses: ["ProfileKit.Memo"],
      classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
    #expect(outcome.rejection?.category == .wrongRootClass)
  }
}
