import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

#if canImport(Glibc)
  import Glibc
#endif

/// Several paths of one archive in one worker request: each path's outcome is the one it gets
/// alone, and a trap still costs only the path it happened on.
@Suite("Decode paths batched in one worker request")
struct WorkerPathBatchTests {
  static let rename = "ProfilesApp.*=ProfileKit.*"

  static func supervisor(registryName: String = "default") throws -> WorkerSupervisor {
    let url = try #require(CommandRunner.executable, "build the archive-harness product first")
    return WorkerSupervisor(executableURL: url, registryName: registryName)
  }

  /// Each path's outcome from its own request, in a supervisor of its own.
  static func alone(
    _ archive: [UInt8], paths: [DecodePath], allowedClasses: [String] = [],
    classMap: ClassNameMap, registryName: String = "default"
  ) throws -> [DecodeOutcome] {
    let supervisor = try supervisor(registryName: registryName)
    return try paths.map {
      try supervisor.decode(archive, path: $0, allowedClasses: allowedClasses, classMap: classMap)
    }
  }

  @Test("One request gives every path of an ordinary archive the outcome it gets alone")
  func ordinaryArchiveMatchesPathsAlone() throws {
    let classMap = try ClassNameMap(parsing: Self.rename)
    let archive = SampleArchives.memoArchive()
    let paths = DecodePath.allCases
    let supervisor = try Self.supervisor()
    let allowed = ["ProfileKit.Memo"]
    let batched = try supervisor.decode(
      archive, paths: paths, allowedClasses: allowed, classMap: classMap
    ).map { try $0.get() }
    #expect(
      batched
        == (try Self.alone(archive, paths: paths, allowedClasses: allowed, classMap: classMap)))
    #expect(batched.allSatisfy { $0.decodedValue?.className == "ProfileKit.Memo" })
    #expect(supervisor.workersStarted == 1)
  }

  @Test("A crash ends a batch at the path that crashed, with that path's signal")
  func crashEndsBatchAtItsPath() throws {
    let classMap = try ClassNameMap(parsing: Self.rename)
    let archive = try ForkServerTests.cyclicArchive()
    let supervisor = try Self.supervisor()
    let batched = try supervisor.decode(archive, paths: DecodePath.allCases, classMap: classMap)
      .map { try $0.get() }
    // legacy and secure reject the cycle; Foundation's legacy read overflows its stack.
    let alone = try Self.alone(
      archive, paths: [.legacy, .secure, .foundationLegacy], classMap: classMap)
    try #require(batched.count == 3, "no outcome after the path that crashed")
    #expect(Array(batched.prefix(2)) == Array(alone.prefix(2)))
    #expect(batched[2].crash?.signal == SIGSEGV)
    #expect(batched[2].crash?.signal == alone[2].crash?.signal)
    // The next archive decodes in a fresh worker.
    let next = try supervisor.decode(
      SampleArchives.memoArchive(), path: .foundationLegacy, classMap: classMap)
    #expect(next.decodedValue?.className == "ProfileKit.Memo")
  }

  @Test("A trapping init?(coder:) in a batch is its path's crash, with its last words")
  func trappingDecoderKeepsItsLastWords() throws {
    let archive = TypedMigrationWorkerTests.trappingArchive()
    let supervisor = try Self.supervisor(registryName: "ProfilesApp-1")
    let batched = try supervisor.decode(
      archive, paths: [.secure, .foundationLegacy], allowedClasses: ["ProfilesApp.UserProfile"]
    ).map { try $0.get() }
    try #require(batched.count == 2)
    let crash = try #require(batched[1].crash)
    #expect(crash.signal == SIGABRT)
    #expect(crash.detail.contains("Could not cast value of type 'Foundation.NSDictionary'"))
  }

  @Test("A runner asked for every path of each archive at once gives each path its own outcome")
  func runnerMatchesPathsAlone() throws {
    let url = try #require(CommandRunner.executable, "build the archive-harness product first")
    let runner = WorkerPathRunner(executable: url)
    let classMap = try ClassNameMap(parsing: Self.rename)
    let archives = [
      SampleArchives.memoArchive(), try ForkServerTests.cyclicArchive(),
      SampleArchives.memoArchive(), try ForkServerTests.cyclicArchive(),
    ]
    for archive in archives {
      let outcomes = try runner.outcomes(
        archive, paths: DecodePath.allCases, allowedClasses: [], classMap: classMap,
        topKeys: ["root"]
      ).map { try $0.get() }
      let alone = try Self.alone(archive, paths: DecodePath.allCases, classMap: classMap)
      #expect(outcomes.count == DecodePath.allCases.count)
      #expect(outcomes.map(\.kind) == alone.map(\.kind))
      #expect(outcomes.map(\.decodedValue) == alone.map(\.decodedValue))
      #expect(outcomes.map(\.rejection) == alone.map(\.rejection))
      #expect(outcomes.map { $0.crash?.signal } == alone.map { $0.crash?.signal })
    }
  }

  @Test("A runner asked for a subset of paths, in any order, answers those paths in that order")
  func runnerAnswersTheSubsetAsked() throws {
    let url = try #require(CommandRunner.executable, "build the archive-harness product first")
    let runner = WorkerPathRunner(executable: url)
    let classMap = try ClassNameMap(parsing: Self.rename)
    let archive = SampleArchives.memoArchive()
    let paths: [DecodePath] = [.foundationSecure, .legacy]
    let outcomes = try runner.outcomes(
      archive, paths: paths, allowedClasses: ["ProfileKit.Memo"], classMap: classMap,
      topKeys: ["root"]
    ).map { try $0.get() }
    let alone = try Self.alone(
      archive, paths: paths, allowedClasses: ["ProfileKit.Memo"], classMap: classMap)
    #expect(outcomes == alone)
  }
}
