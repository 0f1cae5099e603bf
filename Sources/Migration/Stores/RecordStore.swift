/// A store of archived records, read in bounded batches so that memory does not grow with its size.
///
/// A store is a cursor: ``nextBatch(maximumCount:)`` returns the next records in a
/// stable order, and an empty batch at the end. Stores are used from one thread.
///
/// ## Topics
/// - ``DirectoryStore``
/// - ``SQLiteStore``
/// - ``RecordWriter``
public protocol RecordStore: AnyObject {
  /// The store's path, as messages print it.
  var path: String { get }

  /// The number of records the store holds, for progress; `nil` when counting is not cheap.
  func recordCount() throws(MigrationError) -> Int?

  /// Reads the next records, at most `maximumCount`; an empty array means the end.
  ///
  /// - Throws: ``MigrationError`` when the store cannot be read at all; a
  ///   record whose value is unusable comes back as a record, never as an error.
  func nextBatch(maximumCount: Int) throws(MigrationError) -> [StoreRecord]
}
