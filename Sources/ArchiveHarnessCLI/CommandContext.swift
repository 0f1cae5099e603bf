import ArchiveFormat
import Foundation

/// What a command runs with: the console, and the app's classes with where decoding runs.
struct CommandContext: Sendable {
  /// Where output and diagnostics go.
  var console: Console
  /// The app's model classes, and the worker decode paths run in.
  var configuration: HarnessConfiguration
  /// The name the tool was run by, which help, errors and printed commands use.
  var toolName: String

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - console: Where output and diagnostics go.
  ///   - configuration: The app's model classes and worker.
  ///   - toolName: The name the tool was run by, such as `my-harness`.
  init(
    console: Console, configuration: HarnessConfiguration,
    toolName: String = ArchiveHarnessCommand.defaultToolName
  ) {
    self.console = console
    self.configuration = configuration
    self.toolName = toolName
  }
}
