import HarnessKeyedArchive

/// What a transform is given for one record: its place, its bytes, and the archive already read from them.
public struct TransformInput: Sendable {
  /// The record's place, for messages.
  public var id: RecordID
  /// The record's bytes.
  public var bytes: [UInt8]
  /// The validated archive read from ``bytes``.
  public var archive: KeyedArchive

  /// Creates an input.
  public init(id: RecordID, bytes: [UInt8], archive: KeyedArchive) {
    self.id = id
    self.bytes = bytes
    self.archive = archive
  }
}
