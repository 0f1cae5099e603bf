import ArchiveCoder
import CHarnessWorkerProcess
import Foundation
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One running decode worker: the child process, its request channel, and its standard error.
///
/// Requests and answers go over two pipes, or, for a worker that may serve forks
/// (`ForkServerRequest`), over one Unix socket that is its standard input and output
/// both, so that it can pass its children's sockets back. The worker is started with
/// `posix_spawn` and reaped with `waitpid` (`ChildProcess`); every wait for it is bounded.
final class WorkerProcess: WorkerHandle {
  let channel: FileDescriptorChannel
  private let child: ChildProcess
  /// The supervisor's ends: one socket, or the request pipe's write end and the answer
  /// pipe's read end.
  private let requests: Int32
  private let answers: Int32
  /// The worker's standard error: an unnamed scratch file, read back after a crash.
  private let stderrLog: ScratchFile

  /// How long a worker has to end by itself before it is killed: after its input closes
  /// (``stop()``), or after it stopped answering (``waitForDeath(stderrFrom:)``).
  static let endingGrace: TimeSpan = .seconds(2)
  /// How long a killed worker has to end before it is reported as not ending.
  static let killGrace: TimeSpan = .seconds(5)

  /// Launches the worker.
  ///
  /// - Parameters:
  ///   - executableURL: The worker executable.
  ///   - arguments: The arguments that select worker mode.
  ///   - socket: Whether its standard input and output are one Unix socket (for a fork
  ///     server) rather than two pipes.
  ///   - memoryLimit: The address space the worker limits itself to (Linux).
  /// - Throws: `WorkerProtocolError` of kind `WorkerProtocolError.Kind.unavailable` when
  ///   the log, the socket or the process cannot be had.
  init(
    executableURL: URL, arguments: [String], socket: Bool = false,
    memoryLimit: WorkerMemoryLimit = .fromEnvironment
  ) throws(WorkerProtocolError) {
    var environment = WorkerEnvironment.current()
    environment[WorkerMemoryLimit.variable] = String(memoryLimit.mebibytes)
    let stderrLog: ScratchFile
    do {
      stderrLog = try ScratchFile(prefix: "archive-harness-worker")
    } catch {
      throw WorkerProtocolError("cannot create the worker log: \(error)", kind: .unavailable)
    }
    // Ours first, the worker's second: both close-on-exec, so no other child inherits them.
    var first: [Int32] = [-1, -1]
    var second: [Int32] = [-1, -1]
    if socket {
      guard harness_socket_pair(&first) == 0 else {
        throw WorkerProtocolError(
          "cannot create the worker socket: errno \(errno)", kind: .unavailable)
      }
    } else {
      guard harness_pipe(&first) == 0 else {
        throw WorkerProtocolError(
          "cannot create the worker's pipes: errno \(errno)", kind: .unavailable)
      }
      guard harness_pipe(&second) == 0 else {
        let code = errno
        close(first[0])
        close(first[1])
        throw WorkerProtocolError(
          "cannot create the worker's pipes: errno \(code)", kind: .unavailable)
      }
    }
    // Socket: ours first[0], the worker's first[1] both ways. Pipes: the worker reads
    // first[0] and writes second[1]; ours are first[1] and second[0].
    let workerInput = socket ? first[1] : first[0]
    let workerOutput = socket ? first[1] : second[1]
    let child: ChildProcess
    do {
      child = try ChildProcess(
        executable: executableURL.path, arguments: arguments, environment: environment,
        standardInput: .descriptor(workerInput), standardOutput: .descriptor(workerOutput),
        standardError: .descriptor(stderrLog.descriptor))
    } catch {
      for descriptor in first + second where descriptor >= 0 { close(descriptor) }
      throw WorkerProtocolError("\(error)", kind: .unavailable)
    }
    // The worker has its own copies; without ours, its death is the end of input here.
    close(workerInput)
    if workerOutput != workerInput { close(workerOutput) }
    let requests = socket ? first[0] : first[1]
    let answers = socket ? first[0] : second[0]
    _ = fcntl(requests, F_SETFL, fcntl(requests, F_GETFL) | O_NONBLOCK)
    _ = fcntl(answers, F_SETFL, fcntl(answers, F_GETFL) | O_NONBLOCK)
    self.child = child
    self.requests = requests
    self.answers = answers
    self.stderrLog = stderrLog
    self.channel = FileDescriptorChannel(input: answers, output: requests)
  }

