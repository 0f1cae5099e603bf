/// A store of archived records, read in bounded batches so that memory does not grow with its size.
///
/// A store is a cursor: ``nextBatch(maximumCount:)`` returns the next records in a
/// stable order, and an empty batch at the end. Stores are used from one thread.
///
/// ## Topics
package protocol RecordStore: AnyObject {
  /// The store's path, as messages print it.
  var path: String { get }

  /// Whether the store's values are secrets (a Keychain snapshot's tokens and keys), whose text
  /// no report may print; `false` unless the store says so.
  var holdsSecrets: Bool { get }

  /// The number of records the store holds, for progress; `nil` when counting is not cheap.
  func recordCount() throws(MigrationError) -> Int?

  /// Reads the next records, at most `maximumCount`; an empty array means the end.
  ///
  /// - Throws: `MigrationError` when the store cannot be read at all; a
  ///   record whose value is unusable comes back as a record, never as an error.
  func nextBatch(maximumCount: Int) throws(MigrationError) -> [StoreRecord]

  /// Removes what an interrupted `migrate` left in the store; returns the paths removed.
  ///
  /// `migrate` calls this before it makes a writer. A store whose writes leave
  /// nothing behind when they are interrupted returns an empty array.
  ///
  /// - Throws: `MigrationError` when the store cannot be listed.
  func removeStaleTemporaryFiles() throws(MigrationError) -> [String]

  /// Makes the writer that `migrate` uses for this store.
  ///
  /// Each store knows how its records are replaced safely, so callers never
  /// need to know which kind of store they hold:
  ///
  /// ```swift
  /// let store: any RecordStore = try DirectoryStore(path: "LegacyArchives")
  /// let writer = try store.makeWriter(runDirectory: "Backups/run-1", journalPath: nil)
  /// ```
  ///
  /// - Parameters:
  ///   - runDirectory: Where originals (or a copy of the database) and the
  ///     journal go; `nil` with `--no-backup`.
  ///   - journalPath: The journal file; by default `RUN/journal.jsonl`.
  /// - Returns: A writer that keeps the originals before replacing them.
  /// - Throws: `MigrationError` when the store cannot be written.
  func makeWriter(runDirectory: String?, journalPath: String?) throws(MigrationError)
    -> any RecordWriter
}

extension RecordStore {
  /// A store's values are not secrets unless it says so.
  package var holdsSecrets: Bool { false }
}
