/// Counts of what a run did, per outcome.
package struct MigrationSummary: Sendable, Hashable {
  /// Records a dry run would rewrite.
  package var willRewrite = 0
  /// Records rewritten.
  package var rewritten = 0
  /// Records already current.
  package var alreadyCurrent = 0
  /// Records refused.
  package var refused = 0
  /// Records that are not archives.
  package var skipped = 0
  /// Refused records the store's manifest accepts (`RecordPlan.Outcome.accepted(_:_:)`).
  package var accepted = 0
  /// Refused records the manifest accepts under another category
  /// (`RecordPlan.Outcome.categoryChanged(_:_:)`).
  package var categoryChanged = 0
  /// Accepted refusals that did not happen: the record migrates now, or no longer exists.
  ///
  /// Filled in at the end of a run that was not interrupted; each is a note, never a failure.
  package var acceptedNoLongerRefused: [AcceptedRefusal.NoLongerRefused] = []
  /// Whether the run stopped early (SIGINT) after a whole batch.
  package var interrupted = false

  /// Creates empty counts.
  package init() {}

  /// Every record seen.
  package var total: Int {
    willRewrite + rewritten + alreadyCurrent + refused + skipped + accepted + categoryChanged
  }

  /// Whether a record failed the run: refused, or accepted under another category.
  ///
  /// ```swift
  /// let status = summary.hasFailures || summary.interrupted ? 1 : 0
  /// ```
  package var hasFailures: Bool { refused > 0 || categoryChanged > 0 }

  mutating func count(_ outcome: RecordPlan.Outcome) {
    switch outcome {
    case .willRewrite: willRewrite += 1
    case .rewritten: rewritten += 1
    case .alreadyCurrent: alreadyCurrent += 1
    case .refused: refused += 1
    case .skipped: skipped += 1
    case .accepted: accepted += 1
    case .categoryChanged: categoryChanged += 1
    }
  }
}
