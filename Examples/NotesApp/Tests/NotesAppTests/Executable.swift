import Foundation
import Testing

/// One of the example's executables, run as a user would, with its output and exit status.
struct Executable {
  /// What a run printed and how it ended.
  struct Run {
    var stdout: String
    var stderr: String
    var status: Int32
  }

  /// The executable's name, such as `notes-harness`.
  var name: String

  /// The built executable: beside the test bundle, or in the package's `.build/debug`.
  func url() throws -> URL {
    var folders: [URL] = []
    if let first = CommandLine.arguments.first {
      folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    if let root = NotesHarness.project.root {
      folders.append(root.appendingPathComponent(".build/debug"))
    }
    let found = folders.map { $0.appendingPathComponent(name) }.first {
      FileManager.default.isExecutableFile(atPath: $0.path)
    }
    return try #require(found, "'\(name)' is not built; run 'swift build' first")
  }

  /// Runs the executable in a folder, the example's own unless told, and waits for it.
  func run(_ arguments: [String], in directory: URL? = nil) throws -> Run {
    let process = Process()
    process.executableURL = try url()
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? NotesHarness.project.root
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Standard error is short; read it after standard output, which may be long.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData, as: UTF8.self), status: process.terminationStatus)
  }
}
