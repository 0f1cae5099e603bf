import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

@Suite("Migration reports")
struct MigrationReportWriterTests {
  private func report(_ format: MigrationReportWriter.Format) throws -> String {
    try MigrationFixtures.dryRunReport(format)
  }

  @Test("The JSON plan is one document with a version, sorted keys, records and counts")
  func jsonPlan() throws {
    let text = try report(.json)
    let violations = try JSONSchemas.violations(of: text, against: .migrationPlan)
    #expect(violations.isEmpty, "\(violations)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["serializationVersion"] as? Int == 1)
    #expect(object["operation"] as? String == "dry-run")
    let records = try #require(object["records"] as? [[String: Any]])
    #expect(records.count == 7)
    let refused = try #require(records.first { $0["outcome"] as? String == "refused" })
    #expect(refused["step"] as? String == "read")
    let currentRead = try #require(refused["currentRead"] as? [String: String])
    #expect(currentRead["secureKeyValueStore"] == "throws typeConversionFailed")
    #expect(currentRead["secureStoreCache"] == "returns nil and logs")
    let summary = try #require(object["summary"] as? [String: Any])
    #expect(summary["willRewrite"] as? Int == 2)
    #expect(summary["refused"] as? Int == 1)
    let keys = text.split(separator: "\n").last.map(String.init) ?? ""
    #expect(keys.contains("],\"serializationVersion\":1,\"store\":"))
  }

  @Test("An interrupted run's note does not repeat the summary's interrupted member")
  func interruptedNoteIsNotRepeated() throws {
    let collected = CollectedText()
    let writer = MigrationReportWriter(format: .json, sink: collected.append)
    writer.begin(store: "STORE", mode: "typed", operation: .migrate)
    var summary = MigrationSummary()
    summary.interrupted = true
    writer.finish(
      summary,
      notes: [("interrupted", "after 0 records; run migrate again to finish"), ("store", "x")])
    let violations = try JSONSchemas.violations(of: collected.text, against: .migrationReport)
    #expect(violations.isEmpty, "\(violations)")
    let document = try JSONDocument(parsing: collected.text)
    #expect(document["summary"]?["interrupted"] == .bool(true))
    #expect(document["summary"]?["store"] == .string("x"))
  }

  @Test("The text plan has one line per record, the refusal's consequence, and counts")
  func textPlan() throws {
    let text = try report(.text)
    #expect(text.contains("will-rewrite     STORE:store[key='a-legacy']  ProfilesApp."))
    #expect(text.contains("already-current  STORE:store[key='b-current']"))
    #expect(text.contains("skipped          STORE:store[key='c-null']  the value is NULL"))
    #expect(text.contains("refused          STORE:store[key='e-truncated']  [read] "))
    #expect(text.contains("today: a SecureStoreCache-style read returns nil and logs"))
    #expect(
      text.contains(
        "summary: 2 will-rewrite, 1 already-current, 1 refused, 3 skipped (7 records)"))
  }

  @Test("The JUnit plan has a test case per record and fails the refused one")
  func junitPlan() throws {
    let text = try report(.junit)
    #expect(text.hasPrefix("<?xml"))
    #expect(text.contains("<testsuites tests=\"7\" failures=\"1\" skipped=\"3\""))
    #expect(text.components(separatedBy: "<testcase ").count == 8)
    #expect(text.components(separatedBy: "<failure ").count == 2)
  }
}

/// Collects sink output from the report writer.
