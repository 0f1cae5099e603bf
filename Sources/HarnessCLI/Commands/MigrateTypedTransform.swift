import Decoding
import KeyedArchive
import Migration

/// The typed migration of one record: Decoding's verified round trip, as a Migration ``RecordTransform``.
///
/// A record is already current when the app's own secure read succeeds on it
/// as stored: the current classes, the declared `allowedClasses`, and no
/// class-name map. Otherwise the round trip runs: legacy decode with the map,
/// secure re-encode, secure re-read, field-by-field comparison. A refusal names
/// the step, and says that the app's read of the record fails today (it was
/// just tried).
struct MigrateTypedTransform: RecordTransform {
  /// The app's current classes.
  var registry: ClassRegistry
  /// Archived name → current name, for the legacy decode.
  var classMap: ClassNameMap
  /// The classes the app's secure read declares.
  var allowedClasses: [String]
  /// The bounds on reading.
  var limits: ArchiveLimits = .default

  var name: String { "typed" }

  func transform(_ input: TransformInput) -> TransformResult {
    let current = HarnessDecoder(registry: registry, limits: limits)
      .decode(input.archive, secure: true, allowedClasses: allowedClasses)
    if current.object != nil, current.outcome.decodedValue != nil {
      return .unchanged
    }
    let trip = RoundTrip(
      registry: registry, classMap: classMap, allowedClasses: allowedClasses, limits: limits)
    switch trip.run(input.bytes) {
    case .success(let migrated):
      return .rewritten(
        migrated.bytes,
        summary: "\(migrated.after.className) re-encoded with secure coding, re-read and compared")
    case .failure(let refusal):
      return .refused(
        RecordRefusal(
          refusal.step, "[\(refusal.category)] \(refusal.reason)", currentReadFails: true))
    }
  }
}
