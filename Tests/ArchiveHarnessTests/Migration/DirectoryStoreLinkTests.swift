import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Symbolic links in a directory store are refused, each reported as a refused record with the
/// reason; they are never followed out of the store and never replaced, in the dry run and in
/// `migrate` alike.
@Suite("Directory stores and symbolic links")
struct DirectoryStoreLinkTests {
  /// A store built from the sample rows, and a folder outside it holding a v1 archive.
  struct Fixture {
    let folder: String
    let store: String
    let outside: String

    init() throws {
      folder = try MigrationFixtures.temporaryFolder()
      store = folder + "/store"
      outside = folder + "/outside"
      try MigrationFixtures.makeFolder(at: store)
      try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
      try Data(MigrationFixtures.profile(id: 99)).write(
        to: URL(fileURLWithPath: outside + "/secret.archive"))
    }

    func remove() {
      try? FileManager.default.removeItem(atPath: folder)
    }

    func link(_ name: String, to target: String) throws {
      try FileManager.default.createSymbolicLink(
        atPath: store + "/" + name, withDestinationPath: target)
    }

    func isLink(_ name: String) -> Bool {
      var status = stat()
      return lstat(store + "/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Runs `migrate` (with a backup) or, without a writer, a dry run.
    func run(migrate: Bool) throws -> (
      summary: MigrationSummary, plans: [String: RecordPlan.Outcome]
    ) {
      let writer =
        migrate
        ? try DirectoryStore(path: store).makeWriter(
          runDirectory: folder + "/backup/run", journalPath: nil) : nil
      return try MigrationFixtures.run(try DirectoryStore(path: store), writer: writer)
    }

    func refusal(_ name: String, in plans: [String: RecordPlan.Outcome]) -> RecordRefusal? {
      guard case .refused(let refusal) = plans[store + "/" + name] else { return nil }
      return refusal
    }
  }

  @Test("A record that is a link to a file outside the store is refused, and neither is touched")
  func linkOutOfStoreIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try fixture.link("escape.archive", to: fixture.outside + "/secret.archive")
    let outsideBefore = try MigrationFixtures.checksums(ofFolder: fixture.outside)
    let result = try fixture.run(migrate: true)
    let refusal = try #require(fixture.refusal("escape.archive", in: result.plans))
    #expect(refusal.step == .read)
    #expect(refusal.reason.hasPrefix("a symbolic link to '\(fixture.outside)/secret.archive'"))
    #expect(refusal.reason.contains("never followed or replaced"))
    #expect(result.summary.rewritten == 2)
    #expect(fixture.isLink("escape.archive"))
    #expect(try MigrationFixtures.checksums(ofFolder: fixture.outside) == outsideBefore)
  }

  @Test("A link to another record inside the store is refused too; the record itself migrates")
  func linkInsideStoreIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try fixture.link("alias.archive", to: "a-legacy.archive")
    let result = try fixture.run(migrate: true)
    #expect(fixture.refusal("alias.archive", in: result.plans) != nil)
    guard case .rewritten = result.plans[fixture.store + "/a-legacy.archive"] else {
      Issue.record("the real file was not migrated")
      return
    }
    #expect(fixture.isLink("alias.archive"))
  }

