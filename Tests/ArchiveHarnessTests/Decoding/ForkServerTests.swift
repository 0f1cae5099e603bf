import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

#if canImport(Glibc)
  import Glibc
#endif

/// The decode worker as a fork server (Linux): a crash costs a fork, not a launch, and is
/// reported exactly as a launched worker's crash is.
@Suite(
  "Worker fork server",
  .enabled(if: WorkerSupervisor.forkServerSupported, "fork servers are Linux only"))
struct ForkServerTests {
  /// An archive whose cycle makes corelibs' unarchiver overflow its stack (SIGSEGV).
  static func cyclicArchive() throws -> [UInt8] {
    let url = Corpus.packageRoot.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/profiles-list-cyclic.archive")
    return [UInt8](try Data(contentsOf: url))
  }

  /// A decode that succeeds: the sample memo through the module rename.
  static func decodeMemo(_ supervisor: WorkerSupervisor) throws -> DecodeOutcome {
    try supervisor.decode(
      SampleArchives.memoArchive(), path: .foundationLegacy,
      classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
  }

  /// A decode that crashes: the cyclic list through the module rename (SIGSEGV).
  static func decodeCyclic(_ supervisor: WorkerSupervisor) throws -> DecodeOutcome {
    try supervisor.decode(
      try cyclicArchive(), path: .foundationLegacy,
      classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
  }

  static func supervisor(forkServer: Bool = true, registryName: String = "default") throws
    -> WorkerSupervisor
  {
    let url = try #require(CommandRunner.executable, "build the archive-harness product first")
    return WorkerSupervisor(executableURL: url, registryName: registryName, forkServer: forkServer)
  }

  @Test("A crash in a forked worker is reported with its signal; the next archive decodes")
  func crashThenDecode() throws {
    let supervisor = try Self.supervisor()
    #expect(supervisor.forkServer)
    let crashed = try Self.decodeCyclic(supervisor)
    let crash = try #require(crashed.crash)
    #expect(crash.signal == SIGSEGV)
    #expect(!crash.timedOut)
    let next = try Self.decodeMemo(supervisor)
    #expect(next.decodedValue?.className == "ProfileKit.Memo")
    #expect(supervisor.workersStarted == 2, "a fresh worker after the crash")
    #expect(supervisor.workerLaunches == 1, "forked, not launched")
  }

  @Test("Launches stay at one across several crashes, each reported with its own signal")
  func launchesStayOne() throws {
    // The sample's v1 classes, whose init force-casts the address: SIGABRT.
    let supervisor = try Self.supervisor(registryName: "ProfilesApp-1")
    let trapping = TypedMigrationWorkerTests.trappingArchive()
    for _ in 0..<3 {
      let trapped = try supervisor.decode(trapping, path: .foundationLegacy)
      #expect(trapped.crash?.signal == SIGABRT)
      #expect(
        trapped.crash?.detail.contains("Could not cast value of type 'Foundation.NSDictionary'")
          == true)
      let cyclic = try supervisor.decode(try Self.cyclicArchive(), path: .foundationLegacy)
      #expect(cyclic.crash?.signal == SIGSEGV)
    }
    let decoded = try supervisor.decode(SampleArchives.profileArchive(), path: .legacy)
    #expect(decoded.decodedValue != nil)
    #expect(supervisor.workersStarted == 7)
    #expect(supervisor.workerLaunches == 1)
  }

  @Test("A typed migration's traps are contained in forked workers, one launch in all")
  func migrationTrapsAreForked() throws {
    let supervisor = try Self.supervisor(registryName: "ProfilesApp-1")
    let trapping = TypedMigrationWorkerTests.trappingArchive()
    let archives = [
      SampleArchives.profileArchive(), trapping, SampleArchives.profileArchive(), trapping,
      SampleArchives.profileArchive(),
    ]
    let results = try supervisor.migrate(
      archives, classMap: .empty, allowedClasses: ["ProfilesApp.UserProfile"])
    #expect(results.count == 5)
    for index in [1, 3] {
      guard case .crashed(let crash) = results[index] else {
        Issue.record("archive \(index) did not crash: \(results[index])")
        continue
      }
      #expect(crash.signal == SIGABRT)
    }
    #expect(supervisor.workersStarted == 4)
    #expect(supervisor.workerLaunches == 1)
  }

  @Test("Outcomes with the fork server equal those without it, on every shipped archive")
  func outcomesMatchLaunchedWorkers() throws {
    let forked = try Self.supervisor()
    let launched = try Self.supervisor(forkServer: false)
    let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
    let allowed = ["ProfileKit.UserProfile", "ProfileKit.Address", "ProfileKit.Memo", "NSArray"]
    let folder = Corpus.packageRoot.appendingPathComponent("LegacyArchives")
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".archive") }.sorted()
    #expect(files.count >= 20)
    var crashes = 0
    for file in files {
      let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
      for path in DecodePath.allCases {
        let expected = try launched.decode(
          bytes, path: path, allowedClasses: allowed, classMap: map)
        let actual = try forked.decode(bytes, path: path, allowedClasses: allowed, classMap: map)
        #expect(actual == expected, "\(file) \(path.rawValue)")
        if actual.crash != nil { crashes += 1 }
      }
    }
    #expect(crashes > 0, "the shipped archives crash corelibs on some paths")
    #expect(forked.workerLaunches == 1)
    #expect(launched.workerLaunches == crashes + 1)
  }

  @Test("With forkServer off, every crash launches a fresh worker, as before")
  func fallbackLaunchesWorkers() throws {
    let supervisor = try Self.supervisor(forkServer: false)
    #expect(!supervisor.forkServer)
    let crashed = try Self.decodeCyclic(supervisor)
    #expect(crashed.crash?.signal == SIGSEGV)
    let next = try Self.decodeMemo(supervisor)
    #expect(next.decodedValue?.className == "ProfileKit.Memo")
    #expect(supervisor.forkServerProcessIdentifier == nil)
    #expect(supervisor.workersStarted == 2)
    #expect(supervisor.workerLaunches == 2)
  }

  @Test("A killed fork server is replaced by a fresh launch; the next archive decodes")
  func killedServerIsRelaunched() throws {
    let supervisor = try Self.supervisor()
    let first = try Self.decodeMemo(supervisor)
    #expect(first.decodedValue?.className == "ProfileKit.Memo")
    let server = try #require(supervisor.forkServerProcessIdentifier)
    let child = try #require(supervisor.forkedWorkerProcessIdentifier)
    #expect(kill(server, SIGKILL) == 0)
    #expect(Self.waitUntilEnded(child), "the worker dies with its server (PR_SET_PDEATHSIG)")
    let next = try Self.decodeMemo(supervisor)
    #expect(next.decodedValue?.className == "ProfileKit.Memo")
    #expect(supervisor.workerLaunches == 2)
    #expect(supervisor.forkServerProcessIdentifier != server)
  }

  /// Waits, for at most 20 seconds, until a process is gone or a zombie; false if it still runs.
  static func waitUntilEnded(_ process: Int32) -> Bool {
    for _ in 0..<2000 {
      guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
        let state = stat.split(separator: ")").last?.split(separator: " ").first
      else { return true }
      if state == "Z" || state == "X" { return true }
      usleep(10_000)
    }
    return false
  }

  @Test("A shut-down supervisor's next archive launches a fresh fork server")
  func shutdownThenDecode() throws {
    let supervisor = try Self.supervisor()
    _ = try Self.decodeMemo(supervisor)
    supervisor.shutdown()
    #expect(supervisor.forkServerProcessIdentifier == nil)
    let next = try Self.decodeMemo(supervisor)
    #expect(next.decodedValue?.className == "ProfileKit.Memo")
    #expect(supervisor.workerLaunches == 2)
  }
}

