import ArchiveFormat
import ArchiveManifest
import Foundation
import ProfileKit
import Testing

@testable import ArchiveHarness

/// A manifest's Keychain snapshot in `verify`.
///
/// Its `<keychainQuery>`s run against the items as a store check, and `<archive keychainItem>`
/// entries read their bytes from an item and are verified on every path as a file's are. The
/// snapshot is `KeychainFixtures`'.
@Suite("Keychain snapshots in verify")
struct KeychainSnapshotVerificationTests {
  /// Queries that find every fixture item and accept its accessibility.
  static let findingEvery = """
      <keychainQuery class="genericPassword" service="com.example.auth"/>
      <keychainQuery class="genericPassword" service="com.example.legacy"/>
      <keychainQuery class="internetPassword"/>
    """

  /// The item the entries read: alice's v1 profile.
  static let alice = #"genericPassword."com.example.auth".alice"#

  /// The fixtures' items, alice's holding a profile whose every field version 2 keeps.
  static var items: [KeychainItem] {
    var items = KeychainFixtures.items()
    items[0].data = MigrationFixtures.keptProfile(id: 1)
    return items
  }

  /// A temporary folder with `archives/keychain.json` (the snapshot of ``items``) and the
  /// manifest `manifests/app.xml`.
  struct Workspace {
    let folder: String
    var archives: String { folder + "/archives" }
    var manifest: String { folder + "/manifests/app.xml" }
    var snapshot: String { archives + "/keychain.json" }

    init() throws {
      folder = try MigrationFixtures.temporaryFolder()
      for name in ["archives", "manifests"] {
        try FileManager.default.createDirectory(
          atPath: folder + "/" + name, withIntermediateDirectories: true)
      }
      _ = try KeychainFixtures.write(
        in: folder + "/archives", items: KeychainSnapshotVerificationTests.items)
    }

    /// The snapshot file's SHA-256.
    func snapshotChecksum() throws -> String {
      SHA256Checksum.hex(Array(try Data(contentsOf: URL(fileURLWithPath: snapshot))))
    }

