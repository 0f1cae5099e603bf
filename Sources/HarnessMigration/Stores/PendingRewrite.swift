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
