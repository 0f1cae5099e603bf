import Foundation
import HarnessTestSupport
import Testing

/// An encrypted store's record keys can be personal data: its reports and journal name rows by
/// rowid and a keyed hash, unless `--show-keys`.
@Suite("An encrypted store's rows are named without their keys")
struct EncryptedRecordNamesTests {
  static let fixtures = Corpus.packageRoot.appendingPathComponent("Tests/Fixtures/SQLCipher")
  static let renames = [
    "--table", "store", "--rename-only", "--class-map",
    "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
    "ProfilesApp.Address=ProfileKit.Address",
  ]

  private func workspace() throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "record-names-\(getpid())-\(UUID().uuidString)")
    for folder in ["store", "backup"] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("v4.sqlite"),
      to: root.appendingPathComponent("store/v4.sqlite"))
    try Data("harness-fixture-passphrase\n".utf8).write(to: root.appendingPathComponent("key"))
    return root
  }

  @Test("migrate's report, JSON report and journal name rows by rowid and keyed hash, never by key")
  func keysAreHidden() throws {
    let root = try workspace()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try CommandRunner.run(
      ["migrate", "--store", "store/v4.sqlite", "--key-file", "key", "--backup", "backup"]
        + Self.renames, in: root)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("store/v4.sqlite:store[rowid=1 key#"), "\(result.stdout)")
    #expect(!result.stdout.contains("profile-valid"))
    #expect(!result.stderr.contains("profile-valid"))
    let journalLine = try #require(
      result.stdout.split(separator: "\n").first { $0.hasPrefix("journal: ") })
    let journal = try String(
      contentsOfFile: root.path + "/" + String(journalLine.dropFirst("journal: ".count)),
      encoding: .utf8)
    #expect(journal.contains("\"keyHash\":\""))
    #expect(!journal.contains("profile-valid"))

    // The same rows get the same names in a later run with the same key.
    let json = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/v4.sqlite", "--key-file", "key", "--format", "json"]
        + Self.renames, in: root)
    #expect(json.stdout.contains("\"keyHash\":\""))
    #expect(!json.stdout.contains("profile-valid"))
    let firstName = try #require(
      result.stdout.split(separator: "\n").first { $0.contains("[rowid=1 key#") })
    let hash = try #require(firstName.split(separator: "#").last?.prefix(16))
    #expect(json.stdout.contains(String(hash)))
  }

  @Test("A rollback finds rows from a journal that names them by keyed hash, and restores them")
  func rollbackByKeyedHash() throws {
    let root = try workspace()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try CommandRunner.run(
      ["migrate", "--store", "store/v4.sqlite", "--key-file", "key", "--backup", "backup"]
        + Self.renames, in: root)
    let journalLine = try #require(
      result.stdout.split(separator: "\n").first { $0.hasPrefix("journal: ") })
    let journal = String(journalLine.dropFirst("journal: ".count))
    let rollback = try CommandRunner.run(
      ["migrate", "--rollback", journal, "--key-file", "key"], in: root)
    #expect(rollback.status == 0, "\(rollback.stdout)\(rollback.stderr)")
    #expect(
      rollback.stdout.contains("rollback: 7 restored, 0 already original, 0 conflicts"),
      "\(rollback.stdout)")
    #expect(!rollback.stdout.contains("profile-valid"))
    let dump = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/v4.sqlite", "--key-file", "key", "--show-keys"]
        + Self.renames, in: root)
    #expect(dump.stdout.contains("summary: 7 will-rewrite"), "\(dump.stdout)")
  }

  @Test("--show-keys names an encrypted store's rows by their keys")
  func showKeysShowsKeys() throws {
    let root = try workspace()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/v4.sqlite", "--key-file", "key", "--show-keys"]
        + Self.renames, in: root)
    #expect(
      result.stdout.contains("store/v4.sqlite:store[key='profile-valid']"), "\(result.stdout)")
    #expect(!result.stdout.contains("key#"))
  }
}
