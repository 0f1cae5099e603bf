import Decoding
import HarnessVocabulary

/// The `archive-harness` command line: subcommands, help and exit statuses.
///
/// The executable's `main` is one call, given the app's model classes:
///
/// ```swift
/// exit(ArchiveHarnessCommand.main(CommandLine.arguments, configuration: configuration))
/// ```
///
/// The same executable serves as the decode worker when re-executed with the
/// worker argument, so app code that traps runs in a process the harness outlives.
public enum ArchiveHarnessCommand {
  /// The tool's name, as help prints it.
  public static let toolName = "archive-harness"
  /// The tool's version.
  public static let version = "0.1.0"

  static let overview =
    "Proves that historical NSKeyedArchiver archives still read, and migrates them safely."

  static var commands: [Command] {
    [
      InspectCommand.command, DecodeCommand.command, VerifyCommand.command,
      ManifestValidateCommand.command, ManifestAuthorCommand.command, AnonymizeCommand.command,
      MigrateDryRunCommand.command, MigrateCommand.command,
    ]
  }

  /// Runs the command line and returns the exit status.
  ///
  /// - Parameters:
  ///   - arguments: The full argument vector, the executable path first.
  ///   - configuration: The app's model classes.
  ///   - console: Where to write; the process's standard streams by default.
  /// - Returns: The exit status: 0 success, 1 findings, 2 could not proceed.
  public static func main(
    _ arguments: [String], configuration: HarnessConfiguration, console: Console = .standard
  ) -> Int32 {
    if arguments.dropFirst().first == FoundationReferenceWorker.modeArgument {
      return FoundationReferenceWorker.run(registries: configuration.workerRegistries)
    }
    let context = CommandContext(
      console: console, configuration: configuration,
      executableURL: HarnessConfiguration.executableURL)
    var rest = Array(arguments.dropFirst())
    guard let first = rest.first else {
      console.error(rootHelp())
      return ExitStatus.unusable.rawValue
    }
    if first == "-h" || first == "--help" {
      console.output(rootHelp())
      return ExitStatus.success.rawValue
    }
    if first == "--version" {
      console.output(version + "\n")
      return ExitStatus.success.rawValue
    }
    if first == "help" {
      rest.removeFirst()
      if rest.isEmpty {
        console.output(rootHelp())
        return ExitStatus.success.rawValue
      }
      rest.append("--help")
    }
    // Commands may be nested one level (`manifest validate`): match the longest name.
    let candidates = commands.sorted { $0.spec.name.count > $1.spec.name.count }
    for command in candidates {
      let words = command.spec.name.split(separator: " ").map(String.init)
      guard rest.count >= words.count, Array(rest.prefix(words.count)) == words else { continue }
      return run(command, Array(rest.dropFirst(words.count)), context: context)
    }
    let group = commands.filter { $0.spec.name.hasPrefix(first + " ") }
    if !group.isEmpty {
      let text = groupHelp(first, group)
      if rest.count == 1 || rest.contains("--help") || rest.contains("-h") {
        console.output(text)
        return ExitStatus.success.rawValue
      }
      console.error("Error: Unknown subcommand '\(rest[1])' of '\(first)'\n" + text)
      return ExitStatus.unusable.rawValue
    }
    console.error(
      "Error: Unknown subcommand '\(first)'\nUsage: \(toolName) <subcommand>\n  See '\(toolName) --help' for more information.\n"
    )
    return ExitStatus.unusable.rawValue
  }

  private static func run(_ command: Command, _ arguments: [String], context: CommandContext)
    -> Int32
  {
    let console = context.console
    do {
      let parsed = try ArgumentParser(spec: command.spec).parse(arguments)
      return try command.run(parsed, context).rawValue
    } catch is HelpRequest {
      console.output(HelpFormatter.help(command.spec, tool: toolName))
      return ExitStatus.success.rawValue
    } catch let error as UsageError {
      console.error(
        "Error: \(error.message)\nUsage: \(HelpFormatter.usage(command.spec, tool: toolName))\n  See '\(toolName) \(command.spec.name) --help' for more information.\n"
      )
      return ExitStatus.unusable.rawValue
    } catch let failure as CommandFailure {
      console.diagnose(
        .error, place: failure.place,
        category: failure.category.map(DiagnosticCategory.init(rawValue:)),
        failure.message)
      return ExitStatus.unusable.rawValue
    } catch {
      console.diagnose(.error, place: toolName, category: .internal, "\(error)")
      return ExitStatus.unusable.rawValue
    }
  }

  static func rootHelp() -> String {
    var text = "OVERVIEW: \(overview)\n\nUSAGE: \(toolName) <subcommand>\n\nOPTIONS:\n"
    text += HelpFormatter.row("--version", "Show the version.")
    text += HelpFormatter.row("-h, --help", "Show help information.")
    text += "\nSUBCOMMANDS:\n"
    for command in commands {
      text += HelpFormatter.row(command.spec.name, command.spec.abstract)
    }
    text += "\n  See '\(toolName) help <subcommand>' for detailed help.\n"
    text += "\nEXIT STATUS:\n" + ExitStatus.standardHelp + "\n"
    return text
  }

  private static func groupHelp(_ group: String, _ members: [Command]) -> String {
    var text = "USAGE: \(toolName) \(group) <subcommand>\n\nSUBCOMMANDS:\n"
    for command in members {
      text += HelpFormatter.row(
        String(command.spec.name.dropFirst(group.count + 1)), command.spec.abstract)
    }
    return text
  }
}
