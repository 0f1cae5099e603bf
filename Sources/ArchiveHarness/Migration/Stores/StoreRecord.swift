/// One record read from a store: where it lives and what it holds.
package struct StoreRecord: Sendable {
  /// What a record's value is.
  package enum Content: Sendable, Hashable {
    /// Bytes (a blob, a file's contents, or text stored in a TEXT column).
    case bytes([UInt8])
    /// SQL NULL.
    case null
    /// A value that cannot hold an archive (an SQL integer or real), described.
    case unsupported(String)
    /// An entry that must never be read or replaced, such as a symbolic link in a directory
    /// store, with the reason; it is planned as a refusal.
    case refused(String)
  }

  /// The record's place.
  package var id: RecordID
  /// The record's value.
  package var content: Content
  /// Whether SQLite stored the value as TEXT rather than BLOB; a compare-and-swap binds it the same way.
  package var storedAsText: Bool

  /// Creates a record.
  package init(id: RecordID, content: Content, storedAsText: Bool = false) {
    self.id = id
    self.content = content
    self.storedAsText = storedAsText
  }

  /// The bytes, when the content is bytes.
  package var bytes: [UInt8]? {
    if case .bytes(let bytes) = content { return bytes }
    return nil
  }
}
