import Foundation
import HarnessTestSupport
import Testing

@Suite("A manifest's <store> names the table, so migrate-dry-run needs no more options")
struct ManifestStoreCommandTests {
  private static let renames = [
    "--rename-only", "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile",
    "--class-map", "ProfilesApp.Address=ProfileKit.Address",
  ]

  private func workspace(store: String) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "manifest-store-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Corpus.packageRoot.appendingPathComponent("Tests/Fixtures/SQLCipher/plain.sqlite"),
      to: root.appendingPathComponent("profiles.sqlite"))
    let manifest = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="ProfilesApp" version="1.0" platform="iOS 17" produced="2026-12-03"/>
        \(store)
      </manifest>
      """
    try Data(manifest.utf8).write(to: root.appendingPathComponent("Store.xml"))
    return root
  }

  @Test("An SQLite <store> gives the table and columns")
  func sqliteShape() throws {
    let root = try workspace(store: #"<store kind="sqlite" table="store"/>"#)
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", "profiles.sqlite", "--manifest", "Store.xml"] + Self.renames,
      in: root)
    #expect(run.stdout.contains("7 will-rewrite"), "\(run.stderr)")
  }

  @Test("A Core Data <store> gives the entity and attribute")
  func coreDataShape() throws {
    let root = try workspace(store: #"<store kind="core-data" entity="Profile" attribute="data"/>"#)
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", "profiles.sqlite", "--manifest", "Store.xml"] + Self.renames,
      in: root)
    #expect(run.stdout.contains("Profile[Z_PK=1].data"), "\(run.stderr)")
  }

  @Test("--table on the command line wins over the manifest's <store>")
  func commandLineWins() throws {
    let root = try workspace(store: #"<store kind="sqlite" table="filler"/>"#)
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try CommandRunner.run(
      [
        "migrate-dry-run", "--store", "profiles.sqlite", "--manifest", "Store.xml", "--table",
        "store",
      ]
        + Self.renames, in: root)
    #expect(run.stdout.contains("7 will-rewrite"), "\(run.stderr)")
  }
}
