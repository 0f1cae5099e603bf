import ArchiveHarnessCLI
import Foundation
import _ArchiveHarnessSystem

/// Runs the command entry in this process, as a team's own executable calls it, and captures what it printed.
enum InProcessCommand {
  /// What a run printed and its exit status.
  struct Result {
    /// The exit status `ArchiveHarnessCommand.main` returned.
    var status: Int32
    /// What went to standard output.
    var stdout: String
    /// What went to standard error.
    var stderr: String
  }

  /// Calls `ArchiveHarnessCommand.main` with a full argument vector, the tool's path first.
  static func run(
    _ arguments: [String],
    configuration: HarnessConfiguration = HarnessConfiguration(modelClasses: [])
  ) -> Result {
    let output = Sink()
    let error = Sink()
    let console = Console(
      output: { text in output.append(text) }, error: { text in error.append(text) })
    let status = ArchiveHarnessCommand.main(
      arguments, configuration: configuration, console: console)
    return Result(status: status, stdout: output.text, stderr: error.text)
  }

  /// Text written from any thread.
  private final class Sink: Sendable {
    private let buffer = Locked("")

    func append(_ text: String) {
      buffer.withLock { $0 += text }
    }

    var text: String {
      buffer.withLock { $0 }
    }
  }
}
