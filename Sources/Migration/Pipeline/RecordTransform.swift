import KeyedArchive

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

/// What a transform decided for one record.
public enum TransformResult: Sendable, Hashable {
  /// The record is already in its current form; nothing to write.
  case unchanged
  /// New, verified bytes to write, with a short summary of what changed (`ProfilesApp.UserProfile → ProfileKit.UserProfile`).
  ///
  /// `reread` is the archive the transform read back from the bytes, when it
  /// did; ``RecordMigrator`` then checks that archive instead of reading the
  /// bytes a third time.
  case rewritten([UInt8], summary: String, reread: KeyedArchive? = nil)
  /// The record must not be rewritten.
  case refused(RecordRefusal)
}

/// Turns a record's archive into its migrated form and verifies it, or refuses.
///
/// Two implementations exist: ``RenameOnlyTransform`` (class names only, no
/// user types) and the typed transform that the Decoding module provides
/// (legacy decode with the class-name mapping, secure re-encode, secure
/// re-read with `allowedClasses`, field-by-field comparison). An
/// implementation must:
/// - return ``TransformResult/refused(_:)`` with the failing step when any
///   step fails; a decode that yields nil or an empty object is a refusal at
///   step ``MigrationStep/decode``, never a value to encode;
/// - return ``TransformResult/rewritten(_:summary:reread:)`` only after re-reading
///   and comparing the new bytes itself.
///
/// ``RecordMigrator`` checks the result again whatever the transform says: it
/// refuses empty bytes, bytes that are not a keyed archive, and an archive
/// whose root is nil.
///
/// ```swift
/// struct TypedTransform: RecordTransform {
///   var name: String { "typed" }
///   func transform(_ input: TransformInput) -> TransformResult {
///     guard let object = legacyDecode(input.archive) else {
///       return .refused(RecordRefusal(.decode, "the legacy decode returned nil"))
///     }
///     …
///   }
/// }
/// ```
public protocol RecordTransform: Sendable {
  /// The mode's name, as plans print it (`rename-only`, `typed`).
  var name: String { get }

  /// Migrates one record. Called from worker threads, concurrently.
  func transform(_ input: TransformInput) -> TransformResult
}
