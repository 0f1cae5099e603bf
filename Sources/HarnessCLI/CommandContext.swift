import Foundation
import HarnessVocabulary

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

/// A command: its spec and what it does.
struct Command: Sendable {
  var spec: CommandSpec
  var run: @Sendable (ParsedArguments, CommandContext) throws -> ExitStatus
}

/// A failure that stops a command with exit status 2, printed as a diagnostic naming the place.
struct CommandFailure: Error {
  var place: String
  var category: String?
  var message: String
}

extension DiagnosticCategory {
  /// A failure of the harness itself rather than of its input.
  static let `internal` = DiagnosticCategory(rawValue: "internal")
}
