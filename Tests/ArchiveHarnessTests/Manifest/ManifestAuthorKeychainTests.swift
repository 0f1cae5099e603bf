import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `ManifestAuthor` given a Keychain snapshot (`KeychainFixtures`): the declaration, one entry
/// per item holding a property list, a comment for the others, and values stated masked.
@Suite("Manifest authoring of Keychain snapshots")
struct ManifestAuthorKeychainTests {
  /// Writes the fixtures' snapshot as `Keychain/app-v1.json` of a new archives folder and
  /// authors a manifest for it, with no decode path run.
  private func authored() throws -> (archives: String, text: String, result: ManifestAuthor.Result)
  {
    let archives = try ManifestTestSupport.temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: archives + "/Keychain", withIntermediateDirectories: true)
    _ = try KeychainFixtures.write(in: archives + "/Keychain")
    try FileManager.default.moveItem(
      atPath: archives + "/Keychain/keychain.json", toPath: archives + "/Keychain/app-v1.json")
    let snapshot = try ManifestAuthor.KeychainSnapshotInput(
      path: "Keychain/app-v1.json", archivesDirectory: archives)
    var options = ManifestAuthor.Options()
    options.archivesDirectory = archives
    options.produced = "2024-03-04"
    let result = ManifestAuthor(options: options).author([], keychainSnapshots: [snapshot])
    return (archives, result.text, result)
  }

  @Test("The snapshot is declared, and each item holding a property list gets an entry")
  func entriesForItems() throws {
    let (archives, text, result) = try authored()
    defer { try? FileManager.default.removeItem(atPath: archives) }
    let items = KeychainFixtures.items()
    #expect(
      result.addedArchives == items.prefix(3).map { "Keychain/app-v1.json:\($0.keyPath)" })
    for item in items.prefix(3) {
      #expect(
        text.contains(
          "keychainItem='\(item.keyPath)' sha256=\"\(SHA256Checksum.hex(item.data))\""), "\(text)")
    }
    let loaded = try ManifestTestSupport.load(text, archivesDirectory: archives)
    #expect(!loaded.diagnostics.containsErrors, "\(loaded.diagnostics)\n\(text)")
    let manifest = try #require(loaded.manifest)
    #expect(manifest.keychainSnapshots.map(\.path) == ["Keychain/app-v1.json"])
    #expect(manifest.archives.compactMap(\.keychainItem).count == 3)
  }

  @Test("An item whose data is no property list is named in a comment, with no entry")
  func plainItemIsNamed() throws {
    let (archives, text, _) = try authored()
    defer { try? FileManager.default.removeItem(atPath: archives) }
    #expect(
      text.contains(#"so no archive: genericPassword."com.example.auth".device-id -->"#),
      "\(text)")
    #expect(!text.contains(#"keychainItem='genericPassword."com.example.auth".device-id'"#))
  }

  @Test("An item's strings are stated by their length, never as they are")
  func stringsAreMasked() throws {
    let (archives, text, _) = try authored()
    defer { try? FileManager.default.removeItem(atPath: archives) }
    #expect(!text.contains("Springfield") && !text.contains("1 Main St"), "\(text)")
    #expect(text.contains(#"<count key="address.city" equals="11"/>"#), "\(text)")
  }

  @Test("An update refuses a Keychain item's input, and writes nothing")
  func updateRefusesItems() throws {
    let (archives, text, _) = try authored()
    defer { try? FileManager.default.removeItem(atPath: archives) }
    let item = try #require(KeychainFixtures.items().first)
    let result = ManifestAuthor().update(
      existingText: text, file: "manifest.xml",
      with: [
        ManifestAuthor.Input(
          path: "Keychain/app-v1.json", keychainItem: item.keyPath.description, data: item.data)
      ])
    #expect(result.text.isEmpty)
    #expect(result.diagnostics.containsErrors)
    #expect(
      result.diagnostics.first?.location.description
        == #"Keychain/app-v1.json:genericPassword."com.example.auth".alice"#,
      "\(result.diagnostics)")
  }
}
