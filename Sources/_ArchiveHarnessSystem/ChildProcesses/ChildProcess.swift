import CHarnessWorkerProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process this process started with `posix_spawn` and reaps itself with `waitpid`.
///
/// Every wait is bounded. A child that has not ended by the deadline is reported as still
/// running (`nil`), never waited on forever, so a run cannot hang after its work is done
/// because some child did not die. `Foundation.Process` is not used: on Linux its
/// `waitUntilExit()` could wait forever in a run loop for a child that was already a zombie,
/// and it does not exist on iOS.
///
/// ```swift
/// let child = try ChildProcess(
///   executable: "/usr/bin/true", arguments: [],
///   standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
/// if let ending = child.wait(atMost: .seconds(5)) {
///   print(ending)  // "exited with status 0"
/// } else if child.kill(waitingAtMost: .seconds(5)) == nil {
///   print("process \(child.identifier) did not die")
/// }
/// ```
///
/// A child is reaped exactly once, by the first call that sees it end; later calls answer
/// from that. Use one instance from one thread at a time.
package final class ChildProcess {
  /// How a child ended.
  package enum Ending: Sendable, Hashable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// This signal ended it.
    case signalled(Int32)
    /// Something else in this process reaped it (`waitpid` answered `ECHILD`), so how it
    /// ended is unknown.
    case reapedElsewhere

    /// The signal that ended the child, if one did.
    package var signal: Int32? {
      if case .signalled(let signal) = self { return signal }
      return nil
    }

    /// The exit status of a child that exited.
    package var exitStatus: Int32? {
      if case .exited(let status) = self { return status }
      return nil
    }

    /// Such as `exited with status 0` or `killed by signal 9`.
    package var description: String {
      switch self {
      case .exited(let status): "exited with status \(status)"
      case .signalled(let signal): "killed by signal \(signal)"
      case .reapedElsewhere: "reaped elsewhere in this process"
      }
    }
  }

  /// One of the child's standard descriptors: a descriptor of this process, which the child
  /// gets a copy of, or `/dev/null`.
  package enum Stream: Sendable, Hashable {
    /// `/dev/null`, opened for reading and writing.
    case nullDevice
    /// A descriptor of this process; the caller keeps its own and closes it.
    case descriptor(Int32)
  }

  /// Why a child could not be started.
  package struct LaunchFailure: Error, Sendable, CustomStringConvertible {
    /// The executable.
    package let executable: String
    /// The `errno` value `posix_spawn` or the preparation before it gave.
    package let code: Int32

    /// Such as `cannot start '/x': No such file or directory (errno 2)`.
    package var description: String {
      "cannot start '\(executable)': \(String(cString: strerror(code))) (errno \(code))"
    }
  }

  /// The child's process ID.
  package let identifier: Int32

  /// How the child ended, once reaped.
  private var ended: Ending?

  /// Starts a child.
  ///
  /// The child gets the three descriptors as its standard input, output and error and no
  /// other descriptor of this process's, no signal blocked, and every signal's action at its
  /// default.
  ///
  /// - Parameters:
  ///   - executable: The executable's path.
  ///   - arguments: The arguments after the executable's path.
  ///   - environment: The child's whole environment; this process's when nil.
  ///   - directory: The child's working folder; this process's when nil.
  ///   - standardInput: The child's standard input.
  ///   - standardOutput: The child's standard output.
  ///   - standardError: The child's standard error.
  /// - Throws: `LaunchFailure` when it cannot start (`ENOSYS` on iOS, tvOS, watchOS and
  ///   visionOS, which start no processes).
  package init(
    executable: String, arguments: [String], environment: [String: String]? = nil,
    directory: String? = nil, standardInput: Stream, standardOutput: Stream,
    standardError: Stream
  ) throws(LaunchFailure) {
    var null: Int32 = -1
    defer { if null >= 0 { close(null) } }
    func descriptor(_ stream: Stream) throws(LaunchFailure) -> Int32 {
      switch stream {
      case .descriptor(let descriptor): return descriptor
      case .nullDevice:
        if null < 0 { null = open("/dev/null", O_RDWR | O_CLOEXEC) }
        guard null >= 0 else { throw LaunchFailure(executable: executable, code: errno) }
        return null
      }
    }
    let input = try descriptor(standardInput)
    let output = try descriptor(standardOutput)
    let error = try descriptor(standardError)
    let environmentLines =
      environment.map { $0.map { "\($0.key)=\($0.value)" }.sorted() } ?? Self.currentEnvironment()
    var child: pid_t = 0
    var result: Int32 = 0
    // ETXTBSY: the executable is open for writing somewhere. A file just written (a harness
    // just built, a test's script) can be held open briefly by a child another thread forked
    // before the writer closed it; that child drops it at its exec. So try again a few times,
    // 10 ms apart, before reporting it.
    for attempt in 0..<10 {
      if attempt > 0 { usleep(10_000) }
      result = Self.withCStrings([executable] + arguments) { argv in
        Self.withCStrings(environmentLines) { envp in
          if let directory {
            return directory.withCString { folder in
              harness_spawn(&child, executable, argv, envp, folder, input, output, error)
            }
          }
          return harness_spawn(&child, executable, argv, envp, nil, input, output, error)
        }
      }
      if result != ETXTBSY { break }
    }
    guard result == 0 else { throw LaunchFailure(executable: executable, code: result) }
    identifier = child
  }

  /// How the child ended, or nil while it runs; never blocks.
  package func ending() -> Ending? {
    if let ended { return ended }
    var status: Int32 = 0
    var result: pid_t
    repeat { result = waitpid(identifier, &status, WNOHANG) } while result < 0 && errno == EINTR
    if result == identifier {
      let ending: Ending =
        harness_wait_status_exited(status) != 0
        ? .exited(harness_wait_status_exit_code(status))
        : .signalled(harness_wait_status_signal(status))
      ended = ending
      return ending
    }
    if result < 0, errno == ECHILD {
      ended = .reapedElsewhere
      return .reapedElsewhere
    }
    return nil
  }

  /// Whether the child still runs (or has ended and not yet been reaped by ``ending()``).
  package var isRunning: Bool { ending() == nil }

  /// Waits for the child to end, at most `limit`.
  ///
  /// - Parameter limit: The longest to wait.
  /// - Returns: How it ended, or nil when it still runs at the deadline.
  package func wait(atMost limit: TimeSpan) -> Ending? {
    let deadline = MonotonicInstant.now.advanced(by: limit)
    var pause: UInt32 = 50
    while true {
      if let ending = ending() { return ending }
      if MonotonicInstant.now >= deadline { return nil }
      usleep(pause)
      pause = min(pause * 2, 2000)
    }
  }

  /// Sends the child a signal, unless it has been reaped (its process ID may be reused).
  ///
  /// - Parameter signal: The signal, such as `SIGTERM`.
  package func send(_ signal: Int32) {
    guard ended == nil else { return }
    _ = systemKill(identifier, signal)
  }

  /// Kills the child with `SIGKILL` and waits for it to end, at most `limit`.
  ///
  /// - Parameter limit: The longest to wait after the signal.
  /// - Returns: How it ended, or nil when it still had not ended at the deadline: the caller
  ///   reports it, and must not wait on it forever.
  @discardableResult
  package func kill(waitingAtMost limit: TimeSpan) -> Ending? {
    if let ending = ending() { return ending }
    send(SIGKILL)
    return wait(atMost: limit)
  }

  /// This process's environment, as `NAME=value` lines.
  private static func currentEnvironment() -> [String] {
    var lines: [String] = []
    guard let pointer = harness_environment() else { return lines }
    var index = 0
    while let line = pointer[index] {
      lines.append(String(cString: line))
      index += 1
    }
    return lines
  }

  /// Calls `body` with a NULL-terminated array of C strings for `strings`.
  private static func withCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> Result
  ) -> Result {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
  }
}

/// The C library's `kill`, which the method of the same name hides inside `ChildProcess`.
private func systemKill(_ process: pid_t, _ signal: Int32) -> Int32 {
  kill(process, signal)
}
