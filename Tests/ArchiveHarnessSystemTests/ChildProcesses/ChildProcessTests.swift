import CHarnessWorkerProcess
import Foundation
import Testing
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `/bin/sh -c script` with every stream on `/dev/null`.
private func shell(
  _ script: String, environment: [String: String]? = nil, directory: String? = nil
) throws -> ChildProcess {
  try ChildProcess(
    executable: "/bin/sh", arguments: ["-c", script], environment: environment,
    directory: directory, standardInput: .nullDevice, standardOutput: .nullDevice,
    standardError: .nullDevice)
}

@Suite("Child processes: started with posix_spawn, reaped with waitpid, every wait bounded")
struct ChildProcessTests {
  @Test("A child that exits is reaped with its exit status")
  func exitStatus() throws {
    let child = try shell("exit 3")
    #expect(child.wait(atMost: .seconds(10)) == .exited(3))
    #expect(!child.isRunning)
  }

  @Test("A child that a signal ends is reaped with the signal")
  func signal() throws {
    let child = try shell("kill -SEGV $$")
    #expect(child.wait(atMost: .seconds(10)) == .signalled(SIGSEGV))
  }

  @Test("A bounded wait on a child that runs on returns nil at the deadline, not later")
  func boundedWait() throws {
    let child = try shell("exec sleep 30")
    let started = MonotonicInstant.now
    #expect(child.wait(atMost: .milliseconds(200)) == nil)
    #expect(MonotonicInstant.now - started < .seconds(5))
    #expect(child.kill(waitingAtMost: .seconds(10)) == .signalled(SIGKILL))
  }

  @Test("A child that ended while nobody waited (a zombie) is reaped by the next look")
  func zombieIsReaped() throws {
    let child = try shell("exit 0")
    // Give it time to end unobserved; it stays a zombie until reaped.
    usleep(300_000)
    #expect(child.ending() == .exited(0))
    // Reaped once: the answer is kept, and waitpid is not asked again for a reused ID.
    #expect(child.ending() == .exited(0))
  }

  @Test("A child reaped by someone else is reported as such, not waited on")
  func reapedElsewhere() throws {
    let child = try shell("exit 0")
    var status: Int32 = 0
    #expect(waitpid(child.identifier, &status, 0) == child.identifier)
    #expect(child.wait(atMost: .seconds(5)) == .reapedElsewhere)
  }

  @Test("A missing executable is a launch failure naming it and the errno")
  func missingExecutable() throws {
    let error = #expect(throws: ChildProcess.LaunchFailure.self) {
      _ = try ChildProcess(
        executable: "/nonexistent/archive-harness", arguments: [],
        standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
    }
    #expect(error?.code == ENOENT)
    #expect(error?.description.contains("/nonexistent/archive-harness") == true)
  }

  /// An executable script in a fresh folder, and a descriptor holding it open for writing.
  static func scriptHeldForWriting() throws -> (folder: String, script: String, writer: Int32) {
    let folder = NSTemporaryDirectory() + "etxtbsy-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let script = folder + "/script"
    try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: script))
    #expect(chmod(script, 0o755) == 0)
    let writer = open(script, O_WRONLY | O_CLOEXEC)
    #expect(writer >= 0)
    return (folder, script, writer)
  }

  @Test("An executable held open for writing throughout is a launch failure with ETXTBSY")
  func executableBusyThroughout() throws {
    let (folder, script, writer) = try Self.scriptHeldForWriting()
    defer {
      close(writer)
      try? FileManager.default.removeItem(atPath: folder)
    }
    let error = #expect(throws: ChildProcess.LaunchFailure.self) {
      _ = try ChildProcess(
        executable: script, arguments: [],
        standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
    }
    #expect(error?.code == ETXTBSY)
  }

  @Test("An executable whose writer closes a moment later starts: ETXTBSY is tried again")
  func executableBusyBriefly() throws {
    let (folder, script, writer) = try Self.scriptHeldForWriting()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let closer = Thread {
      usleep(20_000)
      close(writer)
    }
    closer.start()
    let child = try ChildProcess(
      executable: script, arguments: [],
      standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
    #expect(child.wait(atMost: .seconds(5)) == .exited(0))
  }

  @Test("The child gets the environment and working folder it is given")
  func environmentAndDirectory() throws {
    let folder = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
    let child = try shell(
      "test \"$HARNESS_PROBE\" = yes && test \"$(pwd -P)\" = \"$EXPECTED\"",
      environment: ["HARNESS_PROBE": "yes", "EXPECTED": folder, "PATH": "/usr/bin:/bin"],
      directory: folder)
    #expect(child.wait(atMost: .seconds(10)) == .exited(0))
  }

  @Test("Without an environment, the child inherits this process's")
  func inheritedEnvironment() throws {
    setenv("HARNESS_CHILD_PROCESS_PROBE", "inherited", 1)
    defer { unsetenv("HARNESS_CHILD_PROCESS_PROBE") }
    let child = try shell("test \"$HARNESS_CHILD_PROCESS_PROBE\" = inherited")
    #expect(child.wait(atMost: .seconds(10)) == .exited(0))
  }

  @Test("The child's standard output is the descriptor it is given")
  func standardOutput() throws {
    var ends: [Int32] = [-1, -1]
    #expect(harness_pipe(&ends) == 0)
    defer { close(ends[0]) }
    let child = try ChildProcess(
      executable: "/bin/sh", arguments: ["-c", "printf spawned"], standardInput: .nullDevice,
      standardOutput: .descriptor(ends[1]), standardError: .nullDevice)
    close(ends[1])
    #expect(child.wait(atMost: .seconds(10)) == .exited(0))
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
    #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "spawned")
  }

  @Test(
    "The child inherits no descriptor beyond standard input, output and error",
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "reads /proc")
  )
  func noInheritedDescriptors() throws {
    // A descriptor that is not close-on-exec, as a library elsewhere in the process may open.
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let child = try shell(
      "test ! -e /proc/self/fd/\(ends[0]) && test ! -e /proc/self/fd/\(ends[1])")
    #expect(child.wait(atMost: .seconds(10)) == .exited(0))
  }

  @Test("A signal this thread blocks is not blocked in the child")
  func signalMaskReset() throws {
    var blocked = sigset_t()
    var previous = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let child = try shell("exec sleep 30")
    child.send(SIGTERM)
    #expect(child.wait(atMost: .seconds(10)) == .signalled(SIGTERM))
  }

  @Test("A reaped child is sent no more signals: its process ID may belong to another")
  func noSignalAfterReaping() throws {
    let child = try shell("exit 7")
    #expect(child.wait(atMost: .seconds(10)) == .exited(7))
    child.send(SIGKILL)
    #expect(child.kill(waitingAtMost: .seconds(1)) == .exited(7))
  }
}
