import ArchiveHarness
import ArchiveHarnessTesting
import Foundation
import ProfileKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Crash containment under swift test")
struct CrashContainmentTests {
  @Test("An init?(coder:) that traps is a crashed outcome; the test process goes on")
  func trapIsContained() throws {
    let team = try TeamPackage.version1(legacyOutcome: "outcome=\"rejected\" category=\"crashed\"")
    defer { team.remove() }
    let project = team.version1Project()
    let harnessCase = try #require(project.cases.first)
    let result = try #require(harnessCase.result())
    let legacy = try #require(result.paths.first { $0.path == .decode(.legacy) })
    #expect(legacy.outcome == .crashed)
    #expect(legacy.category == .crash(.signal(SIGABRT)))
    #expect(harnessCase.check() == nil)
  }

  @Test("A trap the manifest does not expect fails the case with the signal and the fatal line")
  func unexpectedTrapFailsTheCase() throws {
    let team = try TeamPackage.version1(legacyOutcome: "outcome=\"decodes\"")
    defer { team.remove() }
    let project = team.version1Project()
    let harnessCase = try #require(project.cases.first)
    let error = try #require(harnessCase.check())
    let legacy = try #require(error.findings.map(\.text).first { $0.contains("legacy:") })
    #expect(legacy.contains("expected decodes, got crashed [SIGABRT]"))
    #expect(legacy.contains("Could not cast value"))
  }

  @Test("A worker that is not built: every path did not run, with the reason; never crashed")
  func missingWorkerIsNotRun() throws {
    let project = HarnessProject(
      worker: .buildProduct(named: "no-such-harness"), configuration: Fixture.configuration)
    let harnessCase = try #require(project.cases.first)
    let error = try #require(harnessCase.check())
    #expect(error.findings.count == DecodePath.allCases.count)
    #expect(
      error.findings.map(\.text).allSatisfy { $0.contains("got not-run [worker-unavailable]") })
    #expect(
      error.findings.map(\.text).allSatisfy { $0.contains("no executable 'no-such-harness'") })
    #expect(!error.description.contains("crashed"))
  }

  @Test("The test runner as the worker: not run, saying to name the harness executable")
  func testRunnerWorkerIsNotRun() throws {
    let project = HarnessProject(worker: .runningExecutable, configuration: Fixture.configuration)
    let harnessCase = try #require(project.cases.first)
    let error = try #require(harnessCase.check())
    #expect(
      error.findings.map(\.text).allSatisfy {
        $0.contains("is a test runner, not a harness executable")
      })
    #expect(!error.description.contains("signal 0"))
  }

  @Test("The test binary named as the worker fails the handshake: not run, never crashed")
  func testBinaryWorkerFailsHandshake() throws {
    let binary = URL(fileURLWithPath: try #require(CommandLine.arguments.first))
    let configuration = HarnessConfiguration(
      modelClasses: [], worker: .executable(at: binary))
    let runner = configuration.runner()
    let error = try #require(throws: WorkerProtocolError.self) {
      try runner.outcome([], path: .legacy, allowedClasses: [], classMap: .empty)
    }
    #expect(error.kind == .unavailable)
    #expect(error.message.contains("something other than the worker handshake"))
  }

  @Test("In process, the Foundation paths are left out and said to be so")
  func inProcessRunsHarnessPathsOnly() throws {
    let configuration = HarnessConfiguration(
      modelClasses: ProfileModel.classes, worker: .inProcess)
    #expect(configuration.worker.paths == [.legacy, .secure])
    let error = try #require(throws: WorkerProtocolError.self) {
      try configuration.runner().outcome(
        [], path: .foundationSecure, allowedClasses: [], classMap: .empty)
    }
    #expect(error.description.contains("runs only in a worker process"))
  }
}
