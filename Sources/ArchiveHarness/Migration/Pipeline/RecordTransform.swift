import ArchiveFormat

/// Turns a record's archive into its migrated form and verifies it, or refuses.
///
/// Two implementations exist: `RenameOnlyTransform` (class names only, no
/// user types) and `TypedTransform` (legacy decode with the class-name
/// mapping, secure re-encode, secure re-read with `allowedClasses`,
/// field-by-field comparison). An
/// implementation must:
/// - return `TransformResult.refused(_:)` with the failing step when any
///   step fails; a decode that yields nil or an empty object is a refusal at
///   step ``MigrationStep/decode``, never a value to encode;
/// - return `TransformResult.rewritten(_:summary:reread:)` only after re-reading
///   and comparing the new bytes itself.
///
/// `RecordMigrator` checks the result again whatever the transform says: it
/// refuses empty bytes, bytes that are not a keyed archive, and an archive
/// whose root is nil.
///
/// ```swift
/// struct LegacyOnlyTransform: RecordTransform {
///   var name: String { "legacy-only" }
///   func transform(_ input: TransformInput) -> TransformResult {
///     guard let object = legacyDecode(input.archive) else {
///       return .refused(RecordRefusal(.decode, "the legacy decode returned nil"))
///     }
///     …
///   }
/// }
/// ```
package protocol RecordTransform: Sendable {
  /// The mode's name, as plans print it (`rename-only`, `typed`).
  var name: String { get }

  /// Migrates one record. Called from worker threads, concurrently.
  func transform(_ input: TransformInput) -> TransformResult

  /// Migrates a slice of a batch, one result per input, in order. Called from worker threads,
  /// concurrently, each with its own slice, when ``prefersBatches`` is true.
  ///
  /// The default calls ``transform(_:)`` for each input; a transform that runs
  /// app code in a worker process overrides it to send the slice at once.
  func transform(batch inputs: [TransformInput]) -> [TransformResult]

  /// Whether `RecordMigrator` hands this transform a slice at a time rather than a record at
  /// a time; false by default, which keeps one record's archive in memory at a time.
  var prefersBatches: Bool { get }
}

extension RecordTransform {
  /// A record at a time.
  package var prefersBatches: Bool { false }

  /// Calls ``transform(_:)`` for each input.
  package func transform(batch inputs: [TransformInput]) -> [TransformResult] {
    inputs.map(transform)
  }
}
