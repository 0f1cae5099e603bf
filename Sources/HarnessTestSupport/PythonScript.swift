import Foundation
import _ArchiveHarnessSystem

/// A Python script of the package's `scripts/` folder, run with `python3` through
/// `CommandRunner` on a text: the tests' independent readers, such as PyYAML
/// (`scripts/yaml-to-json`) and Python's `jsonschema` (`scripts/check-json-schema`).
///
/// ```swift
/// let result = try PythonScript.run("yaml-to-json", on: "a: 1\n")
/// #expect(result.stdout == "{\"a\": 1}\n")
/// ```
package enum PythonScript {
  /// Runs `python3 scripts/NAME ARGUMENTS… FILE`, where FILE is a temporary file that holds
  /// `text` and is removed afterwards, in the package root, under a timeout of two minutes.
  ///
  /// - Parameters:
  ///   - name: The script's file name in `scripts/`.
  ///   - arguments: The arguments before the file's path.
  ///   - text: What the script reads.
  /// - Returns: What the script printed and how it ended.
  /// - Throws: When the temporary file cannot be written or `python3` cannot start.
  package static func run(_ name: String, _ arguments: [String] = [], on text: String) throws
    -> CommandRunner.Result
  {
    let input = FileManager.default.temporaryDirectory.appendingPathComponent(
      "archive-harness-\(name)-\(UUID().uuidString)")
    try Data(text.utf8).write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    let script = Corpus.packageRoot.appendingPathComponent("scripts/\(name)").path
    return try CommandRunner.run(
      program: "/usr/bin/env", ["python3", script] + arguments + [input.path],
      timeout: .seconds(120))
  }

  /// The failure a script reports on standard error, or how it ended, for an error message.
  ///
  /// - Parameter result: The script's run.
  /// - Returns: Its standard error, trimmed, or its status when it printed nothing.
  package static func failure(_ result: CommandRunner.Result) -> String {
    let said = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
    if !said.isEmpty { return said }
    if let signal = result.signal { return "ended by signal \(signal)" }
    return "exited with status \(result.status.map(String.init) ?? "?")"
  }
}
