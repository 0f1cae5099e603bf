import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// The engine and the reports with a store manifest's accepted refusals, on the sample store
/// (whose one refusal is `e-truncated`).
@Suite("Accepted refusals: engine and reports")
struct AcceptedRefusalEngineTests {
  private func sqliteStore(_ path: String, readOnly: Bool = true) throws -> SQLiteStore {
    try SQLiteStore(
      path: path, table: "store", keyColumn: "key", valueColumn: "value", readOnly: readOnly)
  }

  private func accepted(
    _ key: String = "e-truncated", _ category: RejectionCategory = .truncated
  ) -> AcceptedRefusal {
    AcceptedRefusal(
      key: key, category: category, reason: "written by 1.0's crash on save",
      place: Place(parsing: "store.xml:4:3"))
  }

  /// The sample store's plans with `accepted`, from a fresh database.
  private func dryRun(_ accepted: [AcceptedRefusal]) throws -> (
    summary: MigrationSummary, plans: [String: RecordPlan.Outcome], path: String
  ) {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let result = try MigrationFixtures.run(try sqliteStore(path), accepted: accepted)
    return (result.summary, result.plans, path)
  }

  @Test("A truncated record's refusal has the category truncated")
  func truncatedCategory() throws {
    let result = try dryRun([])
    let outcome = try #require(result.plans["\(result.path):store[key='e-truncated']"])
    #expect(outcome.refusal?.category == .truncated)
    #expect(outcome.fails)
  }

  @Test("A refusal with the accepted key and category is accepted and does not fail")
  func acceptedRefusal() throws {
    let result = try dryRun([accepted()])
    #expect(result.summary.refused == 0)
    #expect(result.summary.accepted == 1)
    #expect(!result.summary.hasFailures)
    #expect(result.summary.acceptedNoLongerRefused.isEmpty)
    #expect(result.summary.total == 7)
    guard
      case .accepted(let refusal, let acceptance)? =
        result.plans["\(result.path):store[key='e-truncated']"]
    else {
      Issue.record("e-truncated is not accepted: \(result.plans)")
      return
    }
    #expect(refusal.step == .read)
    #expect(acceptance == accepted())
  }

  @Test("An accepted key whose refusal has another category is category-changed and fails")
  func categoryChanged() throws {
    let result = try dryRun([accepted("e-truncated", .malformed)])
    #expect(result.summary.accepted == 0)
    #expect(result.summary.categoryChanged == 1)
    #expect(result.summary.hasFailures)
    guard
      case .categoryChanged(let refusal, let acceptance)? =
        result.plans["\(result.path):store[key='e-truncated']"]
    else {
      Issue.record("e-truncated is not category-changed: \(result.plans)")
      return
    }
    #expect(refusal.category == .truncated)
    #expect(acceptance.category == .malformed)
  }

  @Test("An accepted key that now migrates, or that no record has, is listed and does not fail")
  func noLongerRefused() throws {
    let result = try dryRun([accepted(), accepted("a-legacy"), accepted("zz-gone", .malformed)])
    #expect(!result.summary.hasFailures)
    #expect(result.summary.accepted == 1)
    let stale = result.summary.acceptedNoLongerRefused
    #expect(stale.map(\.accepted.key) == ["a-legacy", "zz-gone"])
    #expect(stale.first?.now == "now will-rewrite")
    #expect(stale.last?.outcome == nil)
    #expect(stale.last?.message.contains("no longer happens; remove it") == true)
  }

  @Test("Migrate never rewrites an accepted record, and rewrites the others")
  func migrateLeavesAcceptedRecord() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let before = try MigrationFixtures.rows(at: path)
    let store = try sqliteStore(path, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/backup", journalPath: nil)
    let result = try MigrationFixtures.run(store, writer: writer, accepted: [accepted()])
    #expect(result.summary.rewritten == 2)
    #expect(result.summary.accepted == 1)
    let after = try MigrationFixtures.rows(at: path)
    #expect(after["e-truncated"] == before["e-truncated"])
    #expect(after["a-legacy"] != before["a-legacy"])
  }

