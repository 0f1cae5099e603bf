import ArchiveHarness
import ArchiveHarnessTesting
import Foundation
import HarnessTestSupport
import Testing

/// A team's `swift test` on a manifest with a Keychain snapshot: one case per item entry, named
/// by the item, one for the snapshot's queries, and merge checks that read an item's data.
@Suite("Keychain snapshots in a team's swift test")
struct KeychainSnapshotCasesTests {
  static let alice = #"genericPassword."com.example.auth".alice"#
  static let bob = #"genericPassword."com.example.legacy-auth".bob"#

  /// A team package whose `LegacyArchives/Keychain/app-v1.json` holds the shipped v1 profile in
  /// alice's and bob's items, and whose one manifest lists both items and queries that miss bob.
  static func package() throws -> TeamPackage {
    let team = try TeamPackage(copying: false)
    let profile = Array(
      try Data(
        contentsOf: Corpus.packageRoot.appendingPathComponent(
          "LegacyArchives/ProfilesApp-1.0/profile-valid.archive")))
    let snapshot = KeychainSnapshot(items: [
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "alice",
        accessible: .afterFirstUnlockThisDeviceOnly, data: profile),
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.legacy-auth", account: "bob",
        accessible: .afterFirstUnlockThisDeviceOnly, data: profile),
    ])
    try team.write(
      String(decoding: snapshot.encoded(), as: UTF8.self), to: "LegacyArchives/Keychain/app-v1.json"
    )
    let digest = SHA256Checksum.hex(profile)
    let entries = [alice, bob].map { item in
      """
        <archive path="Keychain/app-v1.json" keychainItem='\(item)' sha256="\(digest)">
          <rootClass name="ProfileKit.UserProfile"/>
          <string key="name">Avery Example</string>
        </archive>
      """
    }
    try team.write(
      """
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
        <keychainQuery class="genericPassword" service="com.example.auth"/>
        <keychainSnapshot path="Keychain/app-v1.json" sha256="\(try team.sha256("LegacyArchives/Keychain/app-v1.json"))"/>
      \(entries.joined(separator: "\n"))
      </manifest>

      """, to: "manifests/Keychain.xml")
    return team
  }

  @Test("Each item entry is a case named by its item, verified through the worker, and passes")
  func itemEntriesAreCases() throws {
    let team = try Self.package()
    defer { team.remove() }
    let project = Fixture.project(root: team.root)
    let names = project.cases.map(\.description)
    #expect(
      names == [
        "Keychain.xml › Keychain/app-v1.json:\(Self.alice)",
        "Keychain.xml › Keychain/app-v1.json:\(Self.bob)",
        "Keychain.xml › Keychain/app-v1.json",
      ], "the snapshot is listed, so no case records it as unlisted")
    for harnessCase in project.cases.prefix(2) {
      #expect(harnessCase.check() == nil, "\(harnessCase)")
      let paths = try #require(harnessCase.result()?.paths)
      #expect(paths.contains { $0.path == .decode(.foundationSecure) && $0.ran })
    }
  }

  @Test("The snapshot's case fails for the item the new queries miss, naming it")
  func queryMissFailsTheSnapshotCase() throws {
    let team = try Self.package()
    defer { team.remove() }
    let project = Fixture.project(root: team.root)
    let snapshotCase = try #require(project.cases.last)
    let failure = try #require(snapshotCase.check())
    #expect(
      failure.findings.contains {
        $0.text.contains("app-v1.json:\(Self.bob)")
          && $0.text.contains("no Keychain query of the manifest finds this item")
      }, "\(failure.findings.map(\.text))")
  }

  @Test("The round-trip merge check reads the items' data and keeps every field")
  func roundTripReadsItemData() throws {
    let team = try Self.package()
    defer { team.remove() }
    let checks = Fixture.project(root: team.root).mergeChecks
    #expect(
      checks.entriesThatRoundTrip().map(\.archive) == [
        "Keychain/app-v1.json:\(Self.alice)", "Keychain/app-v1.json:\(Self.bob)",
      ])
    try checks.roundTripKeepsFields()
  }
}
