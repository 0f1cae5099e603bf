import Foundation

/// Runs the built `archive-harness` binary as a user would, capturing its output and exit status.
public enum CommandRunner {
  /// What a run printed and how it ended.
  public struct Result: Sendable {
    /// Standard output.
    public var stdout: String
    /// Standard error.
    public var stderr: String
    /// The exit status, or nil when a signal ended the process.
    public var status: Int32?
    /// The signal that ended the process, if one did.
    public var signal: Int32?
  }

  /// The built `archive-harness`: beside the test bundle, or in `.build/debug`.
  public static var executable: URL? { executable(named: "archive-harness") }

  /// A built executable of the package, such as `crash-test-harness`: beside the test bundle,
  /// or in `.build/debug`.
  ///
  /// - Parameter name: The product's name.
  /// - Returns: Its URL, or nil when it was not built.
  public static func executable(named name: String) -> URL? {
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
  ///   - executableName: The product to run; `archive-harness` unless told.
  /// - Returns: What the run printed and how it ended.
  /// - Throws: When the executable is not built or cannot start.
  public static func run(
    _ arguments: [String], input: Data? = nil, in directory: URL? = nil,
    executableName: String = "archive-harness"
  ) throws -> Result {
    guard let executable = executable(named: executableName) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executableName])
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? Corpus.packageRoot
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes concurrently so that neither fills and blocks the child.
    let errorData = LockedData()
    let reader = Thread {
      errorData.set(error.fileHandleForReading.readDataToEndOfFile())
    }
    reader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { usleep(1000) }
    let signalled = process.terminationReason == .uncaughtSignal
    return Result(
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData.value, as: UTF8.self),
      status: signalled ? nil : process.terminationStatus,
      signal: signalled ? process.terminationStatus : nil)
  }
}

private final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?

  func set(_ value: Data) {
    lock.lock()
    data = value
    lock.unlock()
  }

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return data != nil
  }

  var value: Data {
    lock.lock()
    defer { lock.unlock() }
    return data ?? Data()
  }
}