    /// Writes the manifest: the v1 to v2 class map and allowed classes, the queries, the
    /// `<keychainSnapshot>` (when a checksum is given), then the entries.
    func writeManifest(snapshot checksum: String?, queries: String, entries: String = "") throws {
      let snapshotLine =
        checksum.map { "  <keychainSnapshot path=\"keychain.json\" sha256=\"\($0)\"/>" } ?? ""
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
            <class name="NSArray"/>
          </allowedClasses>
        \(queries)
        \(snapshotLine)
        \(entries)
        </manifest>
        """
      try Data(text.utf8).write(to: URL(fileURLWithPath: manifest))
    }

    /// The place of the manifest's first line holding `text`, at column 3.
    func place(ofLineWith text: String) throws -> Place {
      let lines = try String(contentsOfFile: manifest, encoding: .utf8)
        .components(separatedBy: "\n")
      let index = try #require(lines.firstIndex { $0.contains(text) })
      return Place(file: manifest, line: index + 1, column: 3)
    }

    /// Loads the manifest with the sample app's classes.
    func load() -> Verifier.LoadedManifests {
      KeychainSnapshotVerificationTests.verifier.load([manifest], archivesDirectory: archives)
    }

    /// Loads and verifies the manifest; the load must have no error.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) throws -> VerificationReport {
      let loaded = load()
      #expect(
        !loaded.hasErrors, "\(loaded.diagnostics.map(\.description))",
        sourceLocation: sourceLocation)
      return KeychainSnapshotVerificationTests.verifier.verify(
        loaded.manifests, archivesDirectory: archives)
    }
  }

  /// The sample app's version 2 classes, read in process on the legacy and secure paths.
  static let verifier = Verifier(
    registry: ClassRegistry(modelClasses: ProfileModel.classes),
    runner: InProcessPathRunner(registry: ClassRegistry(modelClasses: ProfileModel.classes)),
    paths: [.legacy, .secure])

  /// An entry of alice's item; `sha256` is her data's unless given.
  static func aliceEntry(
    item: String = alice, sha256: String? = nil, expectations: String = ""
  ) -> String {
    let digest = sha256 ?? SHA256Checksum.hex(items[0].data)
    return """
        <archive path="keychain.json" keychainItem='\(item)' sha256="\(digest)">
          <rootClass name="ProfileKit.UserProfile"/>
      \(expectations)
        </archive>
      """
  }

  /// The one store-check case of a report (no decode paths).
  static func storeCase(_ report: VerificationReport) throws -> VerificationCase {
    try #require(report.cases.first { $0.paths.isEmpty })
  }

  /// A store case's findings but the warnings about items no entry verifies.
  static func queryFindings(_ checked: VerificationCase) -> [StoreFinding] {
    checked.storeFindings.filter { !Self.isUnverifiedItem($0) }
  }

  static func isUnverifiedItem(_ finding: StoreFinding) -> Bool {
    finding.message.hasPrefix("the item holds a property list that no <archive keychainItem>")
  }

  @Test("An item a new query misses is an error finding naming the item; the case fails")
  func queryMissesItem() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(),
      queries: """
          <keychainQuery class="genericPassword" service="com.example.auth"/>
          <keychainQuery class="genericPassword" service="com.example.session"/>
          <keychainQuery class="internetPassword"/>
        """)
    let checked = try Self.storeCase(try workspace.verify())
    #expect(checked.status == .failed)
    #expect(checked.archive == "keychain.json")
    #expect(checked.location == (try workspace.place(ofLineWith: "<keychainSnapshot")))
    let missed = try #require(checked.storeFindings.first { $0.severity == .error })
    #expect(missed.check == .keychainSnapshot)
    #expect(
      missed.place.description
        == #"\#(workspace.snapshot):genericPassword."com.example.legacy".bob"#)
    #expect(missed.message.hasPrefix("no Keychain query of the manifest finds this item"))
    #expect(missed.message.contains("differs in service"))
    #expect(checked.storeFindings.filter { $0.severity == .error }.count == 1)
  }

  @Test("An item readable more often than its query requires is an error finding")
  func looserAccessibility() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(),
      queries: Self.findingEvery.replacingOccurrences(
        of: #"service="com.example.legacy""#,
        with: #"service="com.example.legacy" accessible="afterFirstUnlock""#))
    let checked = try Self.storeCase(try workspace.verify())
    #expect(checked.status == .failed)
    let looser = try #require(Self.queryFindings(checked).first)
    #expect(Self.queryFindings(checked).count == 1)
    #expect(looser.severity == .error)
    #expect(
      looser.place.description
        == #"\#(workspace.snapshot):genericPassword."com.example.legacy".bob"#)
    #expect(
      looser.message.hasPrefix(
        "the item is kSecAttrAccessibleAlways, looser than the kSecAttrAccessibleAfterFirstUnlock"))
  }

  @Test("A snapshot whose every item a query finds and accepts passes with no finding")
  func everyItemFound() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery)
    let report = try workspace.verify()
    #expect(report.cases.count == 1)
    let checked = try Self.storeCase(report)
    #expect(checked.status == .passed)
    #expect(Self.queryFindings(checked).isEmpty)
  }

  @Test("Each item holding an archive that no entry verifies is a warning naming the entry to add")
  func unverifiedItemsAreWarnings() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery)
    let checked = try Self.storeCase(try workspace.verify())
    let unverified = checked.storeFindings.filter(Self.isUnverifiedItem)
    // Three items hold property lists (the token's truncated one too); device-id's is text.
    #expect(unverified.count == 3)
    #expect(!unverified.contains { $0.place.description.hasSuffix(".device-id") })
    #expect(unverified.allSatisfy { $0.severity == .warning && $0.check == .keychainSnapshot })
    #expect(
      unverified.first?.place.description
        == #"\#(workspace.snapshot):genericPassword."com.example.auth".alice"#)
    #expect(
      unverified.first?.message.hasSuffix(
        #"add <archive path="keychain.json" keychainItem='genericPassword."com.example.auth".alice' sha256=""#
          + SHA256Checksum.hex(Self.items[0].data) + #"">"#) == true)
    #expect(checked.status == .passed)
  }

  @Test("An item an entry verifies is not warned about")
  func verifiedItemIsNotWarned() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery,
      entries: Self.aliceEntry())
    let checked = try Self.storeCase(try workspace.verify())
    let unverified = checked.storeFindings.filter(Self.isUnverifiedItem)
    #expect(unverified.count == 2)
    #expect(!unverified.contains { $0.place.description.hasSuffix(".alice") })
  }

  @Test("A snapshot in a manifest with no query is one warning, and the case passes")
  func snapshotWithoutQueries() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(snapshot: try workspace.snapshotChecksum(), queries: "")
    let checked = try Self.storeCase(try workspace.verify())
    #expect(checked.status == .passed)
    #expect(
      Self.queryFindings(checked) == [
        StoreFinding(
          .keychainSnapshot, .warning, at: try workspace.place(ofLineWith: "<keychainSnapshot"),
          "the manifest declares no <keychainQuery>, so no query runs against the Keychain "
            + "snapshot 'keychain.json'")
      ])
  }

  @Test("A snapshot whose checksum differs is a load error at the sha256 attribute")
  func snapshotChecksumDiffers() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let wrong = String(repeating: "0", count: 64)
    try workspace.writeManifest(snapshot: wrong, queries: Self.findingEvery)
    let loaded = workspace.load()
    #expect(loaded.manifests.isEmpty)
    let error = try #require(loaded.diagnostics.first { $0.severity == .error })
    #expect(error.location.file == workspace.manifest)
    #expect(error.location.line == (try workspace.place(ofLineWith: "<keychainSnapshot")).line)
    #expect(
      error.message
        == "Keychain snapshot 'keychain.json' has sha256 \(try workspace.snapshotChecksum()), "
        + "but the manifest expects \(wrong); a fixture changed")
  }

  @Test("A snapshot file that does not exist is a load error at the path attribute")
  func snapshotMissing() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery)
    try FileManager.default.removeItem(atPath: workspace.snapshot)
    let loaded = workspace.load()
    let error = try #require(loaded.diagnostics.first { $0.severity == .error })
    #expect(error.location.line == (try workspace.place(ofLineWith: "<keychainSnapshot")).line)
    #expect(error.message.hasPrefix("Keychain snapshot 'keychain.json' does not exist in"))
  }

  @Test("A snapshot path that leaves the archives folder is a load error")
  func snapshotPathEscapes() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: String(repeating: "0", count: 64), queries: Self.findingEvery)
    let text = try String(contentsOfFile: workspace.manifest, encoding: .utf8)
      .replacingOccurrences(of: #"path="keychain.json""#, with: #"path="../keychain.json""#)
    try Data(text.utf8).write(to: URL(fileURLWithPath: workspace.manifest))
    let loaded = workspace.load()
    #expect(
      loaded.diagnostics.contains {
        $0.message
          == "Keychain snapshot path '../keychain.json' uses '..'; paths must stay inside the archives folder"
      }, "\(loaded.diagnostics.map(\.description))")
  }

  @Test("An entry of a snapshot item is verified on every path, its expectations on the item")
  func itemEntryVerifiedOnItsPaths() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery,
      entries: Self.aliceEntry(
        expectations: """
              <integer key="id">1</integer>
              <string key="name">Ada</string>
              <string key="address.city">Springfield</string>
          """))
    let report = try workspace.verify()
    #expect(report.cases.count == 2)
    let entry = try #require(report.cases.first { !$0.paths.isEmpty })
    #expect(entry.archive == "keychain.json:\(Self.alice)")
    #expect(entry.paths.map(\.path) == [.decode(.legacy), .decode(.secure)])
    #expect(entry.paths.allSatisfy { $0.outcome == .decoded })
    #expect(entry.expectations.count == 3)
    #expect(entry.status == .passed, "\(entry.paths) \(entry.expectations)")
  }

  @Test("An expectation the item's data does not hold fails the item's case")
  func itemEntryExpectationFails() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery,
      entries: Self.aliceEntry(expectations: #"      <string key="name">Grace</string>"#))
    let entry = try #require(try workspace.verify().cases.first { !$0.paths.isEmpty })
    #expect(entry.status == .failed)
    #expect(entry.expectations.contains { !$0.passed && $0.keyPath == "name" })
  }

  @Test("An item's decoded text reaches no report: objects and found values are masked")
  func itemValuesAreMasked() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery,
      entries: Self.aliceEntry(expectations: #"      <string key="name">Grace</string>"#))
    let report = try workspace.verify()
    let entry = try #require(report.cases.first { !$0.paths.isEmpty })
    let object = try #require(entry.paths.first?.object)
    #expect(object[field: "name"] == .string("‹3 characters, masked›"), "\(object)")
    #expect(object[field: "id"] == .integer(1))
    let name = try #require(entry.expectations.first { $0.keyPath == "name" })
    #expect(!name.passed)
    #expect(name.actual == .value(.string("‹3 characters, masked›")))
    for text in [
      JSONReportWriter().render(report),
      TextReportWriter(colour: false, verbose: true).render(report),
      HTMLReportWriter(
        parameters: RunParameters(
          manifests: "m", archives: "a", harnessVersion: "0", platform: "Linux")
      ).render(report),
    ] {
      #expect(!text.contains("Ada"), "an item's name in a report")
      #expect(!text.contains("Springfield"), "an item's city in a report")
    }
  }

  @Test("Masking replaces an object's text by its length and keeps its numbers and classes")
  func maskingKeepsShape() throws {
    let item = DecodedValue.object(
      className: "ProfileKit.UserProfile",
      fields: [DecodedField(key: "name", value: .string("Ada"))])
    #expect(item.maskingText[field: "name"] == .string("‹3 characters, masked›"))
    #expect(item.maskingText.className == "ProfileKit.UserProfile")
  }

  @Test("An entry naming an item the snapshot does not hold fails, naming snapshot and item")
  func unknownItem() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let missing = #"genericPassword."com.example.auth".carol"#
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery,
      entries: Self.aliceEntry(item: missing))
    let entry = try #require(try workspace.verify().cases.first { !$0.paths.isEmpty })
    #expect(entry.status == .failed)
    #expect(entry.archive == "keychain.json:\(missing)")
    let structure = try #require(entry.paths.first)
    #expect(structure.path == .structure)
    #expect(structure.category == .unreadable)
    #expect(
      structure.message?.hasPrefix(
        "\(workspace.snapshot):\(missing): the snapshot holds no item '\(missing)' "
          + "(CLASS.SERVICE.ACCOUNT); the nearest items are \(Self.alice), ") == true,
      "\(structure)")
  }

  @Test("An item named by class, service and account joined by dots, unquoted, is found")
  func unquotedItemIsFound() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let dotted = "genericPassword.com.example.auth.alice"
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery,
      entries: Self.aliceEntry(item: dotted))
    let entry = try #require(try workspace.verify().cases.first { !$0.paths.isEmpty })
    #expect(entry.archive == "keychain.json:\(dotted)")
    #expect(entry.status == .passed, "\(entry.paths)")
  }

  @Test("An item whose data no longer has the entry's checksum fails, naming it, data unprinted")
  func itemChecksumDiffers() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let wrong = String(repeating: "a", count: 64)
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery,
      entries: Self.aliceEntry(sha256: wrong))
    let entry = try #require(try workspace.verify().cases.first { !$0.paths.isEmpty })
    #expect(entry.status == .failed)
    #expect(entry.paths.count == 1)
    let data = Self.items[0].data
    #expect(
      entry.paths.first?.message
        == "\(workspace.snapshot):\(Self.alice): the item's data has sha256 "
        + "\(SHA256Checksum.hex(data)), but the manifest expects \(wrong); the snapshot's item "
        + "changed")
    let text = TextReportWriter(colour: false).caseText(entry)
    #expect(!text.contains(Data(data).base64EncodedString().prefix(16)))
  }

  @Test("An item entry whose path is no <keychainSnapshot> of the manifest is a load error")
  func itemOfUndeclaredSnapshot() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(snapshot: nil, queries: "", entries: Self.aliceEntry())
    let loaded = workspace.load()
    #expect(
      loaded.diagnostics.contains {
        $0.severity == .error
          && $0.message.hasPrefix(
            "archive 'keychain.json' names Keychain item '\(Self.alice)', but 'keychain.json' is no <keychainSnapshot>"
          )
      }, "\(loaded.diagnostics.map(\.description))")
  }

  @Test("Two entries of one item are a load error; entries of two items of a snapshot are not")
  func itemListedTwice() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    let bob = #"genericPassword."com.example.legacy".bob"#
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(), queries: Self.findingEvery,
      entries: Self.aliceEntry() + Self.aliceEntry() + Self.aliceEntry(item: bob))
    let diagnostics = workspace.load().diagnostics
    #expect(diagnostics.filter { $0.severity == .error }.count == 1, "\(diagnostics)")
    #expect(
      diagnostics.contains {
        $0.message.hasPrefix("Keychain item '\(Self.alice)' of 'keychain.json' is already listed")
      })
  }

  @Test("A verification run lists the snapshot, verifies its item entry and runs its queries")
  func verificationRun() throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(atPath: workspace.folder) }
    try workspace.writeManifest(
      snapshot: try workspace.snapshotChecksum(),
      queries: Self.findingEvery.replacingOccurrences(
        of: "com.example.legacy", with: "com.example.old"),
      entries: Self.aliceEntry())
    var configuration = HarnessConfiguration(modelClasses: ProfileModel.classes)
    configuration.worker = .inProcess
    let run = try VerificationRun(
      configuration: configuration,
      options: VerificationRun.Options(
        manifests: workspace.folder + "/manifests", archives: workspace.archives))
    #expect(!run.hasErrors)
    let report = run.report()
    #expect(
      report.cases.map(\.archive) == ["keychain.json:\(Self.alice)", "keychain.json"],
      "the snapshot is listed, so it is no unlisted archive")
    #expect(report.cases[0].status == .passed, "\(report.cases[0].paths)")
    #expect(report.cases[1].status == .failed)
    #expect(
      report.cases[1].storeFindings.contains {
        $0.place.description.hasSuffix(#"keychain.json:genericPassword."com.example.legacy".bob"#)
      })
    #expect(!report.passed)
  }
}
