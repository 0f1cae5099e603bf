import Foundation
import HarnessVocabulary

/// What a command runs with: the console, the app's classes, and the executable to re-execute as a worker.
public struct CommandContext: Sendable {
  /// Where output and diagnostics go.
  public var console: Console
  /// The app's model classes.
  public var configuration: HarnessConfiguration
  /// The running `archive-harness` executable, which decode workers re-execute.
  public var executableURL: URL
  /// The name the tool was run by, which help, errors and printed commands use.
  public var toolName: String

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - console: Where output and diagnostics go.
  ///   - configuration: The app's model classes.
  ///   - executableURL: The executable decode workers re-execute.
  ///   - toolName: The name the tool was run by, such as `my-harness`.
  public init(
    console: Console, configuration: HarnessConfiguration, executableURL: URL,
    toolName: String = ArchiveHarnessCommand.defaultToolName
  ) {
    self.console = console
    self.configuration = configuration
    self.executableURL = executableURL
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
