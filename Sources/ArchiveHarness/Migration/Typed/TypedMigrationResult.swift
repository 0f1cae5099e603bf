import ArchiveCoder
import ArchiveFormat

/// What the typed migration of one archive came to, in this process or in a decode worker.
package enum TypedMigrationResult: Sendable, Hashable {
  /// The app's secure read already succeeds on the archive as stored.
  case unchanged
  /// The verified new archive, and the class name of its re-read root.
  case rewritten([UInt8], className: String)
  /// A step of the round trip failed.
  case refused(RecordRefusal)
  /// The worker died or ran out of time on this archive: app code trapped, or hung.
  case crashed(CrashReport)
}