/// A crashed worker leaves no core file: its memory holds archive contents, decrypted records
/// among them.
@Suite(
  "Decode workers write no core",
  .enabled(if: WorkerSupervisor.forkServerSupported, "reads /proc (Linux)"))
struct WorkerCoreDumpTests {
  /// The soft and hard core-file limits of a process, from `/proc/PID/limits`.
  static func coreLimits(of process: Int32) throws -> [Substring] {
    let limits = try String(contentsOfFile: "/proc/\(process)/limits", encoding: .utf8)
    let line = try #require(
      limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
    return Array(line.dropFirst("Max core file size".count).split(separator: " ").prefix(2))
  }

  @Test("The fork server and the worker it forks both have a core-file limit of 0")
  func coreLimitIsZero() throws {
    let supervisor = try ForkServerTests.supervisor()
    let decoded = try ForkServerTests.decodeMemo(supervisor)
    #expect(decoded.decodedValue?.className == "ProfileKit.Memo")
    let server = try #require(supervisor.forkServerProcessIdentifier)
    let child = try #require(supervisor.forkedWorkerProcessIdentifier)
    #expect(try Self.coreLimits(of: server) == ["0", "0"])
    #expect(try Self.coreLimits(of: child) == ["0", "0"])
  }

  @Test("A worker launched without a fork server has a core-file limit of 0")
  func launchedWorkerCoreLimitIsZero() throws {
    let supervisor = try ForkServerTests.supervisor(forkServer: false)
    _ = try ForkServerTests.decodeMemo(supervisor)
    let worker = try #require(supervisor.launchedWorkerProcessIdentifier)
    #expect(try Self.coreLimits(of: worker) == ["0", "0"])
  }
}

/// Decode workers run app code: a variable withheld (a store's `--key-env` key) is not in
/// their environment.
@Suite(
  "Decode workers' environment",
  .enabled(if: WorkerSupervisor.forkServerSupported, "reads /proc (Linux)"))
struct WorkerEnvironmentTests {
  /// The variable names in a process's `/proc/PID/environ`.
  static func variables(of process: Int32) throws -> Set<String> {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(process)/environ"))
    return Set(
      bytes.split(separator: 0).map {
        String(decoding: $0, as: UTF8.self).split(separator: "=", maxSplits: 1).first.map(
          String.init) ?? ""
      })
  }

  @Test("A withheld variable is in neither the fork server's nor its worker's environment")
  func withheldVariableIsScrubbed() throws {
    let name = "ARCHIVE_HARNESS_TEST_SECRET"
    setenv(name, "hunter2", 1)
    defer { unsetenv(name) }
    WorkerEnvironment.withhold(name)
    let supervisor = try ForkServerTests.supervisor()
    _ = try ForkServerTests.decodeMemo(supervisor)
    let server = try #require(supervisor.forkServerProcessIdentifier)
    let child = try #require(supervisor.forkedWorkerProcessIdentifier)
    #expect(!(try Self.variables(of: server)).contains(name))
    #expect(!(try Self.variables(of: child)).contains(name))
    #expect(try Self.variables(of: server).contains("PATH"))
  }
}
