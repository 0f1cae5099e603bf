import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

/// A store check's case (no decode paths, its findings in `storeFindings`) in every report
/// format, and its status.
@Suite("Store findings in verify's reports")
struct StoreFindingReportTests {
  static let missed = StoreFinding(
    .keychainSnapshot, .error, at: Place(parsing: "Keychain/app-v1.json:genericPassword.auth.ada"),
    "no Keychain query of the manifest finds this item: the app would lose it")
  static let idle = StoreFinding(
    .keychainSnapshot, .warning, at: Place(file: "manifests/app.xml", line: 9, column: 3),
    "the query genericPassword service 'auth2' finds no item of Keychain/app-v1.json")

  static func storeCase(_ findings: [StoreFinding]) -> VerificationCase {
    VerificationCase(
      manifest: "manifests/app.xml", archive: "Keychain/app-v1.json",
      location: Place(file: "manifests/app.xml", line: 7, column: 3), paths: [],
      expectations: [], storeFindings: findings)
  }

  @Test("An error store finding fails the case")
  func errorFails() {
    #expect(Self.storeCase([Self.missed, Self.idle]).status == .failed)
  }

  @Test("A warning store finding alone leaves the case passed")
  func warningPasses() {
    #expect(Self.storeCase([Self.idle]).status == .passed)
  }

  @Test("Two cases that differ only in a store finding differ")
  func findingsAreCompared() {
    #expect(Self.storeCase([Self.missed]) != Self.storeCase([Self.idle]))
  }

  @Test("The JSON report holds the findings, follows the schema, and reads back the same")
  func jsonRoundTrip() throws {
    let report = VerificationReport(cases: [Self.storeCase([Self.missed, Self.idle])])
    let text = JSONReportWriter().render(report)
    let violations = try JSONSchemas.violations(of: text, against: .verify)
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    let document = try JSONDocument(parsing: text)
    guard case .array(let cases)? = document["cases"],
      case .array(let findings)? = cases.first?["storeFindings"]
    else {
      Issue.record("no store findings in \(text)")
      return
    }
    #expect(findings.first?["check"] == .string("keychain-snapshot"))
    #expect(findings.first?["severity"] == .string("error"))
    #expect(findings.first?["place"] == .string("Keychain/app-v1.json:genericPassword.auth.ada"))
    let read = try VerificationReportReader().report(document)
    #expect(read.cases.first?.storeFindings == [Self.missed, Self.idle])
    #expect(read.cases.first?.status == .failed)
  }

  @Test("A store finding with an unknown check does not read")
  func unknownCheckIsRefused() throws {
    let report = VerificationReport(cases: [Self.storeCase([Self.missed])])
    let text = JSONReportWriter().render(report).replacingOccurrences(
      of: "\"keychain-snapshot\"", with: "\"keychain-magic\"")
    #expect(throws: VerificationReportReadError.self) {
      try VerificationReportReader().report(try JSONDocument(parsing: text))
    }
    #expect(try !JSONSchemas.violations(of: text, against: .verify).isEmpty)
  }

  @Test("The text report prints each finding with its check and place")
  func textLines() {
    let text = TextReportWriter(colour: false).caseText(Self.storeCase([Self.missed, Self.idle]))
    #expect(text.hasPrefix("FAIL "))
    #expect(
      text.contains(
        "✗ error: [keychain-snapshot] Keychain/app-v1.json:genericPassword.auth.ada: no Keychain query"
      ))
    #expect(text.contains("warning: [keychain-snapshot] manifests/app.xml:9:3: the query"))
  }

  @Test("A passing store case still shows its warnings in the text report")
  func passingTextShowsWarnings() {
    let text = TextReportWriter(colour: false).caseText(Self.storeCase([Self.idle]))
    #expect(text.hasPrefix("PASS "))
    #expect(text.contains("warning: [keychain-snapshot]"))
  }

  @Test("JUnit names each error finding as the failure, not the warnings")
  func junitFailure() {
    let xml = JUnitReportWriter().render(
      VerificationReport(cases: [Self.storeCase([Self.missed, Self.idle])]))
    #expect(xml.contains("<failure"))
    #expect(
      xml.contains(
        "Keychain/app-v1.json:genericPassword.auth.ada: [keychain-snapshot] no Keychain query"))
    #expect(!xml.contains("finds no item of Keychain"))
  }

  @Test("HTML shows a store check's row and its findings")
  func htmlRow() {
    let html = HTMLReportWriter(
      parameters: RunParameters(
        manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0", platform: "Linux")
    ).render(VerificationReport(cases: [Self.storeCase([Self.missed])]))
    #expect(html.contains(">store check</td>"))
    #expect(
      html.contains(
        "[keychain-snapshot] <code>Keychain/app-v1.json:genericPassword.auth.ada</code>"))
    #expect(!html.contains("not run</td>"))
  }

  @Test("The text summary counts store checks apart from archive entries, streamed or not")
  func summaryNamesStoreChecks() throws {
    let report = VerificationReport(cases: [
      Self.storeCase([Self.missed]), Self.storeCase([]),
    ])
    let text = TextReportWriter(colour: false).render(report)
    #expect(text.contains("\n0 archive entries and 2 store checks: 1 passed, 1 failed"), "\(text)")
    var streamed = ""
    let stream = TextReportStream(
      writer: TextReportWriter(colour: false), containment: nil, sink: { streamed += $0 })
    for item in report.cases { try stream.write(item) }
    try stream.finish()
    #expect(streamed.contains("0 archive entries and 2 store checks: 1 passed, 1 failed"))
  }

  @Test("A manifest of store checks only is not warned about as one whose entries never decode")
  func storeChecksAreNotUndecodedEntries() {
    let text = TextReportWriter(colour: false).render(
      VerificationReport(cases: [Self.storeCase([]), Self.storeCase([Self.idle])]))
    #expect(!text.contains("no entry decodes"), "\(text)")
    #expect(!text.contains("passed: "), "\(text)")
    #expect(
      text.hasSuffix(
        "0 archive entries and 2 store checks: 2 passed, 0 failed, 0 unexpected-pass\n"))
  }
}