  @Test("A linked folder is one refused record and is not entered")
  func linkedFolderIsRefusedAndNotEntered() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try fixture.link("more", to: fixture.outside)
    let outsideBefore = try MigrationFixtures.checksums(ofFolder: fixture.outside)
    let result = try fixture.run(migrate: true)
    let refusal = try #require(fixture.refusal("more", in: result.plans))
    #expect(refusal.reason.hasPrefix("a symbolic link to the folder '\(fixture.outside)'"))
    #expect(result.plans.keys.allSatisfy { !$0.hasPrefix(fixture.store + "/more/") })
    #expect(result.summary.total == 8)
    #expect(try DirectoryStore(path: fixture.store).recordCount() == 8)
    #expect(try MigrationFixtures.checksums(ofFolder: fixture.outside) == outsideBefore)
    #expect(fixture.isLink("more"))
  }

  @Test("A link to nothing is refused, saying its target does not exist")
  func danglingLinkIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try fixture.link("gone.archive", to: fixture.folder + "/nowhere.archive")
    let result = try fixture.run(migrate: true)
    let refusal = try #require(fixture.refusal("gone.archive", in: result.plans))
    #expect(refusal.reason.contains("which does not exist"))
    #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/nowhere.archive"))
  }

  @Test("The dry run reports linked records and folders as refused, exactly as migrate does")
  func dryRunReportsLinks() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try fixture.link("escape.archive", to: fixture.outside + "/secret.archive")
    try fixture.link("more", to: fixture.outside)
    let result = try fixture.run(migrate: false)
    #expect(fixture.refusal("escape.archive", in: result.plans) != nil)
    #expect(fixture.refusal("more", in: result.plans) != nil)
    #expect(result.summary.willRewrite == 2)
    #expect(result.summary.refused == 3)
  }

  @Test("migrate-dry-run prints a linked record as refused with its reason")
  func dryRunCommandPrintsLinks() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try fixture.link("escape.archive", to: fixture.outside + "/secret.archive")
    let result = try CommandRunner.run([
      "migrate-dry-run", "--store", fixture.store, "--rename-only", "--class-map",
      "ProfilesApp.UserProfile=ProfileKit.UserProfile",
    ])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "refused          \(fixture.store)/escape.archive  [read] a symbolic link to '"))
    #expect(
      result.stdout.contains(
        "today: not known: the app's read of the record was not run to the end"))
  }

  @Test("A FIFO in the store is skipped without being opened")
  func fifoIsSkipped() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try #require(mkfifo(fixture.store + "/pipe.archive", 0o644) == 0)
    let result = try fixture.run(migrate: true)
    guard case .skipped(let reason) = result.plans[fixture.store + "/pipe.archive"] else {
      Issue.record("the FIFO was not skipped")
      return
    }
    #expect(reason == "not a regular file (a FIFO); never opened")
  }

  @Test("A file replaced by a link between read and write is refused and the link is kept")
  func fileReplacedByLinkIsNotWritten() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let path = fixture.store + "/a-legacy.archive"
    let transform = ReplaceWithLinkTransform(
      inner: RenameOnlyTransform(mapping: MigrationFixtures.mapping), path: path,
      target: fixture.outside + "/secret.archive")
    let outsideBefore = try MigrationFixtures.checksums(ofFolder: fixture.outside)
    let writer = try DirectoryStore(path: fixture.store).makeWriter(
      runDirectory: nil, journalPath: nil)
    let result = try MigrationFixtures.run(
      try DirectoryStore(path: fixture.store), transform: transform, writer: writer)
    let refusal = try #require(fixture.refusal("a-legacy.archive", in: result.plans))
    #expect(refusal.step == .write)
    #expect(refusal.reason.contains("became a symbolic link"))
    #expect(fixture.isLink("a-legacy.archive"))
    #expect(try MigrationFixtures.checksums(ofFolder: fixture.outside) == outsideBefore)
  }

  @Test("Rollback leaves a migrated file that was replaced by a link alone, as a conflict")
  func rollbackLeavesLinkAlone() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let writer = try DirectoryStore(path: fixture.store).makeWriter(
      runDirectory: fixture.folder + "/backup/run", journalPath: nil)
    _ = try MigrationFixtures.run(try DirectoryStore(path: fixture.store), writer: writer)
    let path = fixture.store + "/a-legacy.archive"
    try FileManager.default.removeItem(atPath: path)
    try fixture.link("a-legacy.archive", to: fixture.outside + "/secret.archive")
    let outsideBefore = try MigrationFixtures.checksums(ofFolder: fixture.outside)
    var outcomes: [String: MigrationRollback.Outcome] = [:]
    let summary = try MigrationRollback.run(journalPath: try #require(writer.journalPath)) {
      outcomes[$0] = $1
    }
    #expect(summary.conflicts == 1)
    #expect(summary.restored == 1)
    guard
      case .conflict(let reason) = outcomes.first(where: { $0.key.hasSuffix("/a-legacy.archive") })?
        .value
    else {
      Issue.record("no conflict for the linked file")
      return
    }
    #expect(reason.contains("now a symbolic link"))
    #expect(fixture.isLink("a-legacy.archive"))
    #expect(try MigrationFixtures.checksums(ofFolder: fixture.outside) == outsideBefore)
  }
}

/// Wraps a transform and, while verifying one file, replaces it by a symbolic link.
struct ReplaceWithLinkTransform: RecordTransform {
  var inner: any RecordTransform
  var path: String
  var target: String
  var name: String { inner.name }

  func transform(_ input: TransformInput) -> TransformResult {
    if input.id.description == path {
      unlink(path)
      symlink(target, path)
    }
    return inner.transform(input)
  }
}
