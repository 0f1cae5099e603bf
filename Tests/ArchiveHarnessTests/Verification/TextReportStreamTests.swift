import ArchiveFormat
import ArchiveHarness
import Foundation
import Testing
import _ArchiveHarnessSystem

/// The text report streamed case by case is the writer's text, byte for byte, and a regular
/// output path changes only when the stream finishes.
@Suite("The streamed text report")
struct TextReportStreamTests {
  /// A report with passing and failing cases, notes and an uncontained run.
  static var report: VerificationReport {
    var report = JSONReportSchemaTests.report
    report.notes = ["privacy scan: 2 archives, 0 findings, 0 reviewed"]
    report.containment = .inProcess
    return report
  }

  /// A report's cases streamed with its notes, as the text the stream hands on.
  static func streamed(_ report: VerificationReport, writer: TextReportWriter) throws -> String {
    var text = ""
    let stream = TextReportStream(
      writer: writer, containment: report.containment, sink: { text += $0 })
    for item in report.cases {
      try stream.write(item)
    }
    try stream.finish(notes: report.notes)
    return text
  }

  @Test("A report streamed gives the writer's text, byte for byte, plain and verbose")
  func streamedMatchesTheWriter() throws {
    let report = Self.report
    #expect(!report.cases.isEmpty && !report.passed)
    for writer in [TextReportWriter(), TextReportWriter(verbose: true)] {
      #expect(try Self.streamed(report, writer: writer) == writer.render(report))
    }
  }

  @Test("The streamed text ends with the notes, the summary and the containment line")
  func closingFollowsTheCases() throws {
    let report = Self.report
    let text = try Self.streamed(report, writer: TextReportWriter())
    let lastCase = try #require(report.cases.last)
    let note = try #require(text.range(of: "note: privacy scan"))
    let summary = try #require(text.range(of: "\(report.cases.count) archive entries: "))
    #expect(try #require(text.range(of: lastCase.name)).lowerBound < note.lowerBound)
    #expect(note.lowerBound < summary.lowerBound)
    #expect(text.hasSuffix(Containment.inProcess.reportLine + "\n"))
  }

  @Test("The stream counts statuses as the cases go by")
  func streamCountsStatuses() throws {
    let report = Self.report
    let stream = TextReportStream(sink: { _ in })
    for item in report.cases {
      try stream.write(item)
    }
    #expect(stream.total == report.cases.count)
    #expect(stream.counts == report.counts)
    #expect(stream.passed == report.passed)
  }

  @Test("A finished stream writes the text to a regular file, which keeps its old text until then")
  func finishedStreamWritesTheFile() throws {
    let directory = try JSONReportStreamTests.scratchFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.txt").path
    try "previous\n".write(toFile: path, atomically: false, encoding: .utf8)
    let report = Self.report
    let stream = try TextReportStream(path: path, containment: report.containment)
    for item in report.cases {
      try stream.write(item)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous\n")
    try stream.finish(notes: report.notes)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == TextReportWriter().render(report))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.txt"])
  }

  @Test("A discarded stream leaves an existing regular file as it was")
  func discardedStreamKeepsTheFile() throws {
    let directory = try JSONReportStreamTests.scratchFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.txt").path
    try "previous\n".write(toFile: path, atomically: false, encoding: .utf8)
    let stream = try TextReportStream(path: path)
    try stream.write(Self.report.cases[0])
    stream.discard()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.txt"])
  }

  @Test("A finished stream refuses another case")
  func finishedStreamRefusesACase() throws {
    let stream = TextReportStream(sink: { _ in })
    try stream.finish()
    #expect(throws: FileOutputError.self) {
      try stream.write(Self.report.cases[0])
    }
  }
}
