import ArchiveCoder
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// A worker is used only after its handshake; anything else is "worker unavailable", never a crash.
@Suite("Worker handshake")
struct WorkerHandshakeTests {
  private func unavailable(_ supervisor: WorkerSupervisor) throws
    -> WorkerProtocolError
  {
    let error = try #require(throws: WorkerProtocolError.self) {
      try supervisor.decode(SampleArchives.memoArchive(), path: .legacy)
    }
    #expect(error.kind == .unavailable)
    #expect(error.description.hasPrefix("worker unavailable: "))
    return error
  }

  @Test("An executable that exits 0 without answering is unavailable, not crashed [signal 0]")
  func exitWithoutHandshakeIsUnavailable() throws {
    let error = try unavailable(
      WorkerSupervisor(executableURL: URL(fileURLWithPath: "/bin/true")))
    #expect(error.message.contains("'/bin/true' exited with status 0 before the worker handshake"))
  }

  @Test("The test runner re-executed as a worker is unavailable: it prints test output instead")
  func testRunnerIsUnavailable() throws {
    let runner = URL(fileURLWithPath: try #require(CommandLine.arguments.first))
    let error = try unavailable(WorkerSupervisor(executableURL: runner))
    #expect(error.message.contains("something other than the worker handshake"))
  }

  @Test("Text before the handshake is unavailable")
  func garbageIsUnavailable() throws {
    let script = try FakeWorker.script("prints a banner", body: "", handshake: "hello")
    defer { FakeWorker.remove(script) }
    let error = try unavailable(WorkerSupervisor(executableURL: script))
    #expect(error.message.contains("something other than the worker handshake"))
  }

  @Test("A worker without the registry asked for is unavailable, naming those it serves")
  func missingRegistryIsUnavailable() throws {
    let script = try FakeWorker.script("serves only default", body: "exec sleep 30")
    defer { FakeWorker.remove(script) }
    let error = try unavailable(
      WorkerSupervisor(executableURL: script, registryName: "ProfilesApp-9"))
    #expect(error.message.contains("serves no registry 'ProfilesApp-9' (it serves: default)"))
  }

  @Test("An unavailable worker is remembered: no second process is started")
  func unavailabilityIsRemembered() throws {
    let supervisor = WorkerSupervisor(executableURL: URL(fileURLWithPath: "/bin/true"))
    _ = try unavailable(supervisor)
    _ = try unavailable(supervisor)
    #expect(supervisor.workersStarted == 1)
  }

  @Test("A missing executable is unavailable, naming the path")
  func missingExecutableIsUnavailable() throws {
    let error = try unavailable(
      WorkerSupervisor(executableURL: URL(fileURLWithPath: "/nonexistent/harness")))
    #expect(error.message.contains("/nonexistent/harness"))
  }

  @Test("A worker that exits with a status mid-request is a protocol failure, not a crash")
  func exitMidRequestIsNotACrash() throws {
    let script = try FakeWorker.script("exits after the handshake", body: "exit 3")
    defer { FakeWorker.remove(script) }
    let supervisor = WorkerSupervisor(executableURL: script)
    let error = try #require(throws: WorkerProtocolError.self) {
      try supervisor.decode(SampleArchives.memoArchive(), path: .legacy)
    }
    #expect(error.kind == .protocolViolation)
    #expect(error.message.contains("exited with status 3"))
  }

  @Test("A migration worker that exits with a status mid-batch is a protocol failure, not a crash")
  func migrationExitIsNotACrash() throws {
    let script = try FakeWorker.script("exits after the handshake", body: "exit 3")
    defer { FakeWorker.remove(script) }
    let supervisor = WorkerSupervisor(executableURL: script)
    let error = try #require(throws: WorkerProtocolError.self) {
      try supervisor.migrate([SampleArchives.memoArchive()], classMap: .empty, allowedClasses: [])
    }
    #expect(error.kind == .protocolViolation)
    #expect(error.message.contains("exited with status 3"))
  }

  @Test("A migration worker that does not answer the handshake is unavailable")
  func migrationWithoutHandshakeIsUnavailable() throws {
    let supervisor = WorkerSupervisor(executableURL: URL(fileURLWithPath: "/bin/true"))
    let error = try #require(throws: WorkerProtocolError.self) {
      try supervisor.migrate([SampleArchives.memoArchive()], classMap: .empty, allowedClasses: [])
    }
    #expect(error.kind == .unavailable)
  }

  @Test("The real worker answers the handshake, then the request")
  func realWorkerHandshakes() throws {
    let url = try #require(CommandRunner.executable, "build the archive-harness product first")
    let supervisor = WorkerSupervisor(executableURL: url)
    let outcome = try supervisor.decode(SampleArchives.memoArchive(), path: .legacy)
    #expect(outcome.crash == nil)
    #expect(supervisor.workersStarted == 1)
  }
}
