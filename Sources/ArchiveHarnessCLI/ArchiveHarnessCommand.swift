import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation

/// The `archive-harness` command line: subcommands, help and exit statuses.
///
/// A team's harness executable is one call, given the app's model classes:
///
/// ```swift
/// // Sources/notes-harness/main.swift
/// import HarnessCLI
/// import NotesKit
///
/// ArchiveHarnessCommand.main(configuration: HarnessConfiguration(modelClasses: NotesModel.classes))
/// ```
///
/// The tool's name in usage, help, errors and printed commands is the one it
/// was run by (the last path component of `arguments[0]`), so a team's
/// `my-harness` says `my-harness`. The same executable serves as the decode
/// worker when re-executed with the worker argument, so app code that traps
/// runs in a process the harness outlives. Called from a test, where the
/// running executable is the test runner, the configuration's
/// ``HarnessConfiguration/worker`` must name the harness executable
/// (`.buildProduct(named: "my-harness")`); otherwise every decode path is
/// reported as not run, with the reason.
public enum ArchiveHarnessCommand {
  /// The shipped executable's name, used when the argument vector names no executable.
  public static let defaultToolName = ToolName.standard
  /// The tool's version.
  public static let version = "0.1.0"

  static let overview =
    "Proves that historical NSKeyedArchiver archives still read, and migrates them safely."

  /// Every command, in the order help lists them, with `manifest`'s under their group.
  static let root =
    CommandGroup(
      name: "", abstract: overview,
      entries: [
        .command(InspectCommand.command), .command(DecodeCommand.command),
        .command(DiffCommand.command), .command(VerifyCommand.command),
        .group(
          CommandGroup(
            name: "manifest",
            abstract: "Validate manifests, and write them for archives.",
            entries: [
              .command(ManifestValidateCommand.command), .command(ManifestAuthorCommand.command),
            ])),
        .group(
          CommandGroup(
            name: "report", abstract: "Work with verify reports.",
            entries: [.command(ReportMergeCommand.command)])),
        .command(AnonymizeCommand.command), .command(PrivacyScanCommand.command),
        .command(SurveyCommand.command),
        .group(
          CommandGroup(
            name: "coredata", abstract: "Check a Core Data store against its model.",
            entries: [.command(CoreDataPreflightCommand.command)])),
        .command(MigrateDryRunCommand.command),
        .command(MigrateCommand.command),
        .group(
          CommandGroup(
            name: "keychain",
            abstract: "Keychain snapshots: check them against a manifest's queries, export them.",
            entries: [
              .command(KeychainCheckCommand.command), .command(KeychainExportCommand.command),
            ])),
        .command(HelpCommand.command),
      ])

  /// Runs the process's command line and exits with its status: the whole of a harness
  /// executable's `main.swift`.
  ///
  /// ```swift
  /// ArchiveHarnessCommand.main(configuration: HarnessConfiguration(modelClasses: NotesModel.classes))
  /// ```
  ///
  /// - Parameter configuration: The app's model classes, and where decode paths run.
  /// - Returns: Never: the process exits with 0 for success, 1 for findings, 2 when it could
  ///   not proceed.
  public static func main(configuration: HarnessConfiguration) -> Never {
    exit(main(CommandLine.arguments, configuration: configuration))
  }

  /// Runs a command line and returns the exit status, for a caller that goes on afterwards (a
  /// test, say); ``main(configuration:)`` is the executable's entry.
  ///
  /// - Parameters:
  ///   - arguments: The full argument vector, the executable path first; its
  ///     last path component is the tool's name in help and errors.
  ///   - configuration: The app's model classes, and where decode paths run.
  ///   - console: Where to write; the process's standard streams by default.
  /// - Returns: The exit status: 0 success, 1 findings, 2 could not proceed.
  package static func main(
    _ arguments: [String], configuration: HarnessConfiguration, console: Console = .standard
  ) -> Int32 {
    if arguments.dropFirst().first == HarnessWorker.modeArgument {
      return HarnessWorker.run(registries: configuration.workerRegistries)
    }
    let context = CommandContext(
      console: console, configuration: configuration, toolName: toolName(from: arguments.first))
    let status = run(Array(arguments.dropFirst()), in: root, context: context)
    // Output that did not reach standard output is a run that could not finish its work.
    if let code = StandardOutput.failedWith {
      console.diagnose(
        .error, file: "<stdout>", category: .unwritable,
        "standard output could not be written (\(String(cString: strerror(code)))); what the run "
          + "printed is incomplete")
      return ExitStatus.unusable.rawValue
    }
    return status
  }

