/// What a command runs with: the console, and the executable's own path for re-executing itself as a worker.
public struct CommandContext: Sendable {
  /// Where output and diagnostics go.
  public var console: Console
  /// The path of the running `archive-harness` executable.
  public var executablePath: String

  /// Creates a context.
  public init(console: Console, executablePath: String) {
    self.console = console
    self.executablePath = executablePath
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
