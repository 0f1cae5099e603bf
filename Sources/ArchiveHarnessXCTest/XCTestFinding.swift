import ArchiveHarnessTesting

/// One failure as XCTest records it: its message, and the file and line it points at.
struct XCTestFinding: Sendable, Hashable {
  /// A file and line.
  struct SourceLine: Sendable, Hashable {
    /// The file's absolute path: a manifest, or the test's own source file.
    var filePath: String
    /// The 1-based line.
    var line: Int
  }

  /// The case's name and the finding, with the notes after the case's first finding.
  var message: String
  /// Where the failure points.
  var place: SourceLine

  /// Checks each case and hands each finding of each failing case to `record`, in order.
  ///
  /// - Parameters:
  ///   - cases: The cases, normally a project's ``HarnessProject/cases``.
  ///   - fallback: Where a finding about no manifest line points: the test's call.
  ///   - record: Records one failure; XCTest's own, or a test's collector.
  /// - Returns: How many cases failed.
  @discardableResult
  static func report(
    _ cases: [HarnessCase], fallback: SourceLine, to record: (XCTestFinding) -> Void
  ) -> Int {
    var failed = 0
    for harnessCase in cases {
      guard let failure = harnessCase.check() else { continue }
      failed += 1
      guard !failure.findings.isEmpty else {
        record(XCTestFinding(message: failure.description, place: fallback))
        continue
      }
      for (index, finding) in failure.findings.enumerated() {
        var message = "\(failure.subject): \(finding.text)"
        if index == 0, !failure.notes.isEmpty {
          message += "\n" + failure.notes.map { "note: " + $0 }.joined(separator: "\n")
        }
        let place =
          finding.location.map {
            SourceLine(filePath: $0.file ?? fallback.filePath, line: max(1, $0.line))
          } ?? fallback
        record(XCTestFinding(message: message, place: place))
      }
    }
    return failed
  }
}