  @Test("A folder store's records are accepted by their path relative to the folder")
  func folderKeys() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try MigrationFixtures.makeFolder(at: folder)
    let result = try MigrationFixtures.run(
      try DirectoryStore(path: folder), accepted: [accepted("e-truncated.archive")])
    #expect(result.summary.accepted == 1)
    #expect(result.summary.refused == 0)
  }

  @Test("The JSON plan shows the accepted record, its category and the manifest's reason")
  func jsonPlan() throws {
    let text = try MigrationFixtures.dryRunReport(
      .json, accepted: [accepted(), accepted("zz-gone", .malformed)])
    let violations = try JSONSchemas.violations(of: text, against: .migrationPlan)
    #expect(violations.isEmpty, "\(violations)")
    let document = try JSONDocument(parsing: text)
    #expect(document["summary"]?["accepted"] == .number(1))
    #expect(document["summary"]?["refused"] == .number(0))
    #expect(document["summary"]?["categoryChanged"] == .number(0))
    guard case .array(let stale)? = document["summary"]?["acceptedNoLongerRefused"],
      case .array(let records)? = document["records"]
    else {
      Issue.record("the plan lacks records or acceptedNoLongerRefused: \(text)")
      return
    }
    #expect(stale.first?["key"] == .string("zz-gone"))
    #expect(stale.first?["now"] == .string("absent"))
    let record = try #require(records.first { $0["outcome"] == .string("accepted") })
    #expect(record["category"] == .string("truncated"))
    #expect(record["accepted"]?["reason"] == .string("written by 1.0's crash on save"))
    #expect(record["accepted"]?["place"] == .string("store.xml:4:3"))
  }

  @Test("The JSON plan of a changed category follows the schema and names both categories")
  func jsonCategoryChanged() throws {
    let text = try MigrationFixtures.dryRunReport(
      .json, accepted: [accepted("e-truncated", .cycle)])
    let violations = try JSONSchemas.violations(of: text, against: .migrationPlan)
    #expect(violations.isEmpty, "\(violations)")
    let document = try JSONDocument(parsing: text)
    #expect(document["summary"]?["categoryChanged"] == .number(1))
    guard case .array(let records)? = document["records"] else {
      Issue.record("the plan has no records")
      return
    }
    let record = try #require(records.first { $0["outcome"] == .string("category-changed") })
    #expect(record["category"] == .string("truncated"))
    #expect(record["accepted"]?["category"] == .string("cycle"))
  }

  @Test("The text plan prints the accepted record with the reason, and the stale acceptance")
  func textPlan() throws {
    let text = try MigrationFixtures.dryRunReport(
      .text, accepted: [accepted(), accepted("a-legacy")])
    #expect(text.contains("accepted         STORE:store[key='e-truncated']  [read] "))
    #expect(
      text.contains("accepted (truncated) at store.xml:4:3: written by 1.0's crash on save"))
    #expect(text.contains(", 1 accepted (7 records)"))
    #expect(
      text.contains(
        "warning: store.xml:4:3: accepted refusal of 'a-legacy' (truncated) no longer happens; "
          + "remove it (now will-rewrite)"))
  }

  @Test("The text plan of a changed category names the accepted and the actual category")
  func textCategoryChanged() throws {
    let text = try MigrationFixtures.dryRunReport(
      .text, accepted: [accepted("e-truncated", .malformed)])
    #expect(text.contains("category-changed STORE:store[key='e-truncated']  [read] "))
    #expect(
      text.contains(
        "accepted as 'malformed' at store.xml:4:3, but the refusal is now 'truncated'"))
  }

  @Test("JUnit skips an accepted refusal and fails a changed category")
  func junit() throws {
    let acceptedText = try MigrationFixtures.dryRunReport(.junit, accepted: [accepted()])
    #expect(acceptedText.contains("<testsuites tests=\"7\" failures=\"0\" skipped=\"4\""))
    let changedText = try MigrationFixtures.dryRunReport(
      .junit, accepted: [accepted("e-truncated", .malformed)])
    #expect(changedText.contains("<testsuites tests=\"7\" failures=\"1\" skipped=\"3\""))
  }

  @Test("The HTML page counts accepted refusals and shows the manifest's reason in the row")
  func html() throws {
    let page = try MigrationFixtures.dryRunReport(.html, accepted: [accepted()])
    #expect(page.contains("<dd id=\"count-accepted\">1</dd>"))
    #expect(page.contains("<dd id=\"count-refused\">0</dd>"))
    let row = try #require(
      page.split(separator: "\n").first { $0.hasPrefix("<tr class=\"record accepted\"") })
    #expect(row.contains("accepted (truncated) at store.xml:4:3: written by 1.0's crash"))
  }
}
