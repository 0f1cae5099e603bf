/// Writes verified replacements into a store, with a backup and a journal, crash-safely.
package protocol RecordWriter: AnyObject {
  /// Writes a batch; returns, per rewrite in order, `nil` when written or the reason it was not.
  ///
  /// A rewrite is refused (step `write`) when the record no longer holds the
  /// bytes it was read with: a concurrent writer's newer value is never overwritten.
  func write(_ batch: [PendingRewrite]) throws(MigrationError) -> [RecordRefusal?]

  /// Closes the journal, saying the run ended; `interrupted` when it stopped early.
  func finish(interrupted: Bool) throws(MigrationError)

  /// The journal's path, once anything has been written.
  var journalPath: String? { get }

  /// The backup's path (a folder or a database file), once one has been made.
  var backupPath: String? { get }
}