  /// The tool's name from the argument vector's first element: its last path component.
  static func toolName(from executable: String?) -> String {
    ToolName.resolve(fromArgumentZero: executable)
  }

  /// Runs the words after a group's name: a subcommand, the group's help, or (at the root) the version.
  static func run(_ words: [String], in group: CommandGroup, context: CommandContext) -> Int32 {
    let console = context.console
    let tool = context.toolName
    guard let word = words.first else {
      if group.name.isEmpty {
        console.error(help(for: group, tool: tool))
        return ExitStatus.unusable.rawValue
      }
      console.output(help(for: group, tool: tool))
      return ExitStatus.success.rawValue
    }
    let rest = Array(words.dropFirst())
    switch word {
    case "-h", "--help":
      console.output(help(for: group, tool: tool))
      return ExitStatus.success.rawValue
    case "--version" where group.name.isEmpty:
      console.output(version + "\n")
      return ExitStatus.success.rawValue
    case "help" where !group.name.isEmpty:
      // `manifest help author` is `help manifest author`.
      let path = group.name.split(separator: " ").map(String.init)
      return run(HelpCommand.command, path + rest, context: context)
    default:
      break
    }
    switch group.entry(word) {
    case .command(let command):
      return run(command, rest, context: context)
    case .group(let subgroup):
      return run(rest, in: subgroup, context: context)
    case nil:
      let command = group.name.isEmpty ? tool : "\(tool) \(group.name)"
      console.error(
        HelpFormatter.usageError(
          unknownSubcommand(word, of: group), usage: "Usage: \(command) <subcommand>",
          command: command))
      return ExitStatus.unusable.rawValue
    }
  }

  /// The help for a path of subcommand words, such as `["manifest", "author"]`; the tool's for none.
  ///
  /// - Throws: `UsageError` for a word that names no subcommand.
  static func helpText(for words: [String], tool: String) throws(UsageError) -> String {
    var group = root
    for (index, word) in words.enumerated() {
      switch group.entry(word) {
      case .command(let command):
        if index + 1 < words.count {
          throw UsageError(
            message: "'\(command.spec.name)' has no subcommand '\(words[index + 1])'")
        }
        return HelpFormatter.help(command.spec, tool: tool)
      case .group(let subgroup):
        group = subgroup
      case nil:
        throw UsageError(message: unknownSubcommand(word, of: group))
      }
    }
    return help(for: group, tool: tool)
  }

  private static func run(_ command: Command, _ arguments: [String], context: CommandContext)
    -> Int32
  {
    let console = context.console
    let tool = context.toolName
    do {
      let parsed = try ArgumentParser(spec: command.spec).parse(arguments)
      return try command.run(parsed, context).rawValue
    } catch is HelpRequest {
      console.output(HelpFormatter.help(command.spec, tool: tool))
      return ExitStatus.success.rawValue
    } catch let error as UsageError {
      console.error(
        HelpFormatter.usageError(
          error.message,
          usage: HelpFormatter.usage(command.spec, tool: tool, prefix: "Usage: ", compact: true),
          command: "\(tool) \(command.spec.name)"))
      return ExitStatus.unusable.rawValue
    } catch let failure as CommandFailure {
      console.diagnose(
        .error, place: failure.place,
        category: failure.category,
        failure.message)
      for note in failure.notes {
        console.diagnose(.note, place: Place(file: failure.place.file), category: nil, note)
      }
      return ExitStatus.unusable.rawValue
    } catch {
      console.diagnose(.error, file: tool, category: .internal, "\(error)")
      return ExitStatus.unusable.rawValue
    }
  }

  /// A group's help; the root's adds `--version` and the exit statuses.
  private static func help(for group: CommandGroup, tool: String) -> String {
    guard group.name.isEmpty else {
      return HelpFormatter.help(group, tool: tool)
    }
    return HelpFormatter.help(
      group, tool: tool, extraOptions: [("--version", "Show the version.")],
      exitStatus: ExitStatus.standardHelp)
  }

  private static func unknownSubcommand(_ word: String, of group: CommandGroup) -> String {
    group.name.isEmpty
      ? "Unknown subcommand '\(word)'" : "Unknown subcommand '\(word)' of '\(group.name)'"
  }
}
