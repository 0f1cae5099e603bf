import Foundation
import HarnessTestSupport
import Testing

/// The command reference article, generated from each command's help by `scripts/command-reference`.
@Suite("Command reference article")
struct CommandReferenceTests {
  /// The article, relative to the package root.
  static let article = "Sources/ArchiveHarness/ArchiveHarness.docc/CommandReference.md"

  /// Runs `scripts/command-reference --check` with the built `archive-harness`.
  static func check() throws -> (status: Int32, output: String) {
    let executable = try #require(
      CommandRunner.executable(named: "archive-harness"), "archive-harness is not built")
    var environment = ProcessInfo.processInfo.environment
    environment["ARCHIVE_HARNESS"] = executable.path
    let result = try CommandRunner.run(
      program: "/usr/bin/env", ["bash", "scripts/command-reference", "--check"],
      in: Corpus.packageRoot, environment: environment)
    return (result.status ?? -1, result.stdout + result.stderr)
  }

  @Test("The committed article is what scripts/command-reference writes from the built help")
  func articleIsCurrent() throws {
    let result = try Self.check()
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("is up to date"))
  }

  /// The names a help text lists under `SUBCOMMANDS:`.
  static func subcommands(in help: String) -> [String] {
    help.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0 != "SUBCOMMANDS:" }.dropFirst().prefix { !$0.isEmpty }
      .compactMap { $0.split(separator: " ").first.map(String.init) }
  }

  /// Every command `help` lists, a group's subcommands as `GROUP SUBCOMMAND` in its place.
  static func commands() throws -> [String] {
    let help = try CommandRunner.run(["help"])
    #expect(help.status == 0)
    var commands: [String] = []
    for name in subcommands(in: help.stdout) {
      let groupHelp = try CommandRunner.run(["help", name])
      let members = subcommands(in: groupHelp.stdout)
      commands += members.isEmpty ? [name] : members.map { "\(name) \($0)" }
    }
    return commands
  }

  @Test("The article has a section for every command that help lists")
  func everyCommandHasASection() throws {
    let text = try String(
      contentsOf: Corpus.packageRoot.appendingPathComponent(Self.article), encoding: .utf8)
    let commands = try Self.commands()
    #expect(commands.count >= 12, "\(commands)")
    for command in commands {
      let level = command.contains(" ") ? "###" : "##"
      #expect(text.contains("\n\(level) \(command)\n"), "no section for \(command)")
    }
  }

  @Test("README's command table has a row for every command that help lists")
  func readmeTableNamesEveryCommand() throws {
    let readme = try String(
      contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
    for command in try Self.commands() {
      #expect(
        rows.contains { $0.hasPrefix("| `\(command)`") || $0.hasPrefix("| `\(command) ") },
        "README's command table has no row for \(command)")
    }
  }
}
