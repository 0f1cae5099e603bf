/// A name over subcommands, such as `manifest` over `manifest validate` and `manifest author`.
///
/// The tool itself is the root group, with an empty name.
struct CommandGroup: Sendable {
  /// The group's path (`manifest`), empty for the tool's root.
  var name: String
  /// One sentence on what the group's subcommands do.
  var abstract: String
  /// The subcommands, in the order help lists them.
  var entries: [Subcommand]

  /// The entry whose last word is `word`.
  func entry(_ word: String) -> Subcommand? {
    entries.first { $0.word == word }
  }
}

/// One entry of a `CommandGroup`: a command, or a group of further subcommands.
enum Subcommand: Sendable {
  /// A command that runs.
  case command(Command)
  /// A group of subcommands.
  case group(CommandGroup)

  /// The word that selects the entry on the command line: the last word of its path.
  var word: String {
    let path: String
    switch self {
    case .command(let command): path = command.spec.name
    case .group(let group): path = group.name
    }
    return path.split(separator: " ").last.map(String.init) ?? path
  }

  /// One sentence on what the entry does.
  var abstract: String {
    switch self {
    case .command(let command): command.spec.abstract
    case .group(let group): group.abstract
    }
  }
}