  deinit {
    cleanUp()
  }

  /// The worker's process ID.
  var processIdentifier: Int32 { child.identifier }

  var isRunning: Bool { child.isRunning }

  /// The exit status of a worker that ended by exiting rather than by a signal; nil otherwise.
  var exitStatus: Int32? { child.ending()?.exitStatus }

  /// The number of bytes the worker has written to standard error so far.
  func stderrLength() -> UInt64 {
    UInt64((try? stderrLog.size()) ?? 0)
  }

  /// Kills the worker with `SIGKILL`.
  func forceKill() {
    child.send(SIGKILL)
  }

  /// Waits for the worker to exit and describes how it died.
  ///
  /// A worker that has not ended after ``endingGrace`` is killed; one that has not ended
  /// ``killGrace`` after that is described as such and left, never waited on forever.
  func waitForDeath(stderrFrom offset: UInt64) -> CrashReport {
    let ending =
      child.wait(atMost: Self.endingGrace) ?? child.kill(waitingAtMost: Self.killGrace)
    var detail = stderrTail(from: offset)
    cleanUp()
    guard let ending else {
      let note = Self.undeadNote(child.identifier)
      Self.warn(note)
      detail = detail.isEmpty ? note : "\(detail)\n\(note)"
      return CrashReport(signal: 0, detail: detail)
    }
    // Not a crash when no signal ended it: the supervisor reads ``exitStatus`` and reports a
    // protocol failure.
    return CrashReport(signal: ending.signal ?? 0, detail: detail)
  }

  /// Closes the worker's input, waits briefly, then kills it if it is still running.
  ///
  /// Every wait is bounded: a worker that does not end after `SIGKILL` is reported on
  /// standard error and left.
  func stop() {
    closeInput()
    if child.wait(atMost: Self.endingGrace) == nil,
      child.kill(waitingAtMost: Self.killGrace) == nil
    {
      Self.warn(Self.undeadNote(child.identifier))
    }
    cleanUp()
  }

  private var cleanedUp = false

  private var inputClosed = false

  /// Ends the worker's input: it reads the end of input and exits.
  private func closeInput() {
    guard !inputClosed else { return }
    inputClosed = true
    if requests == answers {
      _ = shutdown(requests, Int32(SHUT_WR))
    } else {
      close(requests)
    }
  }

  private func cleanUp() {
    guard !cleanedUp else { return }
    cleanedUp = true
    closeInput()
    close(answers)
  }

  private static func undeadNote(_ identifier: Int32) -> String {
    "decode worker \(identifier) did not end within \(killGrace) of SIGKILL; "
      + "it is left running rather than waited on"
  }

  private static func warn(_ message: String) {
    FileHandle.standardError.write(Data("archive-harness: warning: \(message)\n".utf8))
  }

  /// The worker's last words from standard error since `offset`: the runtime's own message
  /// (Swift's `Fatal error` line, a failed cast, Foundation's uncaught exception), or its last
  /// three lines; see ``CrashReport/lastWords(fromStandardError:)``.
  func stderrTail(from offset: UInt64) -> String {
    do {
      let end = try stderrLog.size()
      let start = min(end, max(Int(offset), end - 8192))
      let bytes = try stderrLog.read(from: start, count: end - start)
      return CrashReport.lastWords(fromStandardError: String(decoding: bytes, as: UTF8.self))
    } catch {
      return ""
    }
  }
}
