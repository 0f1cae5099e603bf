import Foundation
import HarnessTestSupport
import ProfileKit
import Testing

@testable import ArchiveHarnessCLI

@Suite("The tool's name comes from argv[0]")
struct ToolNameTests {
  @Test("Help names the tool by the last path component of argv[0]")
  func helpUsesArgumentZero() {
    let result = InProcessCommand.run(["/opt/team/bin/my-harness", "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("USAGE: my-harness <subcommand>"))
    #expect(result.stdout.contains("See 'my-harness help <subcommand>' for detailed help."))
    #expect(!result.stdout.contains("archive-harness"))
  }

  @Test("A command's help and usage name the tool")
  func commandHelp() {
    let result = InProcessCommand.run(["my-harness", "verify", "--help"])
    #expect(result.stdout.contains("USAGE: my-harness verify [--manifests <dir>]"))
    #expect(!result.stdout.contains("archive-harness"))
  }

  @Test("A usage error names the tool in its usage and in 'See … --help'")
  func usageError() {
    let result = InProcessCommand.run(["my-harness", "inspect", "--colour", "file.archive"])
    #expect(result.status == 2)
    #expect(
      result.stderr == """
        Error: Unknown option '--colour'
        Usage: my-harness inspect [--format <format>] [--raw] <file>
          See 'my-harness inspect --help' for more information.

        """)
  }

  @Test("An unknown subcommand points to the tool's --help")
  func unknownSubcommand() {
    let result = InProcessCommand.run(["my-harness", "verfy"])
    #expect(result.status == 2)
    #expect(
      result.stderr == """
        Error: Unknown subcommand 'verfy'
        Usage: my-harness <subcommand>
          See 'my-harness --help' for more information.

        """)
  }

  @Test("Without argv[0] the name is archive-harness")
  func fallback() {
    #expect(ArchiveHarnessCommand.toolName(from: nil) == "archive-harness")
    #expect(ArchiveHarnessCommand.toolName(from: "") == "archive-harness")
    #expect(ArchiveHarnessCommand.toolName(from: "./my-harness") == "my-harness")
  }

  @Test("migrate prints its rollback command with the tool's name")
  func rollbackCommand() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tool-name-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = folder.appendingPathComponent("store")
    try FileManager.default.copyItem(
      at: Corpus.packageRoot.appendingPathComponent("LegacyArchives/ProfilesApp-1.0"), to: store)
    let result = InProcessCommand.run([
      "my-harness", "migrate", "--store", store.path, "--rename-only",
      "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile",
      "--class-map", "ProfilesApp.Address=ProfileKit.Address",
      "--backup", folder.appendingPathComponent("backup").path,
    ])
    let line = try #require(
      result.stdout.split(separator: "\n").first { $0.hasPrefix("rollback: ") },
      "\(result.stdout)\(result.stderr)")
    #expect(line.hasPrefix("rollback: my-harness migrate --rollback \(folder.path)/backup/"))
  }
}

@Suite("Reports name the running tool")
struct ReportToolNameTests {
  @Test("verify --format html and junit name the tool by argv[0]")
  func reportsUseArgumentZero() {
    let root = Corpus.packageRoot
    for format in ["html", "junit"] {
      let result = InProcessCommand.run(
        [
          "/opt/team/bin/profile-harness", "verify", "--format", format,
          "--manifests", root.appendingPathComponent("manifests").path,
          "--archives", root.appendingPathComponent("LegacyArchives").path,
        ],
        configuration: HarnessConfiguration(modelClasses: ProfileModel.classes, worker: .inProcess))
      #expect(result.stdout.contains("profile-harness verify"), "\(format): \(result.stderr)")
      #expect(!result.stdout.contains("archive-harness verify"), "\(format)")
    }
  }

  @Test("migrate-dry-run --format html and junit name the tool by argv[0]")
  func migrationReportsUseArgumentZero() {
    let store = Corpus.packageRoot.appendingPathComponent("LegacyArchives/ProfilesApp-1.0").path
    for format in ["html", "junit"] {
      let result = InProcessCommand.run(
        [
          "/opt/team/bin/profile-harness", "migrate-dry-run", "--store", store, "--rename-only",
          "--class-map", "ProfilesApp.Memo=ProfileKit.Memo", "--format", format,
        ],
        configuration: HarnessConfiguration(modelClasses: ProfileModel.classes, worker: .inProcess))
      #expect(
        result.stdout.contains("profile-harness migrate"), "\(format): \(result.stderr)")
      #expect(!result.stdout.contains("archive-harness migrate"), "\(format)")
    }
  }
}

/// The `archive-harness` a team installs is the command line alone: no sample app is linked in.
@Suite("The installed archive-harness knows no app's classes")
struct InstalledHarnessTests {
  @Test(
    "The sample app's archive decodes in profiles-harness and names the unregistered class in archive-harness"
  )
  func installedHarnessHasNoSampleClasses() throws {
    let archive = Corpus.packageRoot.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/profile-valid.archive"
    ).path
    let arguments = [
      "decode", archive, "--path", "legacy", "--class-map",
      "ProfilesApp.UserProfile=ProfileKit.UserProfile,ProfilesApp.Address=ProfileKit.Address",
    ]
    let sample = try CommandRunner.run(arguments)
    #expect(sample.status == 0)
    #expect(sample.stdout.contains("ProfileKit.UserProfile{id: 1001"))
    let bare = try CommandRunner.run(arguments, executableName: "archive-harness")
    #expect(bare.status == 1)
    #expect(bare.stdout.contains("[unmapped-class]"))
    // The map matched; what is missing is its target, and the message says so.
    #expect(
      bare.stdout.contains(
        "'ProfilesApp.UserProfile' maps to 'ProfileKit.UserProfile' by the class map"))
    #expect(bare.stdout.contains("register 'ProfileKit.UserProfile' in your harness executable"))
  }
}
