/// What a `migrate` run has committed to an SQLite store so far, for the error that stops it.
///
/// An error says that nothing was written only when that is so; once a batch is
/// committed, it says how many rewrites were, which the journal lists.
struct SQLiteWriteProgress: Sendable, Hashable {
  /// Whether the writer has begun its first batch (its backup and journal).
  var started = false
  /// Rewrites committed to the store, in every batch committed so far.
  var committedRecords = 0
  /// Batches committed.
  var committedBatches = 0

  /// The clause an error ends with: what was written before it.
  var statement: String {
    guard started else { return "nothing was written" }
    guard committedBatches > 0 else {
      return "no rewrite was committed to the store (its backup and journal were begun)"
    }
    let records = committedRecords == 1 ? "1 rewrite was" : "\(committedRecords) rewrites were"
    let batches = committedBatches == 1 ? "1 batch" : "\(committedBatches) batches"
    return
      "\(records) committed to the store before this, in \(batches); the journal lists them, and 'migrate --rollback' undoes them"
  }
}

extension MigrationError {
  /// The same error, its message followed by `clause`.
  func adding(_ clause: String) -> MigrationError {
    MigrationError(code, place: place, message + "; " + clause)
  }
}
