import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport

/// The Keychain snapshot the command tests run as a team would: the sample app's shipped v1
/// archives in three items, and the new version's queries, one of which misses an item.
enum KeychainCLIFixtures {
  /// The sample's v1 manifest, which maps the items' archives to version 2's classes.
  static var manifest: String {
    Corpus.packageRoot.appendingPathComponent("manifests/ProfilesApp-1.0.xml").path
  }

  /// A shipped v1 archive's bytes.
  static func shipped(_ name: String) throws -> [UInt8] {
    try StoreFixtures.shipped("LegacyArchives/ProfilesApp-1.0/\(name)")
  }

  /// The snapshot: v1 profiles in two generic passwords (one under an old service, `always`
  /// accessible), a truncated memo in an internet password that can leave the device.
  static func items() throws -> [KeychainItem] {
    [
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "alice",
        accessible: .afterFirstUnlockThisDeviceOnly, data: try shipped("profile-valid.archive")),
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.legacy-auth", account: "bob",
        accessible: .always, data: try shipped("profile-valid.archive")),
      KeychainItem(
        itemClass: .internetPassword, service: "api.example.com", account: "token",
        accessGroup: "ABCDE12345.com.example.shared", accessible: .afterFirstUnlock,
        synchronizable: true, data: try shipped("memo-truncated.archive")),
    ]
  }

  /// A session token the authoring tests archive into an item; it must never be written out.
  static let token = "tok_live_7Qm2vX9pLr4sZ8nB"
  /// A signing key the token item's archive holds beside the token.
  static let signingKey: [UInt8] = Array(0..<16).map { UInt8($0 * 17 % 251) }

  /// An archived session (an `NSDictionary`): the token as a string, the key as data.
  static func sessionArchive() -> [UInt8] {
    var archive = TestArchive()
    let key = archive.add(.data(signingKey))
    let root = archive.dictionary([
      ("accessToken", archive.string(token)), ("signingKey", .uid(key)),
    ])
    return archive.bytes(root: root)
  }

  /// The snapshot `manifest author` is tested on: the items of ``items()``, a session token
  /// archived in an item, and a device identifier stored as plain bytes (no archive).
  static func authoringItems() throws -> [KeychainItem] {
    try items() + [
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.session", account: "current",
        accessible: .afterFirstUnlockThisDeviceOnly, data: sessionArchive()),
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "device-id",
        accessible: .whenUnlockedThisDeviceOnly, data: Array("device-7F3A".utf8)),
    ]
  }

  /// The key path of the item that holds no archive.
  static let deviceID = #"genericPassword."com.example.auth".device-id"#
  /// The key path of the session token's item.
  static let session = #"genericPassword."com.example.session".current"#

  /// The key path of alice's item, as survey and migrate name it.
  static let alice = #"genericPassword."com.example.auth".alice"#
  /// The key path of bob's item, which the new version's queries miss.
  static let bob = #"genericPassword."com.example.legacy-auth".bob"#

  /// The new version's queries: the auth service by any account, ThisDeviceOnly (bob's old
  /// service is missed); the API token, ThisDeviceOnly; a widget service that finds nothing.
  static let queryElements = """
      <keychainQuery class="genericPassword" service="com.example.auth" accountPattern="*" accessible="afterFirstUnlock" thisDeviceOnly="true"/>
      <keychainQuery class="internetPassword" service="api.example.com" account="token" accessGroup="ABCDE12345.com.example.shared" thisDeviceOnly="true"/>
      <keychainQuery class="genericPassword" service="com.example.widget"/>
    """

  /// A manifest of the new version that declares only its queries.
  static let queries = """
    <?xml version="1.0" encoding="UTF-8"?>
    <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
      <producer app="ProfilesApp" version="2.0" platform="iOS 17" produced="2024-03-04"/>
    \(queryElements)
    </manifest>
    """

  /// A folder with `keychain.json` and `queries.xml`; returns the folder and the snapshot.
  static func workspace() throws -> (folder: String, snapshot: String) {
    let folder = try StoreFixtures.temporaryFolder()
    let snapshot = folder + "/keychain.json"
    try Data(KeychainSnapshot(items: try items()).encoded())
      .write(to: URL(fileURLWithPath: snapshot))
    try Data(queries.utf8).write(to: URL(fileURLWithPath: folder + "/queries.xml"))
    return (folder, snapshot)
  }

  /// A file's bytes.
  static func contents(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }
}
