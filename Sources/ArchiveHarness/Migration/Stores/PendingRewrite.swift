import ArchiveFormat

/// One verified replacement to write: the record, the bytes it was read with, and the new bytes.
package struct PendingRewrite: Sendable {
  /// The record.
  package var record: StoreRecord
  /// The bytes that were read and verified; a write happens only while the record still holds them.
  package var original: [UInt8]
  /// The verified new bytes.
  package var replacement: [UInt8]
  /// The SHA-256 of ``original`` and ``replacement`` for the journal, when they were computed
  /// where the record was verified, off the thread that writes.
  package var checksums: RewriteChecksums?

  /// Creates a pending rewrite.
  package init(record: StoreRecord, original: [UInt8], replacement: [UInt8]) {
    self.record = record
    self.original = original
    self.replacement = replacement
  }

  /// Creates a pending rewrite whose checksums were computed already.
  package init(
    record: StoreRecord, original: [UInt8], replacement: [UInt8], checksums: RewriteChecksums?
  ) {
    self.init(record: record, original: original, replacement: replacement)
    self.checksums = checksums
  }

  /// The checksums the journal records: those computed already, or computed now.
  var journalChecksums: RewriteChecksums {
    checksums ?? RewriteChecksums(original: original, replacement: replacement)
  }
}

/// The hex SHA-256 of a record's old and new bytes, as a migration journal's change line
/// records them.
package struct RewriteChecksums: Sendable, Hashable {
  /// The SHA-256 of the bytes the record was read with.
  package var original: String
  /// The SHA-256 of the new bytes.
  package var replacement: String

  /// Computes both.
  package init(original: [UInt8], replacement: [UInt8]) {
    self.original = SHA256Checksum.hex(original)
    self.replacement = SHA256Checksum.hex(replacement)
  }
}
