/// The declared shape of one command: its name, help text, arguments, options and flags.
///
/// Parsing and help follow swift-argument-parser's conventions, so users meet
/// the `OVERVIEW`/`USAGE`/`ARGUMENTS`/`OPTIONS` layout they know.
public struct CommandSpec: Sendable {
  /// A positional argument.
  public struct Argument: Sendable {
    /// The name shown in usage, such as `file`.
    public var name: String
    /// One line of help.
    public var help: String
    /// Whether it takes one or more values.
    public var repeating: Bool = false
    /// Whether it may be left out.
    public var optional: Bool = false
  }

  /// An option that takes a value (`--format json`, `--format=json`).
  public struct Option: Sendable {
    /// The long name without dashes.
    public var name: String
    /// A one-letter short name, if any.
    public var short: Character? = nil
    /// The value's name in help, such as `FILE`.
    public var valueName: String
    /// One line of help.
    public var help: String
    /// The values allowed, if they are a closed set.
    public var allowedValues: [String]? = nil
    /// The default, shown in help.
    public var defaultValue: String? = nil
    /// Whether the option may be given several times.
    public var repeating: Bool = false
  }

  /// A flag without a value (`--raw`).
  public struct Flag: Sendable {
    /// The long name without dashes.
    public var name: String
    /// One line of help.
    public var help: String
  }

  /// The command's name (`inspect`), or its path for a nested command (`manifest validate`).
  public var name: String
  /// One sentence on what the command does.
  public var abstract: String
  /// Further paragraphs of help, if any.
  public var discussion: String = ""
  /// Positional arguments, in order.
  public var arguments: [Argument] = []
  /// Options.
  public var options: [Option] = []
  /// Flags.
  public var flags: [Flag] = []
  /// What the exit statuses mean for this command.
  public var exitStatus: String = ExitStatus.standardHelp
}
