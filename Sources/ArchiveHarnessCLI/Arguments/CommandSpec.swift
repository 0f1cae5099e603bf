/// The declared shape of one command: its name, help text, arguments, options and flags.
///
/// Parsing and help follow swift-argument-parser's conventions, so users meet
/// the `OVERVIEW`/`USAGE`/`ARGUMENTS`/`OPTIONS` layout they know. Each option
/// is declared once, as an `Option`, and the spec lists the declarations.
struct CommandSpec: Sendable {
  /// The command's name (`inspect`), or its path for a nested command (`manifest validate`).
  var name: String
  /// One sentence on what the command does.
  var abstract: String
  /// Further paragraphs of help, if any.
  var discussion: String
  /// Positional arguments, in order.
  var arguments: [ArgumentDeclaration]
  /// Options.
  var options: [OptionDeclaration]
  /// Flags.
  var flags: [Flag]
  /// Sets of options and flags, by long name, of which exactly one must be given,
  /// such as `--backup DIR` or `--no-backup`.
  var exactlyOneOf: [[String]]
  /// What the exit statuses mean for this command.
  var exitStatus: String

  /// Creates a spec from the command's declarations.
  ///
  /// - Precondition: Every name in `exactlyOneOf` is an option or a flag of the command,
  ///   and no two options or flags share a name.
  init(
    name: String, abstract: String, discussion: String = "",
    arguments: [any CommandArgument] = [], options: [any CommandOption] = [],
    flags: [Flag] = [], exactlyOneOf: [[String]] = [],
    exitStatus: String = ExitStatus.standardHelp
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments.map(\.declaration)
    self.options = options.map(\.declaration)
    self.flags = flags
    self.exactlyOneOf = exactlyOneOf
    self.exitStatus = exitStatus
    let names = self.options.map(\.name) + flags.map(\.name)
    precondition(Set(names).count == names.count, "'\(name)' declares a name twice")
    precondition(
      exactlyOneOf.joined().allSatisfy(names.contains),
      "'\(name)' groups an option it does not declare")
  }

  /// The option declared with this long name.
  func option(named name: String) -> OptionDeclaration? {
    options.first { $0.name == name }
  }

  /// The flag declared with this long name.
  func flag(named name: String) -> Flag? {
    flags.first { $0.name == name }
  }

  /// How usage and errors show an option or flag by its long name: `--backup <dir>`, `--no-backup`.
  func label(of name: String) -> String {
    option(named: name)?.label ?? "--\(name)"
  }
}
