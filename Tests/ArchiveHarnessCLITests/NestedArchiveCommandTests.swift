import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@Suite("Nested archives on the command line: inspect shows them, migrate --nested renames them")
struct NestedArchiveCommandTests {
  /// A folder holding `settings.archive`: a Settings object whose Data field is a profile archive.
  private func folder() throws -> URL {
    var inner = ArchiveBuilder()
    let profile = inner.object("ProfilesApp.UserProfile", [("name", inner.string("Ada"))])
    inner.setRoot(profile)
    var outer = ArchiveBuilder()
    let root = outer.object(
      "ProfileKit.Settings", [("profile", outer.add(.data(inner.bytes())))])
    outer.setRoot(root)
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "nested-cli-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: url.appendingPathComponent("store"), withIntermediateDirectories: true)
    try Data(outer.bytes()).write(to: url.appendingPathComponent("store/settings.archive"))
    return url
  }

  @Test("inspect names the nested archive's classes")
  func inspectShowsNested() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try CommandRunner.run(["inspect", "store/settings.archive"], in: root)
    #expect(run.status == 0)
    #expect(
      run.stdout.contains("nested archive (ProfilesApp.UserProfile; root ProfilesApp.UserProfile)"))
  }

  @Test("migrate-dry-run --rename-only --nested plans a rewrite that only the nested archive needs")
  func dryRunNested() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let map = ["--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--rename-only"]
    let without = try CommandRunner.run(["migrate-dry-run", "--store", "store"] + map, in: root)
    #expect(without.stdout.contains("1 already-current"))
    let with = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store", "--nested"] + map, in: root)
    #expect(with.stdout.contains("1 will-rewrite"))
  }

  @Test("--nested without --rename-only is a usage error")
  func nestedNeedsRenameOnly() throws {
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store", "--nested", "--allowed-classes", "NSArray"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("--nested"))
  }
}
