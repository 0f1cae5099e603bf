import FileOutput
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One running decode worker: the child process, its request channel, and its standard error.
final class WorkerProcess {
  let channel: FileDescriptorChannel
  private let process: Process
  private let requests: Pipe
  private let answers: Pipe
  /// The worker's standard error: an unnamed scratch file, read back after a crash.
  private let stderrLog: ScratchFile

  init(executableURL: URL, arguments: [String]) throws(WorkerProtocolError) {
    let process = Process()
    process.executableURL = executableURL
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    // A crash is an expected outcome here: skip the runtime's slow symbolicated backtrace.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let requests = Pipe()
    let answers = Pipe()
    let stderrLog: ScratchFile
    do {
      stderrLog = try ScratchFile(prefix: "archive-harness-worker")
    } catch {
      throw WorkerProtocolError("cannot create the worker log: \(error)", kind: .unavailable)
    }
    process.standardInput = requests
    process.standardOutput = answers
    process.standardError = FileHandle(fileDescriptor: stderrLog.descriptor, closeOnDealloc: false)
    do {
      try process.run()
    } catch {
      throw WorkerProtocolError(
        "cannot launch '\(executableURL.path)': \(error)", kind: .unavailable)
    }
    let output = requests.fileHandleForWriting.fileDescriptor
    let input = answers.fileHandleForReading.fileDescriptor
    _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
    self.process = process
    self.requests = requests
    self.answers = answers
    self.stderrLog = stderrLog
    self.channel = FileDescriptorChannel(input: input, output: output)
  }

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
    try? requests.fileHandleForWriting.close()
    let deadline = ContinuousClock.now.advanced(by: .seconds(2))
    while process.isRunning, ContinuousClock.now < deadline {
      usleep(2000)
    }
    forceKill()
    if process.isRunning { process.waitUntilExit() }
    cleanUp()
  }

  private var cleanedUp = false

  private func cleanUp() {
    guard !cleanedUp else { return }
    cleanedUp = true
    try? requests.fileHandleForWriting.close()
    try? answers.fileHandleForReading.close()
  }

  private func stderrTail(from offset: UInt64) -> String {
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
