import CHarnessWorkerProcess
import Foundation
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `archive-harness` binary as a user would, capturing its output and exit status.
package enum CommandRunner {
  /// What a run printed and how it ended.
  package struct Result: Sendable {
    /// Standard output.
    package var stdout: String
    /// Standard error.
    package var stderr: String
    /// The exit status, or nil when a signal ended the process.
    package var status: Int32?
    /// The signal that ended the process, if one did.
    package var signal: Int32?
    /// Whether the run outlived its timeout and was killed.
    package var timedOut: Bool = false
  }

  /// The built `profiles-harness`: beside the test bundle, or in `.build/debug`.
  package static var executable: URL? { executable(named: "profiles-harness") }

  /// A built executable of the package, such as `crash-test-harness`: beside the test bundle,
  /// or in `.build/debug`.
  ///
  /// - Parameter name: The product's name.
  /// - Returns: Its URL, or nil when it was not built.
  package static func executable(named name: String) -> URL? {
    var candidates: [URL] = []
    if let first = CommandLine.arguments.first {
      candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    candidates.append(Corpus.packageRoot.appendingPathComponent(".build/debug"))
    for directory in candidates {
      let url = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
  }

  /// Runs the executable with arguments, in the package root or `directory`, and waits for it.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the executable's path.
  ///   - input: Unused; standard input is `/dev/null`.
  ///   - directory: The working folder; the package root when nil.
  ///   - executableName: The product to run; `profiles-harness` (archive-harness with the sample app's classes) unless told.
  ///   - environment: The child's whole environment; this process's when nil.
  ///   - timeout: The longest the run may take; it is then killed, and the result says so
  ///     (`Result.timedOut`), so that a hung command fails its test instead of hanging it.
  /// - Returns: What the run printed and how it ended.
  /// - Throws: When the executable is not built or cannot start.
  package static func run(
    _ arguments: [String], input: Data? = nil, in directory: URL? = nil,
    executableName: String = "profiles-harness", environment: [String: String]? = nil,
    timeout: TimeSpan = .seconds(600)
  ) throws -> Result {
    guard let executable = executable(named: executableName) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executableName])
    }
    return try run(
      program: executable.path, arguments, in: directory, environment: environment,
      timeout: timeout)
  }

  /// Runs any program, such as `/usr/bin/env` with `python3` or `bash`, as ``run(_:input:in:executableName:environment:timeout:)``
  /// runs the package's own: standard input is `/dev/null`, both outputs are captured, and a
  /// run that outlives `timeout` is killed.
  ///
  /// ```swift
  /// let result = try CommandRunner.run(program: "/usr/bin/env", ["python3", "-c", "print(1)"])
  /// #expect(result.status == 0)
  /// ```
  ///
  /// - Parameters:
  ///   - path: The program's path.
  ///   - arguments: The arguments after the program's path.
  ///   - directory: The working folder; the package root when nil.
  ///   - environment: The child's whole environment; this process's when nil.
  ///   - timeout: The longest the run may take.
  /// - Returns: What the run printed and how it ended.
  /// - Throws: When the program cannot start.
  package static func run(
    program path: String, _ arguments: [String], in directory: URL? = nil,
    environment: [String: String]? = nil, timeout: TimeSpan = .seconds(600)
  ) throws -> Result {
    let name = URL(fileURLWithPath: path).lastPathComponent
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    guard harness_pipe(&output) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    guard harness_pipe(&errors) == 0 else {
      let code = errno
      close(output[0])
      close(output[1])
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
    defer {
      close(output[0])
      close(errors[0])
    }
    let child: ChildProcess
    do {
      child = try ChildProcess(
        executable: path, arguments: arguments, environment: environment,
        directory: (directory ?? Corpus.packageRoot).path, standardInput: .nullDevice,
        standardOutput: .descriptor(output[1]), standardError: .descriptor(errors[1]))
    } catch {
      close(output[1])
      close(errors[1])
      throw error
    }
    close(output[1])
    close(errors[1])
    let deadline = MonotonicInstant.now.advanced(by: timeout)
    // Both pipes are read in one loop so that neither fills and blocks the child.
    let streams = readToEnd([output[0], errors[0]], until: deadline)
    let ending =
      streams.complete
      ? child.wait(atMost: max(.zero, deadline - .now)) ?? child.kill(waitingAtMost: .seconds(5))
      : child.kill(waitingAtMost: .seconds(5))
    var stderr = String(decoding: streams.bytes[1], as: UTF8.self)
    let timedOut = !streams.complete || ending == nil
    if timedOut {
      stderr += "\nCommandRunner: \(name) did not end within \(timeout); killed\n"
    }
    return Result(
      stdout: String(decoding: streams.bytes[0], as: UTF8.self), stderr: stderr,
      status: ending?.exitStatus, signal: ending?.signal, timedOut: timedOut)
  }

  /// Reads each descriptor to its end, all at once, until `deadline`.
  private static func readToEnd(_ descriptors: [Int32], until deadline: MonotonicInstant)
    -> (bytes: [[UInt8]], complete: Bool)
  {
    var bytes = [[UInt8]](repeating: [], count: descriptors.count)
    var open = Array(descriptors.indices)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while !open.isEmpty {
      let left = deadline - .now
      guard left > .zero else { return (bytes, false) }
      var polled = open.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
      let milliseconds = Int32(min(left / .milliseconds(1), 1000).rounded(.up))
      let ready = poll(&polled, nfds_t(polled.count), milliseconds)
      if ready < 0, errno == EINTR { continue }
      guard ready >= 0 else { return (bytes, false) }
      var ended: [Int] = []
      for (slot, entry) in polled.enumerated() where entry.revents != 0 {
        let index = open[slot]
        let count = buffer.withUnsafeMutableBytes {
          read(descriptors[index], $0.baseAddress, $0.count)
        }
        if count > 0 {
          bytes[index] += buffer[..<count]
        } else if count == 0 || errno != EINTR {
          ended.append(index)
        }
      }
      open.removeAll { ended.contains($0) }
    }
    return (bytes, true)
  }
}
