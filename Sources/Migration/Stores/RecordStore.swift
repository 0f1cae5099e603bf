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

/// One verified replacement to write: the record, the bytes it was read with, and the new bytes.
public struct PendingRewrite: Sendable {
  /// The record.
  public var record: StoreRecord
  /// The bytes that were read and verified; a write happens only while the record still holds them.
  public var original: [UInt8]
  /// The verified new bytes.
  public var replacement: [UInt8]

  /// Creates a pending rewrite.
  public init(record: StoreRecord, original: [UInt8], replacement: [UInt8]) {
    self.record = record
    self.original = original
    self.replacement = replacement
  }
}

/// Writes verified replacements into a store, with a backup and a journal, crash-safely.
public protocol RecordWriter: AnyObject {
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
