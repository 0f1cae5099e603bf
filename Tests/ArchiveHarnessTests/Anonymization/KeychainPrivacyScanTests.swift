import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import Testing

/// `privacy-scan` over a folder holding a Keychain snapshot: item by item, never the JSON text.
@Suite("Privacy scan of Keychain snapshots")
struct KeychainPrivacyScanTests {
  /// A folder holding `Keychain/app.json` with the items; the caller removes it.
  static func folder(_ items: [KeychainItem]) throws -> String {
    let folder = NSTemporaryDirectory() + "keychain-privacy-" + UUID().uuidString
    try FileManager.default.createDirectory(
      atPath: folder + "/Keychain", withIntermediateDirectories: true)
    try Data(KeychainSnapshot(items: items).encoded())
      .write(to: URL(fileURLWithPath: folder + "/Keychain/app.json"))
    return folder
  }

  static func item(account: String, data: [UInt8]) -> KeychainItem {
    KeychainItem(
      itemClass: .genericPassword, service: "com.example.auth", account: account,
      accessible: .afterFirstUnlockThisDeviceOnly, data: data)
  }

  @Test("An item's archive is scanned as an archive, each finding named by the item")
  func itemArchiveIsScanned() throws {
    let folder = try Self.folder([Self.item(account: "session", data: SampleNote.bytes())])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let report = PrivacyScanner().scan(folder: folder)
    let item = folder + #"/Keychain/app.json:genericPassword."com.example.auth".session"#
    #expect(report.findings.contains { $0.file == item && $0.place == "author.email" })
    #expect(report.findings.allSatisfy { $0.file == item })
    #expect(report.unreadable.isEmpty)
  }

  @Test("Clean items' base64 data is not read as tokens in the snapshot's text")
  func base64IsNotAToken() throws {
    let clean = try Anonymizer().anonymize(SampleNote.bytes()).bytes
    let folder = try Self.folder([
      Self.item(account: "session", data: clean),
      Self.item(account: "device-id", data: Array("device-0001".utf8)),
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let report = PrivacyScanner().scan(folder: folder)
    #expect(report.findings.isEmpty, "\(report.findings.map(\.place))")
    #expect(report.filesScanned == 1)
  }

  @Test("An item's account that is an email is a finding")
  func accountIsScanned() throws {
    let folder = try Self.folder([
      Self.item(account: "ada.lovelace@posteo.de", data: Array("device-0001".utf8))
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let report = PrivacyScanner().scan(folder: folder)
    #expect(report.findings.map(\.kind) == [.email])
  }

  @Test("A review on the item's entry covers its finding")
  func itemReviewApplies() throws {
    let folder = try Self.folder([Self.item(account: "session", data: SampleNote.bytes())])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let open = PrivacyScanner().scan(folder: folder).findings.count
    let review = ReviewedValue(
      keyPathText: "author.email", keyPath: try ArchiveKeyPath("author.email"), detector: nil,
      reason: "a test account", location: Place(file: "m.xml", line: 3, column: 5))
    let report = PrivacyScanner().scan(
      folder: folder,
      reviews: [#"Keychain/app.json:genericPassword."com.example.auth".session"#: [review]])
    #expect(report.reviewedFindings.count == 1)
    #expect(report.findings.count == open - 1)
    #expect(report.staleReviews.isEmpty)
  }

  @Test("A snapshot that does not parse is unreadable, named, and its text not scanned")
  func corruptSnapshotIsUnreadable() throws {
    let folder = try Self.folder([])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(
      #"{"format": "archive-harness-keychain-snapshot", "version": 1, "items": [{"class": 7}]}"#
        .utf8
    ).write(to: URL(fileURLWithPath: folder + "/Keychain/app.json"))
    let report = PrivacyScanner().scan(folder: folder)
    #expect(report.unreadable.map(\.file) == [folder + "/Keychain/app.json"])
    #expect(report.findings.isEmpty)
  }
}
