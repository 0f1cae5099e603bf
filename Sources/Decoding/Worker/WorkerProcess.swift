import CWorkerProcess
import FileOutput
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One running decode worker: the child process, its request channel, and its standard error.
///
/// Requests and answers go over two pipes, or, for a worker that may serve forks
/// (``ForkServerRequest``), over one Unix socket that is its standard input and output
/// both, so that it can pass its children's sockets back.
final class WorkerProcess: WorkerHandle {
  let channel: FileDescriptorChannel
  private let process: Process
  private let ends: Ends
  /// The worker's standard error: an unnamed scratch file, read back after a crash.
  private let stderrLog: ScratchFile

  /// Launches the worker.
  ///
  /// - Parameters:
  ///   - executableURL: The worker executable.
  ///   - arguments: The arguments that select worker mode.
  ///   - socket: Whether its standard input and output are one Unix socket (for a fork
  ///     server) rather than two pipes.
  /// - Throws: ``WorkerProtocolError`` of kind ``WorkerProtocolError/Kind/unavailable`` when
  ///   the log, the socket or the process cannot be had.
  init(executableURL: URL, arguments: [String], socket: Bool = false)
    throws(WorkerProtocolError)
  {
    let process = Process()
    process.executableURL = executableURL
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    // A crash is an expected outcome here: skip the runtime's slow symbolicated backtrace.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let stderrLog: ScratchFile
    do {
      stderrLog = try ScratchFile(prefix: "archive-harness-worker")
    } catch {
      throw WorkerProtocolError("cannot create the worker log: \(error)", kind: .unavailable)
    }
    process.standardError = FileHandle(fileDescriptor: stderrLog.descriptor, closeOnDealloc: false)
    let ends: Ends
    if socket {
      var pair: [Int32] = [-1, -1]
      guard harness_socket_pair(&pair) == 0 else {
        throw WorkerProtocolError(
          "cannot create the worker socket: errno \(errno)", kind: .unavailable)
      }
      let workerEnd = FileHandle(fileDescriptor: pair[1], closeOnDealloc: false)
      process.standardInput = workerEnd
      process.standardOutput = workerEnd
      do {
        try process.run()
      } catch {
        close(pair[0])
        close(pair[1])
        throw WorkerProtocolError(
          "cannot launch '\(executableURL.path)': \(error)", kind: .unavailable)
      }
      // The worker has its own copy; without ours, its death is the end of input here.
      close(pair[1])
      ends = .socket(pair[0])
    } else {
      let requests = Pipe()
      let answers = Pipe()
      process.standardInput = requests
      process.standardOutput = answers
      do {
        try process.run()
      } catch {
        throw WorkerProtocolError(
          "cannot launch '\(executableURL.path)': \(error)", kind: .unavailable)
      }
      ends = .pipes(requests: requests, answers: answers)
    }
    let output = ends.requestDescriptor
    let input = ends.answerDescriptor
    _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
    self.process = process
    self.ends = ends
    self.stderrLog = stderrLog
    self.channel = FileDescriptorChannel(input: input, output: output)
  }

  /// The supervisor's ends of the worker's input and output.
  private enum Ends {
    /// Two pipes, kept so that their file handles stay open until closed here.
    case pipes(requests: Pipe, answers: Pipe)
    /// One Unix socket, both ways.
    case socket(Int32)

    var requestDescriptor: Int32 {
      switch self {
      case .pipes(let requests, _): requests.fileHandleForWriting.fileDescriptor
      case .socket(let descriptor): descriptor
      }
    }

    var answerDescriptor: Int32 {
      switch self {
      case .pipes(_, let answers): answers.fileHandleForReading.fileDescriptor
      case .socket(let descriptor): descriptor
      }
    }
  }

  /// The worker's process ID.
  var processIdentifier: Int32 { process.processIdentifier }

  var isRunning: Bool { process.isRunning }

  /// The exit status of a worker that ended by exiting rather than by a signal; nil otherwise.
  var exitStatus: Int32? {
    guard !process.isRunning, process.terminationReason == .exit else { return nil }
    return process.terminationStatus
  }

  /// The number of bytes the worker has written to standard error so far.
  func stderrLength() -> UInt64 {
    UInt64((try? stderrLog.size()) ?? 0)
  }

  /// Kills the worker with `SIGKILL`.
  func forceKill() {
    if process.isRunning {
      _ = kill(process.processIdentifier, SIGKILL)
    }
  }

  /// Waits for the worker to exit and describes how it died.
  func waitForDeath(stderrFrom offset: UInt64) -> CrashReport {
    let deadline = ContinuousClock.now.advanced(by: .seconds(5))
    while process.isRunning, ContinuousClock.now < deadline {
      usleep(2000)
    }
    if process.isRunning {
      forceKill()
      process.waitUntilExit()
    }
    let detail = stderrTail(from: offset)
    cleanUp()
    switch process.terminationReason {
    case .uncaughtSignal:
      return CrashReport(signal: process.terminationStatus, detail: detail)
    default:
      // Not a crash: the supervisor reads ``exitStatus`` and reports a protocol failure.
      return CrashReport(signal: 0, detail: detail)
    }
  }

  /// Closes the worker's input, waits briefly, then kills it if it is still running.
  func stop() {
    closeInput()
    let deadline = ContinuousClock.now.advanced(by: .seconds(2))
    while process.isRunning, ContinuousClock.now < deadline {
      usleep(2000)
    }
    forceKill()
    if process.isRunning { process.waitUntilExit() }
    cleanUp()
  }

  private var cleanedUp = false

  private var inputClosed = false

  /// Ends the worker's input: it reads the end of input and exits.
  private func closeInput() {
    guard !inputClosed else { return }
    inputClosed = true
    switch ends {
    case .pipes(let requests, _): try? requests.fileHandleForWriting.close()
    case .socket(let descriptor): _ = shutdown(descriptor, Int32(SHUT_WR))
    }
  }

  private func cleanUp() {
    guard !cleanedUp else { return }
    cleanedUp = true
    closeInput()
    switch ends {
    case .pipes(_, let answers): try? answers.fileHandleForReading.close()
    case .socket(let descriptor): close(descriptor)
    }
  }

  /// The worker's last words from standard error since `offset`: its `Fatal error` line, or
  /// its last three lines.
  func stderrTail(from offset: UInt64) -> String {
    do {
      let end = try stderrLog.size()
      let start = max(Int(offset), end - 4096)
      let bytes = try stderrLog.read(from: start, count: end - start)
      let text = String(decoding: bytes, as: UTF8.self)
      let lines = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
      if let fatal = lines.last(where: { $0.contains("Fatal error") }) { return fatal }
      return lines.suffix(3).joined(separator: "\n")
    } catch {
      return ""
    }
  }
}
