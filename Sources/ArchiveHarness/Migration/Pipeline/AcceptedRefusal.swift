import ArchiveFormat

/// A refusal a store's manifest accepts: the record's key, the category its refusal must have, and why.
///
/// A store with a known-bad record (one an old version wrote broken) would
/// otherwise make every run exit 1. The manifest lists it with
/// `<accepted key="user_17" category="truncated" reason="…"/>`; `MigrationEngine`
/// then plans that record as `RecordPlan.Outcome.accepted(_:_:)` while its
/// refusal keeps that category. The record is never rewritten either way.
///
/// The key is the record's `RecordID.acceptanceKey`: the file's path relative
/// to a directory store, the key column's value of an SQLite row, or the key
/// path of a property-list store's value.
///
/// ```swift
/// let accepted = AcceptedRefusal(
///   key: "user_17", category: .truncated,
///   reason: "written by 1.0's crash on save; the user re-enters it", place: "store.xml:12:3")
/// let engine = MigrationEngine(
///   store: store, migrator: migrator, writer: nil, acceptedRefusals: [accepted])
/// ```
package struct AcceptedRefusal: Sendable, Hashable {
  /// The record's key: a directory store's relative path, an SQLite key column's value, or a
  /// property-list value's key path.
  package var key: String
  /// The rejection category the record's refusal must have to be accepted.
  package var category: RejectionCategory
  /// Why the refusal is accepted, as the manifest gives it.
  package var reason: String
  /// Where the acceptance is written, such as `manifest.xml:12:3`, for messages.
  package var place: Place

  /// Creates an accepted refusal.
  ///
  /// - Parameters:
  ///   - key: The record's key.
  ///   - category: The category its refusal must have.
  ///   - reason: Why it is accepted.
  ///   - place: Where it is written.
  package init(key: String, category: RejectionCategory, reason: String, place: Place) {
    self.key = key
    self.category = category
    self.reason = reason
    self.place = place
  }

  /// An accepted refusal that did not happen in a run: the record now has another outcome, or
  /// the store holds no record with the key.
  package struct NoLongerRefused: Sendable, Hashable {
    /// The acceptance.
    package var accepted: AcceptedRefusal
    /// The record's outcome in the run, or `nil` when no record has the key.
    package var outcome: RecordPlan.Outcome?

    /// Creates the finding.
    package init(accepted: AcceptedRefusal, outcome: RecordPlan.Outcome?) {
      self.accepted = accepted
      self.outcome = outcome
    }

    /// What happens now, such as `now will-rewrite` or `no record has this key`.
    package var now: String {
      outcome.map { "now \($0.name)" } ?? "no record has this key"
    }

    /// The message reports print: `accepted refusal no longer happens; remove it (…)`.
    package var message: String {
      "accepted refusal of '\(accepted.key)' (\(accepted.category)) no longer happens; remove it "
        + "(\(now))"
    }
  }
}

extension RecordID {
  /// The key a store manifest's `<accepted key="…">` names this record by: a file's path
  /// relative to the directory store, an SQLite key of TEXT or INTEGER (in decimal), or a
  /// property-list value's key path (`profile.current`, `recent[2]`).
  ///
  /// `nil` for a key of another storage class (REAL, BLOB, NULL), which no acceptance names.
  ///
  /// ```swift
  /// RecordID.file(path: "/s/a/b.archive", relativePath: "a/b.archive").acceptanceKey  // "a/b.archive"
  /// ```
  package var acceptanceKey: String? {
    switch kind {
    case .file(_, let relativePath):
      return relativePath
    case .propertyListValue(let keyPath):
      return keyPath.description
    case .row(_, let key, _):
      switch key {
      case .text(let text): return text
      case .integer(let value): return String(value)
      case .real, .blob, .null: return nil
      }
    }
  }
}
