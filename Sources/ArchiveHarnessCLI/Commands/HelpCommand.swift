/// `archive-harness help [SUBCOMMAND...]`: the help of the tool, a group, or a command.
enum HelpCommand {
  /// The subcommand path to show help for, such as `manifest author`.
  static let subcommands = Argument.repeating(
    "subcommands", help: "The subcommand to show help for, such as 'manifest author'.",
    optional: true)

  static let spec = CommandSpec(
    name: "help", abstract: "Show the help of the tool or of a subcommand.",
    arguments: [subcommands],
    exitStatus: """
        0  the help was shown
        2  no such subcommand
      """)

  static let command = Command(spec: spec) { arguments, context in
    context.console.output(
      try ArchiveHarnessCommand.helpText(for: arguments[subcommands], tool: context.toolName))
    return .success
  }
}
