import Foundation
import HarnessTestSupport
import Testing

/// `migrate-dry-run`, `migrate` and `migrate --rollback` on SQLCipher stores, run as a team runs them.
@Suite("archive-harness on encrypted stores, run as a user would")
struct EncryptedStoreCommandTests {
  private static let fixtures = Corpus.packageRoot.appendingPathComponent(
    "Tests/Fixtures/SQLCipher")
  private static let renames = [
    "--table", "store", "--rename-only", "--class-map",
    "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
    "ProfilesApp.Address=ProfileKit.Address",
  ]

  /// A folder with `store/FILE`, `backup/`, `tmp/` and a key file beside them.
  private func workspace(_ file: String, key: String = "harness-fixture-passphrase\n") throws -> URL
  {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "encrypted-cli-\(getpid())-\(UUID().uuidString)")
    for folder in ["store", "backup", "tmp", "keys"] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent(file),
      to: root.appendingPathComponent("store/\(file)"))
    try Data(key.utf8).write(to: root.appendingPathComponent("keys/key"))
    return root
  }

  /// Strings the records hold in plaintext, and one that only the migrated records hold.
  private static let planted = [
    "Avery Example", "Walldorf", "1 Sample Street", "ProfileKit.UserProfile",
    "PLAINTEXT-MARKER-", "SQLite format 3",
  ]

  /// Every regular file at or under `location` that holds a planted string in UTF-8 or UTF-16LE.
  private func leaks(under location: URL) throws -> [String] {
    var found: [String] = []
    var isFolder: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: location.path, isDirectory: &isFolder)
    var files = [location]
    if isFolder.boolValue {
      files =
        FileManager.default.enumerator(at: location, includingPropertiesForKeys: nil)?
        .compactMap { $0 as? URL } ?? []
    }
    for url in files {
      guard let data = try? Data(contentsOf: url) else { continue }
      for text in Self.planted {
        for encoding in [String.Encoding.utf8, .utf16LittleEndian] {
          if let needle = text.data(using: encoding), data.range(of: needle) != nil {
            found.append("\(url.lastPathComponent): \(text) (\(encoding))")
          }
        }
      }
    }
    return found
  }

  @Test("migrate leaves no plaintext in the store's folder, the backup folder or TMPDIR")
  func noPlaintextOnDisk() throws {
    let root = try workspace("v4.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = root.appendingPathComponent("tmp").path
    let run = try CommandRunner.run(
      [
        "migrate", "--store", "store/v4.sqlite", "--key-file", "keys/key", "--backup", "backup",
        "--batch-size", "2",
      ] + Self.renames, in: root, environment: environment)
    #expect(run.status == 1, "one record is refused: \(run.stderr)")
    #expect(run.stdout.contains("7 rewritten"))
    #expect(run.stderr.contains("SQLCipher 4 defaults"))
    let folders = ["store", "backup", "tmp"].map { root.appendingPathComponent($0) }
    #expect(try folders.flatMap(leaks(under:)) == [])
    // The scan finds what it looks for: the same strings in the store's plaintext copy.
    #expect(
      try !leaks(under: Self.fixtures.appendingPathComponent("plain.sqlite")).isEmpty)
  }

  @Test("A dry run of an encrypted WAL store writes nothing: no -shm, no -journal")
  func dryRunWritesNothing() throws {
    let root = try workspace("v4-wal.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("v4-wal.sqlite-wal"),
      to: root.appendingPathComponent("store/v4-wal.sqlite-wal"))
    let before = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("store").path
    ).sorted()
    let sums = try before.map {
      try Data(contentsOf: root.appendingPathComponent("store/\($0)"))
    }
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/v4-wal.sqlite", "--key-file", "keys/key"]
        + Self.renames, in: root)
    #expect(run.status == 1)
    #expect(run.stdout.contains("7 will-rewrite"))
    let after = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("store").path
    ).sorted()
    #expect(after == before)
    #expect(
      try after.map { try Data(contentsOf: root.appendingPathComponent("store/\($0)")) } == sums)
  }

  @Test("A wrong key exits 2 and names what it may be")
  func wrongKeyExitsTwo() throws {
    let root = try workspace("v3.sqlite", key: "not the key\n")
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/v3.sqlite", "--key-file", "keys/key"] + Self.renames,
      in: root)
    #expect(run.status == 2)
    #expect(run.stderr.contains("[wrong-key]"))
    #expect(run.stderr.contains("wrong key"))
    #expect(!run.stderr.contains("not the key"))
  }

  @Test("The key comes from an environment variable with --key-env")
  func keyFromEnvironment() throws {
    let root = try workspace("v2.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    var environment = ProcessInfo.processInfo.environment
    environment["PROFILES_KEY"] = "harness-fixture-passphrase"
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/v2.sqlite", "--key-env", "PROFILES_KEY"]
        + Self.renames, in: root, environment: environment)
    #expect(run.status == 1)
    #expect(run.stderr.contains("SQLCipher 2 defaults"))
  }

  @Test("Both --key-file and --key-env is a usage error")
  func bothKeySources() throws {
    let root = try workspace("v2.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try CommandRunner.run(
      [
        "migrate-dry-run", "--store", "store/v2.sqlite", "--key-file", "keys/key", "--key-env",
        "HOME",
      ] + Self.renames, in: root)
    #expect(run.status == 2)
    #expect(run.stderr.contains("not both"))
  }

  @Test("A passphrase given by mistake as --key-file never appears in the error")
  func passphraseAsKeyFileIsNotEchoed() throws {
    let root = try workspace("v2.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let secret = "correct horse battery staple"
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/v2.sqlite", "--key-file", secret] + Self.renames,
      in: root)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("[invalid-key]"), "\(run.stderr)")
    #expect(!run.stderr.contains(secret) && !run.stdout.contains(secret), "\(run.stderr)")
  }

  @Test("Cipher settings without a key are a usage error")
  func settingsWithoutKey() throws {
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", "x.sqlite", "--cipher-compatibility", "3"] + Self.renames)
    #expect(run.status == 2)
    #expect(run.stderr.contains("need the store's key"))
  }

  @Test("migrate, then migrate --rollback with the key, restores every record")
  func migrateThenRollBack() throws {
    let root = try workspace("v1.sqlite")
    defer { try? FileManager.default.removeItem(at: root) }
    let migrated = try CommandRunner.run(
      ["migrate", "--store", "store/v1.sqlite", "--key-file", "keys/key", "--backup", "backup"]
        + Self.renames, in: root)
    #expect(migrated.stdout.contains("7 rewritten"))
    let journal = try #require(
      migrated.stdout.split(separator: "\n").first { $0.hasPrefix("journal:") }
    ).dropFirst("journal:".count).trimmingCharacters(in: .whitespaces)
    let withoutKey = try CommandRunner.run(["migrate", "--rollback", journal], in: root)
    #expect(withoutKey.status == 2)
    #expect(withoutKey.stderr.contains("--key-file"))
    let rolledBack = try CommandRunner.run(
      ["migrate", "--rollback", journal, "--key-file", "keys/key"], in: root)
    #expect(rolledBack.status == 0)
    #expect(rolledBack.stdout.contains("7 restored"))
    let again = try CommandRunner.run(
      ["migrate-dry-run", "--store", "store/v1.sqlite", "--key-file", "keys/key"] + Self.renames,
      in: root)
    #expect(again.stdout.contains("7 will-rewrite"))
  }
}
