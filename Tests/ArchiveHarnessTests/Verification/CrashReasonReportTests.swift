import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A contained trap is reported with its signal and the runtime's own message, bounded and
/// escaped for each format.
@Suite("Crash reasons in every report format")
struct CrashReasonReportTests {
  static let run = RunParameters(
    manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0.1.0",
    platform: "Linux")

  /// A report of one case whose legacy path crashed with this detail, unexpectedly.
  static func report(detail: String, expected: Bool = false) -> VerificationReport {
    let crash = CrashReport(signal: SIGILL, detail: detail)
    let path = PathResult(
      path: .decode(.legacy), outcome: .crashed, category: .crash(crash.cause),
      message: crash.summary, expected: expected ? .rejected(.crashed) : .decodes,
      matches: expected)
    var report = VerificationReport(
      cases: [
        VerificationCase(
          manifest: "manifests/App.xml", archive: "a.archive",
          location: Place(parsing: "manifests/App.xml:3:3"),
          paths: [path], expectations: [], duration: .milliseconds(12))
      ])
    report.run = run
    return report
  }

  /// The shipped profile-address-substituted entry verified with a real worker: its
  /// foundation-secure path traps in swift-corelibs-foundation (SIGILL, `Fatal error`).
  static func realTrap() throws -> VerificationReport {
    guard CommandRunner.executable != nil else {
      throw CrashReasonError("the archive-harness executable is not built")
    }
    let verifier = ManifestCase.verifier
    let manifest = try #require(
      ManifestCase.loaded.manifests.first { $0.file.hasSuffix("ProfilesApp-1.0.xml") })
    let entry = try #require(
      manifest.archives.first { $0.path.hasSuffix("profile-address-substituted.archive") })
    var report = VerificationReport(cases: [
      verifier.verify(entry, of: manifest, archivesDirectory: ManifestCase.archives)
    ])
    report.run = run
    return report
  }

  /// The first element of a report's `cases`.
  static func firstCase(_ document: JSONDocument) -> JSONDocument? {
    guard case .array(let cases)? = document["cases"] else { return nil }
    return cases.first
  }

  struct CrashReasonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  @Test("A real trap in the worker carries Swift's Fatal error line, with its file and line")
  func realTrapCarriesFatalError() throws {
    let report = try Self.realTrap()
    let path = try #require(
      report.cases.first?.paths.first { $0.path == .decode(.foundationSecure) })
    #expect(path.outcome == .crashed)
    #expect(path.category == .crash(.signal(SIGILL)))
    let message = try #require(path.message)
    #expect(message.hasPrefix("SIGILL: "))
    #expect(message.contains("NSKeyedUnarchiver.swift:"))
    #expect(message.contains("Fatal error: Value was of unexpected class"))
  }

  @Test("The real trap's Fatal error line is in the text, JSON, JUnit and HTML reports")
  func realTrapInEveryFormat() throws {
    let report = try Self.realTrap()
    let text = TextReportWriter(verbose: true).render(report)
    #expect(text.contains("SIGILL: Foundation/NSKeyedUnarchiver.swift:"), "\(text)")
    #expect(text.contains("Fatal error: Value was of unexpected class"))

    let json = try JSONDocument(parsing: JSONReportWriter().render(report))
    guard
      case .string(let message)? = Self.firstCase(json)?["paths"]?["foundation-secure"]?["message"]
    else {
      Issue.record("no foundation-secure message in the JSON report")
      return
    }
    #expect(message.contains("Fatal error: Value was of unexpected class"))

    let junit = JUnitReportWriter().render(report)
    #expect(junit.contains("<system-err>foundation-secure: SIGILL: "), "\(junit)")
    #expect(junit.contains("Fatal error: Value was of unexpected class"))

    let html = HTMLReportWriter(parameters: Self.run).render(report)
    #expect(html.contains("Fatal error: Value was of unexpected class"))
  }

  @Test("An unexpected trap's Fatal error line is the JUnit failure's text")
  func unexpectedTrapInJUnitFailure() {
    let report = Self.report(detail: "Memo.swift:9: Fatal error: boom")
    let junit = JUnitReportWriter().render(report)
    #expect(
      junit.contains(
        "<failure message=\"legacy: expected decodes, got crashed SIGILL: SIGILL: Memo.swift:9: Fatal error: boom\">"
      ), "\(junit)")
  }

  @Test("The runtime's line is picked from among other standard-error lines")
  func picksTheRuntimeLine() {
    let stderr = """
      decode worker: starting
      app log line
      Memo.swift:9: Fatal error: boom
      after the trap

      """
    #expect(CrashReport.lastWords(fromStandardError: stderr) == "Memo.swift:9: Fatal error: boom")
    #expect(
      CrashReport.lastWords(fromStandardError: "x\nCould not cast value of type 'A' to 'B'.\n")
        == "Could not cast value of type 'A' to 'B'.")
    let exception =
      "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', "
      + "reason: '-[NSNull length]: unrecognized selector'"
    #expect(CrashReport.lastWords(fromStandardError: "noise\n\(exception)\n") == exception)
  }

  @Test("Without a runtime line, the last three lines are kept")
  func lastThreeLinesWithoutAMarker() {
    #expect(CrashReport.lastWords(fromStandardError: "1\n2\n3\n4\n") == "2\n3\n4")
    #expect(CrashReport.lastWords(fromStandardError: "") == "")
  }

  @Test("An overlong standard-error message is cut to 1,024 UTF-8 bytes on a character boundary")
  func overlongMessageIsBounded() {
    let long = "Memo.swift:9: Fatal error: " + String(repeating: "é🗝x", count: 800)
    let words = CrashReport.lastWords(fromStandardError: "noise\n" + long + "\n")
    #expect(words.utf8.count <= CrashReport.maximumDetailBytes)
    #expect(words.utf8.count > CrashReport.maximumDetailBytes - 8)
    #expect(words.hasPrefix("Memo.swift:9: Fatal error: é🗝x"))
    #expect(words.hasSuffix("…"))
    #expect(long.hasPrefix(String(words.dropLast())))
    let crash = CrashReport(signal: SIGABRT, detail: long)
    #expect(crash.detail.utf8.count <= CrashReport.maximumDetailBytes)
    #expect(crash.detail == words)
  }

  @Test("A message that fits is kept whole, with no ellipsis")
  func shortMessageIsKept() {
    let exact = String(repeating: "a", count: CrashReport.maximumDetailBytes)
    #expect(CrashReport.bounded(exact) == exact)
    #expect(CrashReport.bounded(exact + "b").utf8.count == CrashReport.maximumDetailBytes)
  }

  static let hostile = "Memo.swift:9: Fatal error: \u{1B}[2J\u{7}bell\u{0}nul\u{9B}csi\rreturn"

  @Test("Control characters in a crash message are escaped in the text report")
  func controlCharactersEscapedInText() {
    let text = TextReportWriter().render(Self.report(detail: Self.hostile))
    #expect(
      text.contains("Fatal error: \\u{1b}[2J\\u{7}bell\\u{0}nul\\u{9b}csi\\rreturn"), "\(text)")
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x7 || $0.value == 0 })
    #expect(!text.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0xD })
  }

  @Test("Control characters in a crash message are escaped in the JSON report")
  func controlCharactersEscapedInJSON() throws {
    let json = JSONReportWriter().render(Self.report(detail: Self.hostile))
    #expect(json.contains("\\u001b[2J\\u0007bell\\u0000nul"), "\(json)")
    #expect(!json.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    let document = try JSONDocument(parsing: json)
    #expect(
      Self.firstCase(document)?["paths"]?["legacy"]?["message"]
        == .string("SIGILL: " + Self.hostile))
  }

  @Test("Control characters in a crash message cannot break the JUnit XML")
  func controlCharactersEscapedInJUnit() {
    let junit = JUnitReportWriter().render(Self.report(detail: Self.hostile))
    #expect(junit.contains("Fatal error: ?[2J?bell?nul"), "\(junit)")
    #expect(junit.contains("csi&#13;return"))
    #expect(XMLText.isValid(junit))
  }

  @Test("Control characters and markup in a crash message are escaped in the HTML report")
  func controlCharactersEscapedInHTML() {
    let detail = Self.hostile + "</small><script>alert(1)</script>"
    let html = HTMLReportWriter(parameters: Self.run).render(Self.report(detail: detail))
    #expect(html.contains("Fatal error: ?[2J?bell?nul"))
    #expect(html.contains("&lt;/small&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!html.contains("<script>alert(1)"))
    #expect(XMLText.isValid(html))
  }

  @Test("An expected crash still shows its message in the text and HTML reports")
  func expectedCrashShowsItsMessage() {
    let report = Self.report(detail: "Memo.swift:9: Fatal error: boom", expected: true)
    #expect(report.cases[0].status == .passed)
    let text = TextReportWriter(verbose: true).render(report)
    #expect(text.contains("        SIGILL: Memo.swift:9: Fatal error: boom\n"), "\(text)")
    let html = HTMLReportWriter(parameters: Self.run).render(report)
    #expect(html.contains("<small>SIGILL: Memo.swift:9: Fatal error: boom</small>"))
    let junit = JUnitReportWriter().render(report)
    #expect(!junit.contains("<failure"))
    #expect(
      junit.contains("<system-err>legacy: SIGILL: Memo.swift:9: Fatal error: boom</system-err>"))
  }
}
