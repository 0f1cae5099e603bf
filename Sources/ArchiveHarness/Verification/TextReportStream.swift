import _ArchiveHarnessSystem

/// Writes the text report of a verify run case by case, while the run goes on, so memory does
/// not grow with the number of entries.
///
/// Each case's block is `TextReportWriter.caseText(_:)`, and ``finish(notes:)``
/// writes `TextReportWriter.closingText(notes:total:counts:containment:tally:)` with the counts
/// kept as the cases went by: the text `TextReportWriter.render(_:)` gives for the same
/// report, byte for byte. Written to a path, it follows the one write rule, as
/// `JSONReportStream` does: a regular file is written beside the path and renamed into
/// place by ``finish(notes:)``, so a run that fails or stops leaves the path as it was.
///
/// ```swift
/// let stream = try TextReportStream(path: "verify.txt")
/// let notes = try run.verify { item in try stream.write(item) }
/// try stream.finish(notes: notes)
/// ```
package final class TextReportStream {
  private let output: ReportOutput
  private let writer: TextReportWriter
  private let containment: Containment?
  /// How many cases were written with each status.
  package private(set) var counts: [VerificationCase.Status: Int] = [:]
  /// How many cases were written.
  package private(set) var total = 0
  /// How many of the cases written are store checks.
  package private(set) var storeChecks = 0
  /// What the passed cases read as, for the summary.
  package private(set) var tally = ReadTally()

  /// Opens a path for the report, by the project's one write rule.
  ///
  /// - Parameters:
  ///   - path: The path.
  ///   - writer: How cases are written (colour, verbose).
  ///   - containment: Whether a trap while decoding is contained (`Verifier.containment`).
  /// - Throws: `FileOutputError` when the path is refused or cannot be opened.
  package convenience init(
    path: String, writer: TextReportWriter = TextReportWriter(), containment: Containment? = nil
  ) throws(FileOutputError) {
    let file = try SafeFileWriter.open(path)
    self.init(
      output: ReportOutput(file: file, sink: nil), writer: writer, containment: containment)
  }

  /// Creates a stream that hands the text to a closure, a case's block at a time.
  ///
  /// - Parameters:
  ///   - writer: How cases are written (colour, verbose).
  ///   - containment: Whether a trap while decoding is contained (`Verifier.containment`).
  ///   - sink: Receives the text in chunks, in order; together they are the report.
  package convenience init(
    writer: TextReportWriter = TextReportWriter(), containment: Containment? = nil,
    sink: @escaping (String) -> Void
  ) {
    self.init(
      output: ReportOutput(file: nil, sink: sink), writer: writer, containment: containment)
  }

  private init(output: ReportOutput, writer: TextReportWriter, containment: Containment?) {
    self.output = output
    self.writer = writer
    self.containment = containment
  }

  /// Whether every case written so far passed.
  package var passed: Bool { (counts[.passed] ?? 0) == total }

  /// Writes the next case.
  ///
  /// - Parameter item: The case, in report order.
  /// - Throws: `FileOutputError` when writing failed, now or for an earlier case, or the
  ///   stream is finished or discarded.
  package func write(_ item: VerificationCase) throws(FileOutputError) {
    try output.checkOpen()
    output.send(writer.caseText(item))
    counts[item.status, default: 0] += 1
    tally.add(item)
    total += 1
    if item.isStoreCheck { storeChecks += 1 }
    try output.checkWritten()
  }

  /// Writes the notes and the summary and, for a regular file, puts it in place.
  ///
  /// - Parameter notes: The report's notes, such as what a privacy scan covered.
  /// - Throws: `FileOutputError` when a write or the rename failed; the path is then as it was.
  package func finish(notes: [String] = []) throws(FileOutputError) {
    try output.checkOpen()
    output.send(
      writer.closingText(
        notes: notes, total: total, counts: counts, storeChecks: storeChecks,
        containment: containment, tally: tally))
    try output.finish()
  }

  /// Abandons the report: a temporary file is removed and the path left as it was.
  package func discard() {
    output.discard()
  }

}
