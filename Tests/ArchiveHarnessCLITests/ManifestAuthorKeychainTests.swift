import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

/// `manifest author` given a Keychain snapshot: it declares the snapshot, records one
/// `<archive keychainItem>` entry per item holding a property list, names the other items in a
/// comment, never writes an item's strings or data, and `verify` passes on what it wrote.
@Suite("manifest author on Keychain snapshots")
struct ManifestAuthorKeychainTests {
  /// The `verify` tests' workspace, with the authoring fixtures' snapshot.
  typealias Workspace = KeychainVerifyCommandTests.Workspace

  /// A workspace whose snapshot holds ``KeychainCLIFixtures/authoringItems()``.
  static func workspace() throws -> Workspace {
    try Workspace(items: KeychainCLIFixtures.authoringItems())
  }

  /// The `<archive>` start tag of an item's entry, as authoring writes it.
  static func entryStart(_ item: String, data: [UInt8]) -> String {
    "<archive path=\"Keychain/app-v1.json\" keychainItem='\(item)' "
      + "sha256=\"\(SHA256Checksum.hex(data))\">"
  }

  @Test("A snapshot gets its declaration and a recorded entry per item holding a property list")
  func authorsSnapshot() throws {
    let workspace = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let result = try workspace.author()
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let text = try workspace.text()
    let fileDigest = SHA256Checksum.hex(try KeychainCLIFixtures.contents(workspace.snapshot))
    #expect(
      text.contains(
        "<keychainSnapshot path=\"Keychain/app-v1.json\" sha256=\"\(fileDigest)\"/>"), "\(text)")
    let profile = try KeychainCLIFixtures.shipped("profile-valid.archive")
    for item in [KeychainCLIFixtures.alice, KeychainCLIFixtures.bob] {
      #expect(text.contains(Self.entryStart(item, data: profile)), "\(text)")
    }
    #expect(text.contains(#"<rootClass name="ProfileKit.UserProfile"/>"#))
    #expect(text.contains(#"<secure outcome="decodes"/>"#))
    #expect(text.contains(#"<integer key="id">1001</integer>"#))
    // The truncated memo is recorded as the rejection every path gives it.
    let memo = try KeychainCLIFixtures.shipped("memo-truncated.archive")
    #expect(
      text.contains(
        Self.entryStart(#"internetPassword."api.example.com".token"#, data: memo)))
    #expect(text.contains(#"<secure outcome="rejected" category="truncated"/>"#))
    #expect(
      result.stderr.contains(
        #"Keychain/app-v1.json:internetPassword."api.example.com".token: warning: [truncated]"#),
      "\(result.stderr)")
    // Declarations come before the entries, as the schema orders them.
    let declaration = try #require(text.range(of: "<keychainSnapshot"))
    let firstEntry = try #require(text.range(of: "<archive path="))
    #expect(declaration.lowerBound < firstEntry.lowerBound)
  }

  @Test("verify passes on the authored manifest, and no item is left unverified")
  func authoredManifestVerifies() throws {
    let workspace = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let authored = try workspace.author()
    try #require(authored.status == 0, "\(authored.stdout)\(authored.stderr)")
    let result = try CommandRunner.run(
      ["verify", "--manifests", workspace.manifests, "--archives", workspace.archives])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
    #expect(
      !(result.stdout + result.stderr).contains("no <archive keychainItem> entry verifies"),
      "\(result.stdout)")
    for item in [
      KeychainCLIFixtures.alice, KeychainCLIFixtures.bob, KeychainCLIFixtures.session,
    ] {
      #expect(
        result.stdout.contains("PASS \(workspace.manifest) › Keychain/app-v1.json:\(item)"),
        "\(result.stdout)")
    }
  }

  @Test("An item whose data is not an archive is named in a comment, with no entry")
  func nonArchiveItemIsNamed() throws {
    let workspace = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let result = try workspace.author()
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let text = try workspace.text()
    #expect(
      text.contains(
        "<!-- Keychain/app-v1.json: no entry for this item, whose data is not a property list, "
          + "so no archive: \(KeychainCLIFixtures.deviceID) -->"), "\(text)")
    #expect(!text.contains("keychainItem='\(KeychainCLIFixtures.deviceID)'"))
    #expect(!text.contains("device-7F3A"))
  }

  @Test("A token string and a key in an item's archive are never written into the manifest")
  func tokenIsNotWritten() throws {
    let workspace = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let result = try workspace.author()
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let text = try workspace.text()
    let session = KeychainCLIFixtures.sessionArchive()
    #expect(text.contains(Self.entryStart(KeychainCLIFixtures.session, data: session)), "\(text)")
    let everything = text + result.stdout + result.stderr
    #expect(!everything.contains(KeychainCLIFixtures.token))
    #expect(!everything.contains(Data(KeychainCLIFixtures.signingKey).base64EncodedString()))
    // The token is stated by its length, the key by its digest; nor is a profile's name written.
    #expect(text.contains("equals=\"\(KeychainCLIFixtures.token.utf16.count)\"/>"), "\(text)")
    #expect(
      text.contains(
        "sha256=\"\(SHA256Checksum.hex(KeychainCLIFixtures.signingKey))\" length=\"16\"/>"))
    #expect(!text.contains("Avery Example"))
  }

  @Test("A snapshot that does not read fails with exit 2 naming the place, and writes nothing")
  func corruptSnapshotFails() throws {
    let workspace = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try Data(
      """
      {"format": "archive-harness-keychain-snapshot", "version": 1, "items": [
        {"class": "genericPassword", "service": "com.example.auth", "account": "alice",
         "accessible": "sometimes", "synchronizable": false, "data": "YnBsaXN0MDA="}]}
      """.utf8
    ).write(to: URL(fileURLWithPath: workspace.snapshot))
    let result = try workspace.author()
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains("\(workspace.snapshot):items[0].accessible"), "\(result.stderr)")
    #expect(result.stderr.contains("unknown accessibility 'sometimes'"))
    #expect(!FileManager.default.fileExists(atPath: workspace.manifest))
  }

  @Test("--update refuses a Keychain snapshot with exit 2, leaving the manifest as it was")
  func updateRefusesSnapshot() throws {
    let workspace = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try #require(try workspace.author().status == 0)
    let before = try KeychainCLIFixtures.contents(workspace.manifest)
    let result = try CommandRunner.run(
      [
        "manifest", "author", "--archives", workspace.archives, "Keychain/app-v1.json",
        "--update", workspace.manifest,
      ])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("'Keychain/app-v1.json' is a Keychain snapshot"))
    #expect(try KeychainCLIFixtures.contents(workspace.manifest) == before)
  }

  @Test("survey --author on a snapshot names the manifest author that records its items")
  func surveyAuthorNamesManifestAuthor() throws {
    let workspace = try Self.workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let result = try CommandRunner.run(
      ["survey", workspace.snapshot, "--author", workspace.manifests + "/store.xml"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains(
        "profiles-harness manifest author --archives \(workspace.archives)/Keychain "
          + "app-v1.json --output MANIFEST"), "\(result.stderr)")
  }
}

extension KeychainVerifyCommandTests.Workspace {
  /// Runs `manifest author` on the snapshot (or `inputs`), writing `manifests/app.xml`.
  func author(_ inputs: [String] = ["Keychain/app-v1.json"], _ more: [String] = []) throws
    -> CommandRunner.Result
  {
    try CommandRunner.run(
      ["manifest", "author", "--archives", archives] + inputs
        + [
          "--app", "ProfilesApp", "--version", "1.0", "--platform", "iOS 16",
          "--produced", "2024-03-04", "--output", manifest,
        ] + more)
  }

  /// The manifest written.
  func text() throws -> String {
    String(decoding: try KeychainCLIFixtures.contents(manifest), as: UTF8.self)
  }
}
