import _ArchiveHarnessSystem

/// Where a streamed report's text goes — a file written by the one write rule, or a closure —
/// with the first error writing it and whether the report is still open: what
/// `JSONReportStream` and `TextReportStream` share.
final class ReportOutput {
  /// The file, when the report goes to a path.
  let file: OutputFile?
  /// The closure, when the report goes to one (the console).
  private let sink: ((String) -> Void)?
  /// The first failed write; later chunks are dropped.
  private var failure: FileOutputError?
  /// Whether the report is neither finished nor discarded.
  private var isOpen = true

  init(file: OutputFile?, sink: ((String) -> Void)?) {
    self.file = file
    self.sink = sink
  }

  deinit {
    file?.discard()
  }

  /// Writes a chunk, unless an earlier one failed.
  func send(_ chunk: String) {
    guard failure == nil else { return }
    if let sink { sink(chunk) }
    guard let file else { return }
    do throws(FileOutputError) {
      try file.write(chunk)
    } catch {
      failure = error
    }
  }

  /// Throws when the report is already finished or discarded.
  func checkOpen() throws(FileOutputError) {
    guard isOpen else {
      throw FileOutputError(
        .system, path: file?.destination.requestedPath ?? "-",
        "the report is already finished or discarded")
    }
  }

  /// Throws the first failed write, after discarding the file.
  func checkWritten() throws(FileOutputError) {
    guard let failure else { return }
    discard()
    throw failure
  }

  /// Ends the report after its last chunk: a regular file is renamed into place.
  func finish() throws(FileOutputError) {
    try checkWritten()
    isOpen = false
    guard let file else { return }
    do throws(FileOutputError) {
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
  }

  /// Abandons the report: a temporary file is removed and the path left as it was.
  func discard() {
    isOpen = false
    file?.discard()
  }
}

/// A report written case by case while a run goes on: `JSONReportStream` and
/// `TextReportStream`.
///
/// ```swift
/// let stream: any VerificationReportStream = try TextReportStream(path: "verify.txt")
/// let notes = try run.verify { item in try stream.write(item) }
/// try stream.finish(notes: notes)
/// print(stream.passed)
/// ```
package protocol VerificationReportStream: AnyObject {
  /// Writes the next case, in report order.
  func write(_ item: VerificationCase) throws(FileOutputError)
  /// Writes what follows the cases and puts a file in place.
  func finish(notes: [String]) throws(FileOutputError)
  /// Abandons the report; a file's path is left as it was.
  func discard()
  /// Whether every case written so far passed.
  var passed: Bool { get }
}

extension JSONReportStream: VerificationReportStream {}
extension TextReportStream: VerificationReportStream {}
