import ArchiveFormat

/// Writes a report for people: one block per case, the notes, and a summary.
///
/// Colour is used only when asked (on a terminal). The text may change
/// between versions; tools should read `--format json`.
package struct TextReportWriter: Sendable {
  /// Whether to colour statuses with ANSI escapes.
  package var colour: Bool
  /// Whether to list passing cases' paths too, not only their status line.
  package var verbose: Bool

  /// Creates a writer.
  package init(colour: Bool = false, verbose: Bool = false) {
    self.colour = colour
    self.verbose = verbose
  }

  /// The report as text: each case's block, then the notes and the summary.
  package func render(_ report: VerificationReport) -> String {
    var text = ""
    var tally = ReadTally()
    for item in report.cases {
      text += caseText(item)
      tally.add(item)
    }
    return text
      + closingText(
        notes: report.notes, total: report.cases.count, counts: report.counts,
        storeChecks: report.cases.filter(\.isStoreCheck).count, containment: report.containment,
        tally: tally)
  }

  /// One case's block: its status line, then (when it failed, or in verbose mode) each path and
  /// expectation, then its notes.
  ///
  /// ```swift
  /// print(TextReportWriter().caseText(item), terminator: "")  // PASS  v1.xml › memo.archive
  /// ```
  ///
  /// - Parameter item: The case.
  /// - Returns: Its lines, each ending with a line feed.
  package func caseText(_ item: VerificationCase) -> String {
    var text = "\(badge(item.status)) \(item.name)\n"
    if item.status == .passed && !verbose {
      text += strictnessLines(item) + storeLines(item)
      for note in item.notes { text += "    note: \(note)\n" }
      return text
    }
    for path in item.paths {
      let mark = path.matches ? "  " : paint("✗ ", code: "31")
      var line = "    \(mark)\(padded(path.path.description, 18)) \(path.outcome)"
      if let category = path.category { line += " [\(category)]" }
      // A decode path's expectation, or that there is none; the structure has no stated one.
      if case .decode = path.path {
        line += "  (\(path.expectationPhrase))"
      } else if path.expected != nil {
        line += "  (\(path.expectationPhrase))"
      }
      text += line + "\n"
      // A crash always says why: the runtime's own message is the finding.
      if let message = path.message, !path.matches || verbose || path.outcome == .crashed {
        text += Self.messageLines(message, indent: "        ")
      }
    }
    for expectation in item.expectations where !expectation.passed || verbose {
      let mark = expectation.passed ? "  " : paint("✗ ", code: "31")
      text +=
        "    \(mark)\(expectation.keyPath): expected \(expectation.expected), got \(expectation.actual)  (\(expectation.location))\n"
    }
    text += strictnessLines(item) + storeLines(item)
    for note in item.notes {
      text += "    note: \(note)\n"
    }
    return text
  }

  /// A store check's findings, one line each: `✗ error: [check] PLACE: …` or
  /// `warning: [check] PLACE: …`.
  private func storeLines(_ item: VerificationCase) -> String {
    item.storeFindings.map { finding in
      let head =
        finding.severity == .error
        ? paint("✗ ", code: "31") + "error: " : paint("warning: ", code: "33")
      return "    \(head)[\(finding.check)] \(finding.place): "
        + SwiftLiteral.escapingControlCharacters(finding.message) + "\n"
    }.joined()
  }

  /// A case's strictness findings, one line each: `✗ error: [rule] …` under
  /// `apple-future`, `warning: [rule] …` otherwise.
  private func strictnessLines(_ item: VerificationCase) -> String {
    item.strictnessFindings.map { finding in
      let head =
        finding.severity == .error
        ? paint("✗ ", code: "31") + "error: " : paint("warning: ", code: "33")
      return "    \(head)[\(finding.rule)] "
        + SwiftLiteral.escapingControlCharacters(finding.description) + "\n"
    }.joined()
  }

  /// What follows the cases: the report's notes, the summary line, and, for a run that was not
  /// contained, a line that says so.
  ///
  /// ```swift
  /// print(writer.closingText(notes: [], total: 2, counts: [.passed: 2]), terminator: "")
  /// // "\n2 archive entries: 2 passed, 0 failed, 0 unexpected-pass\n"
  /// ```
  ///
  /// - Parameters:
  ///   - notes: The report's notes, such as what a privacy scan covered.
  ///   - total: How many cases there were.
  ///   - counts: How many cases ended with each status.
  ///   - storeChecks: How many of the cases are store checks, which the summary names apart
  ///     from the archive entries.
  ///   - containment: Whether a trap while decoding was contained, when known.
  ///   - tally: What the passed cases read as; with it, a line says how many decoded and how
  ///     many were rejected as expected, and a warning names each manifest of which nothing
  ///     decoded.
  /// - Returns: The closing lines, each ending with a line feed.
  package func closingText(
    notes: [String], total: Int, counts: [VerificationCase.Status: Int], storeChecks: Int = 0,
    containment: Containment? = nil, tally: ReadTally? = nil
  ) -> String {
    var text = ""
    for note in notes {
      text += "note: \(note)\n"
    }
    for manifest in tally?.manifestsWithNothingDecoded ?? [] {
      text +=
        paint("warning: ", code: "33")
        + "\(manifest): no entry decodes; every archive it lists is rejected, so none is read "
        + "(a missing class map?)\n"
    }
    let summary = VerificationCase.Status.allCases.map { "\(counts[$0] ?? 0) \($0.rawValue)" }
      .joined(separator: ", ")
    let checked =
      storeChecks == 0
      ? "\(total) archive entries"
      : "\(total - storeChecks) archive entries and \(storeChecks) store "
        + (storeChecks == 1 ? "check" : "checks")
    text += "\n\(checked): \(summary)\n"
    if let tally, tally.counted > 0 {
      text += "passed: \(tally.summary)\n"
    }
    // Only an uncontained run says so: a trap in it would have ended the run, not failed a case.
    if let containment, !containment.isOn {
      text += paint(containment.reportLine, code: "33") + "\n"
    }
    return text
  }

  /// A message as report lines: each of its lines indented, its control characters escaped
  /// (`SwiftLiteral.escapingControlCharacters(_:)`), so that text a worker wrote to standard
  /// error cannot move the cursor or recolour a terminal.
  ///
  /// ```swift
  /// TextReportWriter.messageLines("SIGILL: Fatal error: \u{1B}[2J", indent: "  ")
  /// // "  SIGILL: Fatal error: \\u{1b}[2J\n"
  /// ```
  ///
  /// - Parameters:
  ///   - message: A message, perhaps of several lines.
  ///   - indent: What each line starts with.
  /// - Returns: The lines, each ending with a line feed.
  package static func messageLines(_ message: String, indent: String = "    ") -> String {
    message.split(separator: "\n", omittingEmptySubsequences: false).map {
      indent + SwiftLiteral.escapingControlCharacters(String($0)) + "\n"
    }.joined()
  }

  private func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  private func badge(_ status: VerificationCase.Status) -> String {
    switch status {
    case .passed: return paint("PASS", code: "32")
    case .failed: return paint("FAIL", code: "31")
    case .unexpectedPass: return paint("HOLE", code: "1;31")
    }
  }

  private func paint(_ text: String, code: String) -> String {
    colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
