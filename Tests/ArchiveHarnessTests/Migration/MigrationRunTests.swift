import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `MigrationRun`, the library's migrate, called as a team's code calls it: a rename-only run
/// over a copy of the shipped version 1 archives, with the manifest's class map.
@Suite("MigrationRun, the library's migrate")
struct MigrationRunTests {
  /// The package root: the folder holding Package.swift.
  static let root = Corpus.packageRoot.path

  /// A folder holding `store/` (a copy of LegacyArchives/ProfilesApp-1.0) and room for a backup.
  static func scratchStore() throws -> String {
    let folder = NSTemporaryDirectory() + "migration-run-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: root + "/LegacyArchives/ProfilesApp-1.0", toPath: folder + "/store")
    return folder
  }

  static func contents(of folder: String) throws -> [String: Data] {
    var contents: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      contents[name] = FileManager.default.contents(atPath: folder + "/" + name)
    }
    return contents
  }

  static func options(_ folder: String) -> MigrationRun.Options {
    var options = MigrationRun.Options(store: folder + "/store")
    options.manifest = root + "/manifests/ProfilesApp-1.0.xml"
    options.renameOnly = true
    return options
  }

  static let configuration = HarnessConfiguration(modelClasses: [])

  @Test("A dry run plans the renames and changes no byte of the store")
  func dryRunChangesNothing() throws {
    let folder = try Self.scratchStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try Self.contents(of: folder + "/store")
    let run = try MigrationRun(
      configuration: Self.configuration, options: Self.options(folder), mode: .dryRun)
    let summary = try run.run()
    #expect(summary.rewritten > 0)
    #expect(summary.rollbackJournal == nil)
    #expect(try Self.contents(of: folder + "/store") == before)
  }

  @Test("migrate rewrites, keeps a journal, and a second run finds everything current")
  func migrateThenRerun() throws {
    let folder = try Self.scratchStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try Self.contents(of: folder + "/store")
    var options = Self.options(folder)
    options.backup = folder + "/backup"
    let planned = try MigrationRun(
      configuration: Self.configuration, options: options, mode: .dryRun
    ).run()
    let summary = try MigrationRun(
      configuration: Self.configuration, options: options, mode: .migrate
    ).run()
    #expect(summary.rewritten == planned.rewritten)
    let journal = try #require(summary.rollbackJournal)
    #expect(FileManager.default.fileExists(atPath: journal))
    #expect(try Self.contents(of: folder + "/store") != before)
    let again = try MigrationRun(
      configuration: Self.configuration, options: options, mode: .migrate
    ).run()
    #expect(again.rewritten == 0)
    #expect(again.alreadyCurrent == planned.alreadyCurrent + summary.rewritten)
  }

  @Test("migrate without a backup folder, and without noBackup, is refused before anything opens")
  func migrateNeedsBackup() throws {
    let folder = try Self.scratchStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let error = #expect(throws: MigrationRun.Problem.self) {
      try MigrationRun(
        configuration: Self.configuration, options: Self.options(folder), mode: .migrate)
    }
    #expect(error?.category?.rawValue == "invalid-options")
  }

  @Test("A store that does not exist is a problem naming it")
  func missingStore() {
    var options = MigrationRun.Options(store: "/nonexistent/store-\(UUID().uuidString)")
    options.renameOnly = true
    options.classMap = ["ProfilesApp.UserProfile": "ProfileKit.UserProfile"]
    let error = #expect(throws: MigrationRun.Problem.self) {
      try MigrationRun(configuration: Self.configuration, options: options, mode: .dryRun)
    }
    #expect(error?.category?.rawValue == "store-not-found")
    #expect(error?.place.file == options.store)
  }

  @Test("A second migrate on a store another run holds is refused as store-busy")
  func secondRunIsRefused() throws {
    let folder = try Self.scratchStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var options = Self.options(folder)
    options.backup = folder + "/backup"
    let first = try MigrationRun(
      configuration: Self.configuration, options: options, mode: .migrate)
    let error = #expect(throws: MigrationRun.Problem.self) {
      try MigrationRun(configuration: Self.configuration, options: options, mode: .migrate)
    }
    #expect(error?.category?.rawValue == "store-busy")
    withExtendedLifetime(first) {}
  }

  @Test("rename-only without a class map is refused, naming what is missing")
  func renameOnlyNeedsMap() throws {
    let folder = try Self.scratchStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var options = MigrationRun.Options(store: folder + "/store")
    options.renameOnly = true
    let error = #expect(throws: MigrationRun.Problem.self) {
      try MigrationRun(configuration: Self.configuration, options: options, mode: .dryRun)
    }
    #expect(error?.message.contains("class-name mapping") == true)
  }
}
