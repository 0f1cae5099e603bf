import Testing

@testable import ArchiveHarnessCLI

@Suite("help for every command and subcommand, as a team's my-harness prints it")
struct HelpTests {
  /// Every path of the command tree: each command and group, nested ones by their full path.
  static let paths: [String] = {
    func walk(_ group: CommandGroup) -> [String] {
      group.entries.flatMap { entry -> [String] in
        switch entry {
        case .command(let command): [command.spec.name]
        case .group(let subgroup): [subgroup.name] + walk(subgroup)
        }
      }
    }
    return walk(ArchiveHarnessCommand.root)
  }()

  private func words(_ path: String) -> [String] {
    path.split(separator: " ").map(String.init)
  }

  @Test("The tree holds every command and group")
  func treeIsComplete() {
    #expect(
      Self.paths == [
        "inspect", "decode", "diff", "verify", "manifest", "manifest validate", "manifest author",
        "report", "report merge", "anonymize", "privacy-scan", "survey", "coredata",
        "coredata preflight", "migrate-dry-run", "migrate", "keychain", "keychain check",
        "keychain export",
        "help",
      ])
  }

  @Test("help PATH prints that command's help on stdout and exits 0", arguments: paths)
  func helpCommand(path: String) {
    let result = InProcessCommand.run(["my-harness", "help"] + words(path))
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("OVERVIEW: "))
    #expect(result.stdout.contains("\nUSAGE: my-harness \(path) "))
    #expect(result.stderr.isEmpty)
  }

  @Test("PATH --help prints the same help as help PATH", arguments: paths)
  func helpFlag(path: String) {
    let result = InProcessCommand.run(["my-harness"] + words(path) + ["--help"])
    #expect(result.status == 0)
    #expect(result.stdout == InProcessCommand.run(["my-harness", "help"] + words(path)).stdout)
    #expect(result.stderr.isEmpty)
  }

  @Test("PATH -h prints the same help as PATH --help", arguments: paths)
  func shortHelpFlag(path: String) {
    let result = InProcessCommand.run(["my-harness"] + words(path) + ["-h"])
    #expect(result.status == 0)
    #expect(result.stdout == InProcessCommand.run(["my-harness"] + words(path) + ["--help"]).stdout)
  }

  @Test("help manifest lists the group's subcommands")
  func helpManifest() {
    let result = InProcessCommand.run(["my-harness", "help", "manifest"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("USAGE: my-harness manifest <subcommand>"))
    #expect(result.stdout.contains("\n  validate "))
    #expect(result.stdout.contains("\n  author "))
    #expect(
      result.stdout.contains("See 'my-harness help manifest <subcommand>' for detailed help."))
  }

  @Test("help manifest author and manifest author --help print author's options")
  func helpManifestAuthor() {
    for arguments in [["help", "manifest", "author"], ["manifest", "author", "--help"]] {
      let result = InProcessCommand.run(["my-harness"] + arguments)
      #expect(result.status == 0)
      #expect(result.stdout.contains("USAGE: my-harness manifest author [--archives <dir>]"))
      #expect(result.stdout.contains("--update <file>"))
    }
  }

  @Test("manifest help author is help manifest author")
  func groupHelpWord() {
    let result = InProcessCommand.run(["my-harness", "manifest", "help", "author"])
    #expect(result.status == 0)
    #expect(
      result.stdout == InProcessCommand.run(["my-harness", "help", "manifest", "author"]).stdout)
  }

  @Test("manifest alone prints the group's help and exits 0")
  func groupAlone() {
    let result = InProcessCommand.run(["my-harness", "manifest"])
    #expect(result.status == 0)
    #expect(result.stdout == InProcessCommand.run(["my-harness", "help", "manifest"]).stdout)
  }

  @Test("help alone and --help print the tool's help with every subcommand")
  func toolHelp() {
    let help = InProcessCommand.run(["my-harness", "help"])
    let flag = InProcessCommand.run(["my-harness", "--help"])
    #expect(help.status == 0)
    #expect(flag.status == 0)
    #expect(help.stdout == flag.stdout)
    #expect(help.stdout.contains("USAGE: my-harness <subcommand>"))
    for entry in ArchiveHarnessCommand.root.entries {
      #expect(help.stdout.contains("\n  \(entry.word) "))
    }
  }

  @Test("No subcommand at all prints the tool's help on stderr and exits 2")
  func noSubcommand() {
    let result = InProcessCommand.run(["my-harness"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("USAGE: my-harness <subcommand>"))
  }

  @Test("help of an unknown subcommand is a usage error, exit 2")
  func helpUnknown() {
    let result = InProcessCommand.run(["my-harness", "help", "nope"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Error: Unknown subcommand 'nope'\n"))
  }

  @Test("help of an unknown subcommand of a group names the group, exit 2")
  func helpUnknownInGroup() {
    let result = InProcessCommand.run(["my-harness", "help", "manifest", "nope"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("Error: Unknown subcommand 'nope' of 'manifest'\n"))
  }

  @Test("help of a command with a word after it is a usage error, exit 2")
  func helpTooManyWords() {
    let result = InProcessCommand.run(["my-harness", "help", "verify", "extra"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("Error: 'verify' has no subcommand 'extra'\n"))
  }

  @Test("An unknown subcommand of a group is a usage error pointing to the group's help, exit 2")
  func unknownInGroup() {
    let result = InProcessCommand.run(["my-harness", "manifest", "nope"])
    #expect(result.status == 2)
    #expect(
      result.stderr == """
        Error: Unknown subcommand 'nope' of 'manifest'
        Usage: my-harness manifest <subcommand>
          See 'my-harness manifest --help' for more information.

        """)
  }
}
