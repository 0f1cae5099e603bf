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
  /// Whether the run stopped early (SIGINT) after a whole batch.
  public var interrupted = false

  /// Creates empty counts.
  public init() {}

  /// Every record seen.
  public var total: Int { willRewrite + rewritten + alreadyCurrent + refused + skipped }

  mutating func count(_ outcome: RecordPlan.Outcome) {
    switch outcome {
    case .willRewrite: willRewrite += 1
    case .rewritten: rewritten += 1
    case .alreadyCurrent: alreadyCurrent += 1
    case .refused: refused += 1
    case .skipped: skipped += 1
    }
  }
}
