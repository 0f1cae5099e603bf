import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import Testing

@Suite("Privacy scan")
struct PrivacyScannerTests {
  static func review(_ path: String, detector: String? = nil) throws -> ReviewedValue {
    ReviewedValue(
      keyPathText: path, keyPath: try ArchiveKeyPath(path), detector: detector, reason: "checked",
      location: Place(file: "m.xml", line: 3, column: 5))
  }

  @Test("The sample note's personal data is reported, each finding at its key path")
  func reportsSampleNote() throws {
    let findings = PrivacyScanner().scan(SampleNote.bytes(), file: "note.archive")
    let found = Set(findings.map { "\($0.place) \($0.kind.rawValue) \($0.holder.rawValue)" })
    #expect(
      found == [
        "author.email email string", "author.phone phone string", "iban iban string",
        "server ipv4 string", "authorization bearer string", "metadata email dictionary key",
      ])
  }

  @Test("An anonymized note has nothing the scan reports")
  func anonymizedNoteIsClean() throws {
    let output = try Anonymizer().anonymize(SampleNote.bytes())
    #expect(PrivacyScanner().scan(output.bytes, file: "note.archive").isEmpty)
    #expect(output.report.flagged == 0)
  }

  @Test("A finding shows its value masked, never as it is")
  func masksValues() throws {
    let findings = PrivacyScanner().scan(SampleNote.bytes(), file: "note.archive")
    let email = try #require(findings.first { $0.place == "author.email" })
    #expect(email.masked == "xxxxx.xxxxxxx@xxxx-xxxx.xx")
    #expect(!email.description.contains("alice"))
    #expect(email.match == "alice.example@corp-mail.de")
  }

  @Test("A review covers a finding at its key path, for its detector")
  func reviewCoversFinding() throws {
    let findings = PrivacyScanner().scan(SampleNote.bytes(), file: "note.archive")
    let result = PrivacyScanner.apply(
      [try Self.review("author.email", detector: "email"), try Self.review("server")],
      to: findings)
    #expect(result.reviewed.map(\.place).sorted() == ["author.email", "server"])
    #expect(result.open.count == findings.count - 2)
    #expect(result.stale.isEmpty)
    #expect(result.reviewed.first?.review?.reason == "checked")
  }

  @Test("A review for another detector covers nothing and is stale")
  func reviewForAnotherDetectorIsStale() throws {
    let findings = PrivacyScanner().scan(SampleNote.bytes(), file: "note.archive")
    let result = PrivacyScanner.apply(
      [try Self.review("author.email", detector: "phone")], to: findings)
    #expect(result.reviewed.isEmpty)
    #expect(result.stale.map(\.keyPathText) == ["author.email"])
  }

  @Test("A wildcard review covers every element it matches")
  func wildcardReviewCoversElements() throws {
    var builder = KeyedArchiveBuilder()
    let emails = ["support@vendor-one.com", "help@vendor-two.com"].map { builder.string($0) }
    builder.setRoot(builder.object("Contacts", [("public", builder.array(emails))]))
    let findings = PrivacyScanner().scan(builder.bytes(), file: "contacts.archive")
    #expect(findings.map(\.place) == ["public[0]", "public[1]"])
    let result = PrivacyScanner.apply([try Self.review("public[*]")], to: findings)
    #expect(result.open.isEmpty)
  }

  @Test("Text inside data is scanned")
  func scansTextInData() throws {
    var builder = KeyedArchiveBuilder()
    let blob = builder.object(
      "NSData", [("NS.data", .data(Array("{\"mail\":\"bob@corp.de\"}".utf8)))])
    builder.setRoot(builder.object("Cache", [("response", blob)]))
    let findings = PrivacyScanner().scan(builder.bytes(), file: "cache.archive")
    #expect(findings.map(\.place) == ["response"])
    #expect(findings.map(\.holder) == [.data])
  }

  @Test("A file that is not a keyed archive is scanned as bytes, with offsets")
  func scansOtherFilesAsBytes() {
    let bytes = Array("\u{0}\u{1}junk call +49 30 1234567 now\u{0}".utf8)
    let findings = PrivacyScanner().scan(bytes, file: "broken.archive")
    #expect(findings.map(\.place) == ["offset 12"])
    #expect(findings.map(\.kind) == [.phone])
    #expect(findings.first?.keyPath == nil)
  }

  @Test("A folder scan applies reviews by archive path and lists stale ones")
  func scansFolder() throws {
    let folder = NSTemporaryDirectory() + "privacy-scan-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(
      atPath: folder + "/NotesApp-1.0", withIntermediateDirectories: true)
    try Data(SampleNote.bytes()).write(
      to: URL(fileURLWithPath: folder + "/NotesApp-1.0/note.archive"))
    let clean = try Anonymizer().anonymize(SampleNote.bytes()).bytes
    try Data(clean).write(to: URL(fileURLWithPath: folder + "/NotesApp-1.0/clean.archive"))
    try Data("hidden bob@corp.de".utf8).write(to: URL(fileURLWithPath: folder + "/.hidden"))
    let report = PrivacyScanner().scan(
      folder: folder,
      reviews: [
        "NotesApp-1.0/note.archive": [try Self.review("server"), try Self.review("title")],
        "NotesApp-1.0/gone.archive": [try Self.review("name")],
      ])
    #expect(report.filesScanned == 2)
    #expect(report.findings.count == 5)
    #expect(report.reviewedFindings.map(\.place) == ["server"])
    #expect(
      Set(report.staleReviews.map(\.archivePath)) == [
        "NotesApp-1.0/note.archive", "NotesApp-1.0/gone.archive",
      ])
    #expect(report.findings.allSatisfy { $0.file.hasSuffix("NotesApp-1.0/note.archive") })
  }

  @Test("The JSON report has a version, masked values, and the values only when revealed")
  func rendersJSON() throws {
    var report = PrivacyScanReport()
    report.filesScanned = 1
    report.findings = PrivacyScanner().scan(SampleNote.bytes(), file: "note.archive")
    let hidden = report.json(revealingValues: false).render()
    #expect(hidden.contains("\"serializationVersion\": 1"))
    #expect(!hidden.contains("alice.example@corp-mail.de"))
    #expect(report.json(revealingValues: true).render().contains("alice.example@corp-mail.de"))
  }
}
