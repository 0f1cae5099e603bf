import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `migrate-dry-run --format html`: one self-contained page, its table, its counts and its escaping.
@Suite("The migration HTML report")
struct MigrationHTMLReportTests {
  static let hostile = "<script>alert(\"x\")</script>&amp;"

  /// The dry-run page of the sample store plus a truncated archive under a hostile key.
  private func page() throws -> String {
    let truncated = Array(MigrationFixtures.profile().prefix(40))
    return try MigrationFixtures.dryRunReport(
      .html, rows: MigrationFixtures.sampleRows() + [(Self.hostile, truncated)],
      storeName: "STORE <b>")
  }

  /// The rows of the page whose decision is `outcome`.
  private func rows(_ page: String, outcome: String) -> [Substring] {
    page.split(separator: "\n").filter { $0.hasPrefix("<tr class=\"record \(outcome)\"") }
  }

  @Test("The summary counts each decision, and there is one row per record")
  func countsAndRows() throws {
    let page = try page()
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains("<dd id=\"count-will-rewrite\">2</dd>"))
    #expect(page.contains("<dd id=\"count-already-current\">1</dd>"))
    #expect(page.contains("<dd id=\"count-refused\">2</dd>"))
    #expect(page.contains("<dd id=\"count-skipped\">3</dd>"))
    #expect(page.contains("<dd id=\"count-total\">8</dd>"))
    #expect(page.split(separator: "\n").filter { $0.hasPrefix("<tr class=\"record ") }.count == 8)
    #expect(rows(page, outcome: "refused").count == 2)
  }

  @Test("Every refused row names its step, its reason and what the app's read does today")
  func refusedRowsExplain() throws {
    let page = try page()
    let refused = rows(page, outcome: "refused")
    #expect(refused.count == 2)
    for row in refused {
      #expect(row.contains("<td data-label=\"Step\" class=\"step\">read</td>"))
      #expect(!row.contains("class=\"reason\"></td>"))
      #expect(row.contains("a SecureStoreCache-style read returns nil and logs"))
      #expect(row.contains("a SecureKeyValueStore-style read throws typeConversionFailed"))
    }
  }

  @Test("A script in a store key stays text")
  func hostileKeyIsEscaped() throws {
    let page = try page()
    #expect(!page.contains("<script>alert"))
    #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;"))
    #expect(page.components(separatedBy: "<script>").count == 2)
  }

  @Test("The store's name is escaped in the summary")
  func storeNameIsEscaped() throws {
    let page = try page()
    #expect(page.contains("<dd>STORE &lt;b&gt;</dd>"))
    #expect(!page.contains("STORE <b>"))
  }

  @Test("The page names no network address and loads no external file")
  func selfContained() throws {
    let page = try page()
    for needle in ["http://", "https://", "src=", "href=", "@import", "url(", "@font-face"] {
      #expect(!page.contains(needle), "\(needle)")
    }
  }

  @Test("The records are a table with a caption, column headers and row headers with scopes")
  func accessibleTable() throws {
    let page = try page()
    #expect(page.contains("<caption>"))
    #expect(page.components(separatedBy: "<th scope=\"col\">").count == 6)
    #expect(page.components(separatedBy: "<th scope=\"row\">").count == 9)
  }

  @Test("The page adapts to a phone's width and can show refused records only")
  func phoneWidthAndFilter() throws {
    let page = try page()
    #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width"))
    #expect(page.contains("@media (max-width:700px)"))
    #expect(page.contains("<input type=\"checkbox\" id=\"refused-only\">"))
    #expect(page.contains("location.hash===\"#refused-only\""))
  }

  @Test("migrate-dry-run --format html --output writes the page and nothing to stdout")
  func commandWritesPage() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let result = try CommandRunner.run(
      MigrationFixtures.renameOnlyDryRun(store: path, format: "html", output: folder + "/plan.html")
    )
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    let page = try String(contentsOfFile: folder + "/plan.html", encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains("<dd id=\"count-refused\">1</dd>"))
    #expect(rows(page, outcome: "refused").count == 1)
  }
}
