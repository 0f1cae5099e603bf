import ArchiveFormat

/// What a transform decided for one record.
package enum TransformResult: Sendable, Hashable {
  /// The record is already in its current form; nothing to write.
  case unchanged
  /// New, verified bytes to write, with a short summary of what changed (`ProfilesApp.UserProfile → ProfileKit.UserProfile`).
  ///
  /// `reread` is the archive the transform read back from the bytes, when it
  /// did; `RecordMigrator` then checks that archive instead of reading the
  /// bytes a third time.
  case rewritten([UInt8], summary: String, reread: KeyedArchive? = nil)
  /// The record must not be rewritten.
  case refused(RecordRefusal)
}
