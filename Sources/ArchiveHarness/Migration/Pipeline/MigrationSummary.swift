/// Counts of what a run did, per outcome.
public struct MigrationSummary: Sendable, Hashable {
  /// Records a dry run would rewrite.
  public var willRewrite = 0
  /// Records rewritten.
  public var rewritten = 0
  /// Records already current.
  public var alreadyCurrent = 0
  /// Records refused.
  public var refused = 0
  /// Records that are not archives.
  public var skipped = 0
  /// Refused records the store's manifest accepts (``RecordPlan/Outcome/accepted(_:_:)``).
  public var accepted = 0
  /// Refused records the manifest accepts under another category
  /// (``RecordPlan/Outcome/categoryChanged(_:_:)``).
  public var categoryChanged = 0
  /// Accepted refusals that did not happen: the record migrates now, or no longer exists.
  ///
  /// Filled in at the end of a run that was not interrupted; each is a note, never a failure.
  public var acceptedNoLongerRefused: [AcceptedRefusal.NoLongerRefused] = []
  /// Whether the run stopped early (SIGINT) after a whole batch.
  public var interrupted = false

  /// Creates empty counts.
  public init() {}

  /// Every record seen.
  public var total: Int {
    willRewrite + rewritten + alreadyCurrent + refused + skipped + accepted + categoryChanged
  }

  /// Whether a record failed the run: refused, or accepted under another category.
  ///
  /// ```swift
  /// let status = summary.hasFailures || summary.interrupted ? 1 : 0
  /// ```
  public var hasFailures: Bool { refused > 0 || categoryChanged > 0 }

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
