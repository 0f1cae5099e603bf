/// What migration does, or did, with one record.
public struct RecordPlan: Sendable {
  /// The decision for a record.
  public enum Outcome: Sendable, Hashable {
    /// Verified; a `migrate` would replace it (dry run).
    case willRewrite(summary: String)
    /// Verified and replaced (`migrate`).
    case rewritten(summary: String)
    /// Nothing would change.
    case alreadyCurrent
    /// Not rewritten: a step failed.
    case refused(RecordRefusal)
    /// Not an archive (NULL, not a property list, too large): reported, never touched.
    case skipped(String)

    /// The outcome's name as plans print it: `will-rewrite`, `rewritten`, `already-current`, `refused`, `skipped`.
    public var name: String {
      switch self {
      case .willRewrite: "will-rewrite"
      case .rewritten: "rewritten"
      case .alreadyCurrent: "already-current"
      case .refused: "refused"
      case .skipped: "skipped"
      }
    }
  }

  /// The record, with the bytes it was read with.
  public var record: StoreRecord
  /// The decision.
  public var outcome: Outcome
  /// The verified new bytes, for ``Outcome/willRewrite(summary:)``.
  public var replacement: [UInt8]?

  /// Creates a plan.
  public init(record: StoreRecord, outcome: Outcome, replacement: [UInt8]? = nil) {
    self.record = record
    self.outcome = outcome
    self.replacement = replacement
  }
}
