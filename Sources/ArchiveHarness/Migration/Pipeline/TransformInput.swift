import ArchiveFormat

/// What a transform is given for one record: its place, its bytes, and the archive already read from them.
package struct TransformInput: Sendable {
  /// The record's place, for messages.
  package var id: RecordID
  /// The record's bytes.
  package var bytes: [UInt8]
  /// The validated archive read from ``bytes``.
  package var archive: KeyedArchive
  /// The checked binary list ``bytes`` are, when the archive was read through one; a transform
  /// that works on the bytes uses it rather than checking them again.
  package var view: BinaryPropertyListView?

  /// Creates an input.
  package init(id: RecordID, bytes: [UInt8], archive: KeyedArchive) {
    self.id = id
    self.bytes = bytes
    self.archive = archive
  }

  /// Creates an input with the checked list the archive was read from.
  package init(id: RecordID, bytes: [UInt8], archive: KeyedArchive, view: BinaryPropertyListView?) {
    self.id = id
    self.bytes = bytes
    self.archive = archive
    self.view = view
  }
}
