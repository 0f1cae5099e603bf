import ArchiveCoder
import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Issue 24's rest: JUnit times and classnames, one wording for no expectation, the tool's name,
/// and a truncated archive's category.
@Suite("Report details: times, classnames, no expectation, tool name, truncated")
struct ReportDetailTests {
  static func report(manifest: String, folder: String, expected: OutcomeExpectation.Outcome?)
    -> VerificationReport
  {
    var report = VerificationReport(cases: [
      VerificationCase(
        manifest: manifest, archive: "a.archive", location: Place(parsing: "\(manifest):3:3"),
        paths: [
          PathResult(
            path: .decode(.foundationSecure), outcome: .decoded, expected: expected,
            matches: true)
        ], expectations: [], duration: .milliseconds(1234))
    ])
    report.run = RunParameters(
      manifests: folder, archives: "LegacyArchives", harnessVersion: "0.1.0", platform: "Linux")
    return report
  }

  @Test("A JUnit testcase carries its measured time, and its suite the sum")
  func junitCarriesTheTime() {
    let junit = JUnitReportWriter().render(
      Self.report(manifest: "manifests/App.xml", folder: "manifests", expected: nil))
    #expect(junit.contains("name=\"a.archive\" time=\"1.234\""), "\(junit)")
    #expect(junit.contains("skipped=\"0\" time=\"1.234\">"))
    #expect(!junit.contains("time=\"0\""))
  }

  @Test("A verified entry records its wall time, which JUnit writes")
  func verifierMeasuresTheTime() throws {
    let registry = ManifestCase.registry
    let verifier = Verifier(
      registry: registry, runner: InProcessPathRunner(registry: registry),
      paths: [.legacy, .secure])
    let manifest = try #require(ManifestCase.loaded.manifests.first)
    let entry = try #require(manifest.archives.first)
    let item = verifier.verify(entry, of: manifest, archivesDirectory: ManifestCase.archives)
    let duration = try #require(item.duration)
    #expect(duration > .zero)
    let junit = JUnitReportWriter().render(VerificationReport(cases: [item]))
    let milliseconds = try #require(item.milliseconds)
    #expect(
      junit.contains(
        "time=\"\(milliseconds / 1000).\(String(format: "%03d", milliseconds % 1000))\""))
  }

  @Test("An absolute --manifests folder still gives classnames relative to it")
  func classnameRelativeToAbsoluteFolder() {
    let junit = JUnitReportWriter().render(
      Self.report(
        manifest: "/work/repo/manifests/sub/App.xml", folder: "/work/repo/manifests/",
        expected: nil))
    #expect(junit.contains("<testcase classname=\"sub/App.xml\""), "\(junit)")
    #expect(junit.contains("<testsuite name=\"sub/App.xml\""))
    #expect(!junit.contains("/work/repo"))
  }

  @Test("A relative --manifests folder gives the same classname")
  func classnameRelativeToRelativeFolder() {
    let junit = JUnitReportWriter().render(
      Self.report(manifest: "manifests/sub/App.xml", folder: "manifests", expected: nil))
    #expect(junit.contains("<testcase classname=\"sub/App.xml\""), "\(junit)")
  }

  @Test("A path with no expectation reads 'no expectation' in text and HTML alike")
  func noExpectationWording() {
    let report = Self.report(manifest: "manifests/App.xml", folder: "manifests", expected: nil)
    let path = report.cases[0].paths[0]
    #expect(path.expectationPhrase == PathResult.noExpectation)
    #expect(PathResult.noExpectation == "no expectation")
    let text = TextReportWriter(verbose: true).render(report)
    #expect(text.contains("decoded  (no expectation)"), "\(text)")
    #expect(!text.contains("expected nothing"))
    let html = HTMLReportWriter(parameters: report.run!).render(report)
    #expect(html.contains("<span class=\"mark\">no expectation</span>"), "\(html)")
    #expect(!html.contains("✓ as expected"))
  }

  @Test("A path with an expectation that it met reads 'expected …' and '✓ as expected'")
  func metExpectationWording() {
    let report = Self.report(
      manifest: "manifests/App.xml", folder: "manifests", expected: .decodes)
    #expect(TextReportWriter(verbose: true).render(report).contains("(expected decodes)"))
    #expect(HTMLReportWriter(parameters: report.run!).render(report).contains("✓ as expected"))
  }

  @Test("HTML and JUnit name the run by the tool's name they are given")
  func toolNameInTitles() {
    let report = Self.report(manifest: "manifests/App.xml", folder: "manifests", expected: nil)
    let html = HTMLReportWriter(parameters: report.run!, toolName: "profile-harness")
      .render(report)
    #expect(html.contains("<title>profile-harness verify</title>"))
    #expect(!html.contains("archive-harness"))
    let junit = JUnitReportWriter(toolName: "profile-harness").render(report)
    #expect(junit.contains("<testsuites name=\"profile-harness verify\""))
    #expect(!junit.contains("archive-harness"))
  }

  @Test("A tool's name with markup characters is escaped in the HTML title")
  func toolNameIsEscaped() {
    let report = Self.report(manifest: "manifests/App.xml", folder: "manifests", expected: nil)
    let html = HTMLReportWriter(parameters: report.run!, toolName: "a&b<c>").render(report)
    #expect(html.contains("<title>a&amp;b&lt;c&gt; verify</title>"))
  }

  @Test("A truncated archive's diagnostic category is [truncated], not [io]")
  func truncatedArchiveCategory() throws {
    let url = Corpus.packageRoot.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/memo-truncated.archive")
    let bytes = try [UInt8](Data(contentsOf: url))
    let error = try #require(throws: KeyedArchiveError.self) { try KeyedArchive(bytes: bytes) }
    #expect(RejectionCategory(structural: error) == .truncated)
    #expect(DiagnosticCategory.archive(error).description == "truncated")
    #expect(DiagnosticCategory.archive(error) != .io)
  }
}
