import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Testing

/// The HTML report: its structure, its escaping, and that it loads nothing.
@Suite("The HTML report")
struct HTMLReportWriterTests {
  static let hostile = "<script>alert(\"x\")</script>&amp;"

  static let parameters = HTMLReportWriter.Parameters(
    manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0.1.0",
    platform: "Linux")

  static func passing(_ archive: String, manifest: String = "m.xml") -> VerificationCase {
    VerificationCase(
      manifest: manifest, archive: archive, location: Place(parsing: "\(manifest):3:3"),
      paths: DecodePath.allCases.map {
        PathResult(
          path: .decode($0), outcome: .decoded, expected: .decodes, matches: true,
          object: .object(className: "ProfileKit.Memo", fields: []))
      }, expectations: [], producer: "ProfilesApp 1.0")
  }

  static let failing = VerificationCase(
    manifest: "n.xml", archive: "b.archive", location: Place(parsing: "n.xml:9:3"),
    paths: [
      PathResult(path: .decode(.legacy), outcome: .decoded, matches: true),
      PathResult(
        path: .decode(.secure), outcome: .rejected, category: .rejection(.classNotAllowed),
        message: "secure: root: class not allowed", expected: .decodes, matches: false),
    ],
    expectations: [
      ExpectationResult(
        keyPath: "name", passed: false, expected: .string("Berlin"),
        actual: .value(.string("Bern")), location: Place(parsing: "n.xml:12:7"))
    ],
    notes: [
      "legacy decodes, secure rejects: add NSArray to allowedClasses; allowedClasses: [NSArray]",
      "Linux Foundation deviation [absent-key-fails]: foundation-legacy …",
    ], producer: "ProfilesApp 1.1")

  static let report = VerificationReport(
    cases: [passing("a.archive"), passing("c.archive"), failing])

  static let hostileReport = VerificationReport(
    cases: [
      VerificationCase(
        manifest: hostile, archive: hostile, location: Place(file: hostile),
        paths: [
          PathResult(
            path: .decode(.legacy), outcome: .decoded, message: hostile, matches: false,
            object: .object(
              className: hostile, fields: [DecodedField(key: hostile, value: .string(hostile))]))
        ],
        expectations: [
          ExpectationResult(
            keyPath: hostile, passed: false, expected: .string(hostile),
            actual: .value(.string(hostile)), location: Place(file: hostile))
        ], notes: [hostile], producer: hostile)
    ], notes: [hostile])

  func render(_ report: VerificationReport) -> String {
    HTMLReportWriter(parameters: Self.parameters).render(report)
  }

  func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  @Test("There is one matrix row per archive entry")
  func oneRowPerEntry() {
    let page = render(Self.report)
    #expect(occurrences(of: "<tr class=\"entry\"", in: page) == Self.report.cases.count)
    #expect(occurrences(of: "<th scope=\"row\">", in: page) == Self.report.cases.count)
  }

  @Test("Each decode path has a column header with a scope")
  func pathHeadersHaveScope() {
    let page = render(Self.report)
    for path in DecodePath.allCases {
      #expect(page.contains("<th scope=\"col\">\(path.rawValue)</th>"))
    }
  }

  @Test("Entries are grouped under their manifest's producer")
  func groupsByManifest() {
    let page = render(Self.report)
    #expect(occurrences(of: "<th scope=\"colgroup\"", in: page) == 2)
    #expect(page.contains("ProfilesApp 1.0 — m.xml"))
    #expect(page.contains("ProfilesApp 1.1 — n.xml"))
  }

  @Test("The summary counts entries, statuses and deviations")
  func summaryCounts() {
    let page = render(Self.report)
    #expect(page.contains("<dt>Entries</dt><dd>3</dd>"))
    #expect(page.contains("<dt>Passed</dt><dd>2</dd>"))
    #expect(page.contains("<dt>Failed</dt><dd>1</dd>"))
    #expect(page.contains("<dt>HOLEs</dt><dd>0</dd>"))
    #expect(page.contains("<dt>Linux Foundation deviations</dt><dd>1</dd>"))
    #expect(page.contains("<dt>Harness version</dt><dd>0.1.0</dd>"))
  }

  @Test("A failed expectation shows its key path, expected, actual and manifest place")
  func failedExpectationDetails() {
    let page = render(Self.report)
    #expect(page.contains("<code>name</code>"))
    #expect(page.contains("Berlin"))
    #expect(page.contains("Bern"))
    #expect(page.contains("n.xml:12:7"))
  }

  @Test("Statuses are words as well as colours")
  func statusesAreWords() {
    let page = render(Self.report)
    #expect(page.contains(">PASS</td>"))
    #expect(page.contains(">FAIL</td>"))
    #expect(page.contains("✗ unexpected"))
    #expect(page.contains("[class-not-allowed]"))
  }

  @Test("The allowedClasses advice is shown as written")
  func adviceIsShown() {
    let page = render(Self.report)
    #expect(page.contains("<p class=\"advice\">"))
    #expect(page.contains("allowedClasses: [NSArray]"))
  }

  @Test("A decoded object sits in a collapsed details element")
  func decodedObjectIsCollapsed() {
    let page = render(Self.report)
    #expect(occurrences(of: "<details>", in: page) == 2)
    #expect(!page.contains("<details open"))
  }

  @Test("A script in an archived string is escaped as text")
  func hostileStringsAreEscaped() {
    let page = render(Self.hostileReport)
    #expect(!page.contains("<script>alert"))
    #expect(page.contains("&lt;script&gt;alert"))
    #expect(occurrences(of: "<script>", in: page) == 1)
    #expect(occurrences(of: "</script>", in: page) == 1)
  }

  @Test("A quote in an archived string cannot end an attribute")
  func hostileStringsStayInAttributes() {
    let page = render(Self.hostileReport)
    #expect(!page.contains("alert(\"x"))
    #expect(page.contains("&amp;amp;"))
  }

  @Test("The page names no network address and loads no external file")
  func loadsNothing() {
    for page in [render(Self.report), render(Self.hostileReport)] {
      #expect(!page.contains("http://"))
      #expect(!page.contains("https://"))
      #expect(!page.contains("src="))
      #expect(!page.contains("<link"))
      #expect(!page.contains("@import"))
      #expect(!page.contains("url("))
    }
  }

  @Test("The page adapts to a phone's width")
  func hasPhoneLayout() {
    let page = render(Self.report)
    #expect(page.contains("@media (max-width:700px)"))
    #expect(page.contains("<meta name=\"viewport\""))
  }
}
