import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

/// `verify` over a manifest that declares a Keychain snapshot: the new version's queries run
/// against its items as a case of their own, and an `<archive keychainItem>` entry is verified
/// from an item's data on every path, the Foundation worker's included.
@Suite("verify on Keychain snapshots")
struct KeychainVerifyCommandTests {
  /// A folder with `archives/Keychain/app-v1.json` (the fixtures' snapshot, or one of `items`)
  /// and `manifests/app.xml`.
  struct Workspace {
    let folder: String
    var archives: String { folder + "/archives" }
    var manifests: String { folder + "/manifests" }
    var manifest: String { manifests + "/app.xml" }
    var snapshot: String { archives + "/Keychain/app-v1.json" }

    init(items: [KeychainItem]? = nil) throws {
      folder = try StoreFixtures.temporaryFolder()
      for name in ["archives/Keychain", "manifests"] {
        try FileManager.default.createDirectory(
          atPath: folder + "/" + name, withIntermediateDirectories: true)
      }
      try Data(KeychainSnapshot(items: try items ?? KeychainCLIFixtures.items()).encoded())
        .write(to: URL(fileURLWithPath: snapshot))
    }

    /// Writes the manifest: the v1 to v2 class map and allowed classes, `queries`, the snapshot
    /// (with `checksum`, its own unless given), then `entries`.
    func writeManifest(queries: String, entries: String = "", checksum: String? = nil) throws {
      let digest = try checksum ?? SHA256Checksum.hex(KeychainCLIFixtures.contents(snapshot))
      let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
          <producer app="ProfilesApp" version="2.0" platform="iOS 17" produced="2024-03-04"/>
          <classMap>
            <map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/>
            <map from="ProfilesApp.Address" to="ProfileKit.Address"/>
          </classMap>
          <allowedClasses>
            <class name="ProfileKit.UserProfile"/>
            <class name="ProfileKit.Address"/>
          </allowedClasses>
        \(queries)
          <keychainSnapshot path="Keychain/app-v1.json" sha256="\(digest)"/>
        \(entries)
        </manifest>
        """
      try Data(text.utf8).write(to: URL(fileURLWithPath: manifest))
    }

    /// Runs `verify` over the workspace with more arguments.
    func verify(_ more: [String] = []) throws -> CommandRunner.Result {
      try CommandRunner.run(
        ["verify", "--manifests", manifests, "--archives", archives] + more)
    }
  }

  /// Queries that find every item and accept its accessibility.
  static let findingEvery = """
      <keychainQuery class="genericPassword" service="com.example.auth"/>
      <keychainQuery class="genericPassword" service="com.example.legacy-auth"/>
      <keychainQuery class="internetPassword"/>
    """

  /// An entry of alice's item (the shipped v1 profile) with the shipped manifest's expectations.
  static func aliceEntry(sha256: String? = nil, item: String = KeychainCLIFixtures.alice) throws
    -> String
  {
    let digest =
      try sha256 ?? SHA256Checksum.hex(KeychainCLIFixtures.shipped("profile-valid.archive"))
    return """
        <archive path="Keychain/app-v1.json" keychainItem='\(item)' sha256="\(digest)">
          <rootClass name="ProfileKit.UserProfile"/>
          <foundation outcome="decodes"/>
          <integer key="id">1001</integer>
          <string key="name">Avery Example</string>
          <string key="address.city">Walldorf</string>
        </archive>
      """
  }

  /// Whether any output holds the start of an item's data in base64.
  static func printsItemData(_ result: CommandRunner.Result) throws -> Bool {
    let data = try KeychainCLIFixtures.shipped("profile-valid.archive")
    let prefix = String(Data(data).base64EncodedString().prefix(16))
    return result.stdout.contains(prefix) || result.stderr.contains(prefix)
  }

  @Test("An item the new queries miss fails verify, exit 1, naming the item")
  func missedItemFails() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(queries: KeychainCLIFixtures.queryElements)
    let result = try workspace.verify()
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "error: [keychain-snapshot] \(workspace.snapshot):\(KeychainCLIFixtures.bob): no Keychain "
          + "query of the manifest finds this item"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        #"\#(workspace.snapshot):internetPassword."api.example.com".token: the item is kSecAttrAccessibleAfterFirstUnlock, which can leave the device"#
      ))
    #expect(result.stdout.contains("warning: [keychain-snapshot] \(workspace.manifest):"))
    #expect(try !Self.printsItemData(result))
  }

  @Test("An item readable more often than its query requires fails verify, exit 1")
  func looserAccessibilityFails() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      queries: Self.findingEvery.replacingOccurrences(
        of: #"service="com.example.auth""#,
        with: #"service="com.example.auth" accessible="whenUnlocked""#))
    let result = try workspace.verify()
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "\(workspace.snapshot):\(KeychainCLIFixtures.alice): the item is "
          + "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, looser than the "
          + "kSecAttrAccessibleWhenUnlocked the query at \(workspace.manifest):"),
      "\(result.stdout)")
  }

  @Test("A snapshot whose every item a query finds and accepts passes, exit 0, in valid JSON")
  func everyItemFoundPasses() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(queries: Self.findingEvery)
    let result = try workspace.verify(["--format", "json"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(try JSONSchemas.violations(of: result.stdout, against: .verify).isEmpty)
    let report = try JSONDocument(parsing: result.stdout)
    guard case .array(let cases)? = report["cases"] else {
      Issue.record("no cases in \(result.stdout)")
      return
    }
    #expect(cases.count == 1)
    #expect(cases.first?["archive"] == .string("Keychain/app-v1.json"))
    #expect(cases.first?["status"] == .string("passed"))
  }

  @Test("A snapshot whose checksum differs makes the manifest unusable, exit 2, at its line")
  func snapshotChecksumDiffers() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      queries: Self.findingEvery, checksum: String(repeating: "0", count: 64))
    let result = try workspace.verify()
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains(
        "\(workspace.manifest):15:49: error: [semantic] Keychain snapshot 'Keychain/app-v1.json' has sha256 "
      ), "\(result.stderr)")
  }

  @Test("An entry naming an item the snapshot does not hold fails, exit 1, naming both")
  func unknownItemFails() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let carol = #"genericPassword."com.example.auth".carol"#
    try workspace.writeManifest(
      queries: Self.findingEvery, entries: try Self.aliceEntry(item: carol))
    let result = try workspace.verify()
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "\(workspace.snapshot):\(carol): the snapshot holds no item '\(carol)'"),
      "\(result.stdout)")
  }

  @Test("An item whose data differs from the entry's checksum fails, exit 1, data unprinted")
  func itemChecksumDiffers() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      queries: Self.findingEvery,
      entries: try Self.aliceEntry(sha256: String(repeating: "b", count: 64)))
    let result = try workspace.verify()
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "\(workspace.snapshot):\(KeychainCLIFixtures.alice): the item's data has sha256 "),
      "\(result.stdout)")
    #expect(try !Self.printsItemData(result))
  }

  @Test("An entry of an item is verified on every path, Foundation's worker included, exit 0")
  func itemEntryVerifiedOnItsPaths() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(queries: Self.findingEvery, entries: try Self.aliceEntry())
    let result = try workspace.verify(["--format", "json"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(try JSONSchemas.violations(of: result.stdout, against: .verify).isEmpty)
    let report = try JSONDocument(parsing: result.stdout)
    guard case .array(let cases)? = report["cases"],
      let entry = cases.first(where: {
        $0["archive"] == .string("Keychain/app-v1.json:\(KeychainCLIFixtures.alice)")
      }),
      case .object(let paths)? = entry["paths"],
      case .array(let expectations)? = entry["expectations"]
    else {
      Issue.record("no case of alice's item in \(result.stdout)")
      return
    }
    #expect(Set(paths.keys) == ["legacy", "secure", "foundation-legacy", "foundation-secure"])
    #expect(paths.values.allSatisfy { $0["outcome"] == .string("decoded") }, "\(paths)")
    #expect(expectations.count == 3)
    #expect(entry["status"] == .string("passed"))
    #expect(try !Self.printsItemData(result))
  }

  @Test("verify --privacy scans an item entry's data, never the snapshot file itself")
  func privacyScansItemData() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(queries: Self.findingEvery, entries: try Self.aliceEntry())
    let result = try workspace.verify(["--privacy"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains("privacy scan: 1 archive, 0 findings, 0 reviewed"),
      "\(result.stdout)")
  }
}
