import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// `migrate-dry-run`, `migrate` and `migrate --rollback` on SQLCipher stores with one fault
/// each: exit statuses and what they print.
@Suite("archive-harness on damaged encrypted stores")
struct DamagedEncryptedStoreCommandTests {
  private static let fixtures = Corpus.packageRoot.appendingPathComponent(
    "Tests/Fixtures/SQLCipher")
  private static let renames = [
    "--table", "store", "--rename-only", "--class-map",
    "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
    "ProfilesApp.Address=ProfileKit.Address",
  ]
  /// v4.sqlite has 38 pages of 4,096 bytes.
  private static let pageSize = 4096

  /// A folder with `store/FILE` (and its `-wal`), `backup/` and the key file `key`.
  private func workspace(_ file: String) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "damaged-cli-\(getpid())-\(UUID().uuidString)")
    for folder in ["store", "backup"] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    for suffix in ["", "-wal"]
    where FileManager.default.fileExists(
      atPath: Self.fixtures.appendingPathComponent(file + suffix).path)
    {
      try FileManager.default.copyItem(
        at: Self.fixtures.appendingPathComponent(file + suffix),
        to: root.appendingPathComponent("store/\(file)\(suffix)"))
    }
    try Data("harness-fixture-passphrase\n".utf8).write(to: root.appendingPathComponent("key"))
    return root
  }

  private func flip(_ file: URL, at offset: Int) throws {
    var bytes = [UInt8](try Data(contentsOf: file))
    bytes[offset] ^= 0x01
    try Data(bytes).write(to: file)
  }

  private func sha256(_ file: URL) throws -> String {
    SHA256Checksum.hex([UInt8](try Data(contentsOf: file)))
  }

  private func dryRun(_ file: String, in root: URL) throws -> CommandRunner.Result {
    try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/\(file)", "--key-file", "key"] + Self.renames,
      in: root)
  }

  private func migrate(_ file: String, in root: URL) throws -> CommandRunner.Result {
    try CommandRunner.run(
      ["migrate", "--store", "store/\(file)", "--key-file", "key", "--backup", "backup"]
        + Self.renames, in: root)
  }

  @Test("A dry run of a store cut by one byte exits 2, naming its last page")
  func dryRunOfTruncatedStore() throws {
    let root = try workspace("v4.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let store = root.appendingPathComponent("store/v4.sqlite")
    let bytes = try Data(contentsOf: store)
    try bytes.dropLast().write(to: store)
    let run = try dryRun("v4.sqlite", in: root)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("store/v4.sqlite:page 38: error: [damaged-page]"), "\(run.stderr)")
    #expect(run.stderr.contains("not a whole number of 4096-byte pages"))
    #expect(!run.stdout.contains("will-rewrite"))
  }

  @Test("A dry run of a store with a flipped byte in a middle page exits 2, naming the page")
  func dryRunOfDamagedMiddlePage() throws {
    let root = try workspace("v4.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let store = root.appendingPathComponent("store/v4.sqlite")
    try flip(store, at: 18 * Self.pageSize + 1000)
    let run = try dryRun("v4.sqlite", in: root)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("store/v4.sqlite:page 19: error: [damaged-page]"), "\(run.stderr)")
    #expect(run.stderr.contains("nothing was written"))
    #expect(!run.stdout.contains("will-rewrite"))
  }

  @Test("migrate of a store with a flipped byte in its last page exits 2 and writes nothing")
  func migrateOfDamagedLastPage() throws {
    let root = try workspace("v4.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let store = root.appendingPathComponent("store/v4.sqlite")
    try flip(store, at: 37 * Self.pageSize + 1000)
    let before = try sha256(store)
    let run = try migrate("v4.sqlite", in: root)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("store/v4.sqlite:page 38: error: [damaged-page]"), "\(run.stderr)")
    #expect(run.stderr.contains("nothing was written"))
    #expect(!run.stdout.contains("rewritten"))
    #expect(try sha256(store) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent("backup").path
      ).isEmpty)
    #expect(
      try FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent("store").path) == ["v4.sqlite"])
  }

  @Test("A flipped byte in page 1 exits 2 with [damaged-page], not [wrong-key]")
  func damagedFirstPage() throws {
    let root = try workspace("v4.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let store = root.appendingPathComponent("store/v4.sqlite")
    try flip(store, at: 1000)
    let before = try sha256(store)
    let run = try migrate("v4.sqlite", in: root)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("store/v4.sqlite:page 1: error: [damaged-page]"), "\(run.stderr)")
    #expect(!run.stderr.contains("[wrong-key]"))
    #expect(try sha256(store) == before)
  }

  @Test("A damaged -wal exits 2, naming the -wal, and migrate keeps the -wal as it was")
  func damagedWAL() throws {
    let root = try workspace("v4-wal.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let wal = root.appendingPathComponent("store/v4-wal.sqlite-wal")
    try flip(wal, at: 32 + 24 + 1000)
    let before = try sha256(wal)
    let dry = try dryRun("v4-wal.sqlite", in: root)
    #expect(dry.status == 2, "\(dry.stderr)")
    #expect(dry.stderr.contains("v4-wal.sqlite-wal:page "), "\(dry.stderr)")
    #expect(dry.stderr.contains("[damaged-page] frame 1 of the -wal"))
    let run = try migrate("v4-wal.sqlite", in: root)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("[damaged-page]"))
    // Before the check, SQLite dropped the damaged frame and every one after it, and
    // migrate's connection then deleted the -wal: the transactions in it were lost.
    #expect(try sha256(wal) == before)
  }

  @Test(
    "Rollback from a backup with a damaged page restores the rest, names each other record, exits 1"
  )
  func rollbackFromDamagedBackup() throws {
    let root = try workspace("v4.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let migrated = try migrate("v4.sqlite", in: root)
    #expect(migrated.stdout.contains("7 rewritten"), "\(migrated.stderr)")
    let journal = try #require(
      migrated.stdout.split(separator: "\n").first { $0.hasPrefix("journal:") }
    ).dropFirst("journal:".count).trimmingCharacters(in: .whitespaces)
    let journalFile =
      journal.hasPrefix("/")
      ? URL(fileURLWithPath: journal) : root.appendingPathComponent(journal)
    let backup = journalFile.deletingLastPathComponent().appendingPathComponent("v4.sqlite")
    // Page 10, a leaf of the `store` table, holds two of the seven originals.
    try flip(backup, at: 9 * Self.pageSize + 1000)
    let run = try CommandRunner.run(
      ["migrate", "--rollback", journal, "--key-file", "key"], in: root)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.contains("5 restored, 0 already original, 2 conflicts"), "\(run.stdout)")
    let conflicts = run.stdout.split(separator: "\n").filter { $0.hasPrefix("conflict") }
    #expect(conflicts.count == 2)
    for line in conflicts {
      #expect(line.contains("v4.sqlite:page 10: [damaged-page]"), "\(line)")
    }
  }
}
