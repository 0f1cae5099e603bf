/// What migration does, or did, with one record.
package struct RecordPlan: Sendable {
  /// The decision for a record.
  package enum Outcome: Sendable, Hashable {
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
    /// Refused as the store's manifest accepts it (same key, same category): reported with the
    /// manifest's reason, never touched, and no reason to fail the run.
    case accepted(RecordRefusal, AcceptedRefusal)
    /// Refused, and the manifest accepts the key's refusal, but under another category than the
    /// refusal has now: a refusal like a new one, never touched.
    case categoryChanged(RecordRefusal, AcceptedRefusal)

    /// The outcome's name as plans print it: `will-rewrite`, `rewritten`, `already-current`,
    /// `refused`, `skipped`, `accepted`, `category-changed`.
    package var name: String {
      switch self {
      case .willRewrite: "will-rewrite"
      case .rewritten: "rewritten"
      case .alreadyCurrent: "already-current"
      case .refused: "refused"
      case .skipped: "skipped"
      case .accepted: "accepted"
      case .categoryChanged: "category-changed"
      }
    }

    /// The refusal of a refused, accepted or category-changed record.
    package var refusal: RecordRefusal? {
      switch self {
      case .refused(let refusal), .accepted(let refusal, _), .categoryChanged(let refusal, _):
        refusal
      case .willRewrite, .rewritten, .alreadyCurrent, .skipped:
        nil
      }
    }

    /// Whether the outcome fails a run: a refusal no manifest accepts, or one whose category
    /// changed.
    package var fails: Bool {
      switch self {
      case .refused, .categoryChanged: true
      case .willRewrite, .rewritten, .alreadyCurrent, .skipped, .accepted: false
      }
    }
  }

  /// The record, with the bytes it was read with.
  package var record: StoreRecord
  /// The decision.
  package var outcome: Outcome
  /// The verified new bytes, for `Outcome.willRewrite(summary:)`.
  package var replacement: [UInt8]?
  /// The journal's SHA-256 of the record's bytes and of ``replacement``, computed on the
  /// thread that verified the record when the run writes.
  package var checksums: RewriteChecksums?

  /// Creates a plan.
  package init(record: StoreRecord, outcome: Outcome, replacement: [UInt8]? = nil) {
    self.record = record
    self.outcome = outcome
    self.replacement = replacement
  }
}
