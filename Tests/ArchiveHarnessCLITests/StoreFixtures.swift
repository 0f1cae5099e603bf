import ArchiveFormat
import Foundation
import HarnessTestSupport

@testable import ArchiveHarness

/// Stores for the `migrate-dry-run` and `migrate` command tests: folders of the shipped v1
/// archives, a small SQLite store, and the checksums that prove what a run changed.
enum StoreFixtures {
  /// The shipped v1 profile, an archive of `ProfilesApp` classes that the sample's manifest maps.
  static let legacyProfile = "LegacyArchives/ProfilesApp-1.0/profile-valid.archive"

  /// The sample's v1 manifest: class map, allowed classes and expectations.
  static var manifest: String {
    Corpus.packageRoot.appendingPathComponent("manifests/ProfilesApp-1.0.xml").path
  }

  /// A new empty folder under the temporary directory; the caller removes it.
  static func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "migrate-command-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// A new temporary folder holding `store`, a copy of the shipped v1 archives as a directory
  /// store; the caller removes the folder.
  static func scratchProfileStore() throws -> String {
    let folder = try temporaryFolder()
    try FileManager.default.copyItem(
      atPath: Corpus.packageRoot.appendingPathComponent("LegacyArchives/ProfilesApp-1.0").path,
      toPath: folder + "/store")
    return folder
  }

  /// The bytes of a file below the package root.
  static func shipped(_ relativePath: String) throws -> [UInt8] {
    Array(try Data(contentsOf: Corpus.packageRoot.appendingPathComponent(relativePath)))
  }

  /// The SHA-256 of every regular file under `folder`, hidden ones included, by relative path.
  static func checksums(ofFolder folder: String) throws -> [String: String] {
    var sums: [String: String] = [:]
    let files = FileManager.default.enumerator(atPath: folder)
    while let relative = files?.nextObject() as? String {
      let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + relative)
      guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
      let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + relative))
      sums[relative] = SHA256Checksum.hex(Array(bytes))
    }
    return sums
  }

  /// Writes an SQLite store, table `store(key TEXT PRIMARY KEY, value BLOB)`, of three records:
  /// `a-legacy` (the shipped v1 profile), `b-null` (NULL) and `e-truncated` (its first 12 bytes).
  static func makeSQLiteStore(at path: String) throws {
    let profile = try shipped(legacyProfile)
    let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
    try database.execute("CREATE TABLE store (key TEXT PRIMARY KEY, value BLOB)")
    let insert = try database.prepare("INSERT INTO store (key, value) VALUES (?1, ?2)")
    let rows: [(String, SQLiteValue)] = [
      ("a-legacy", .blob(profile)), ("b-null", .null),
      ("e-truncated", .blob(Array(profile.prefix(12)))),
    ]
    for (key, value) in rows {
      try insert.bind(.text(key), at: 1)
      try insert.bind(value, at: 2)
      _ = try insert.step()
      insert.reset()
    }
  }

  /// The arguments of a rename-only `migrate-dry-run` of ``makeSQLiteStore(at:)``'s store.
  static func renameOnlyDryRun(store path: String, format: String, output: String) -> [String] {
    [
      "migrate-dry-run", "--store", path, "--table", "store", "--rename-only",
      "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile",
      "--class-map", "ProfilesApp.Address=ProfileKit.Address",
      "--format", format, "--output", output,
    ]
  }
}
