import Decoding
import KeyedArchive

/// The typed migration of one record: Decoding's verified round trip, as a ``RecordTransform``.
///
/// A record is already current when the app's own secure read succeeds on it
/// as stored: the current classes, the declared `allowedClasses`, and no
/// class-name map. Otherwise the round trip runs: legacy decode with the map,
/// secure re-encode, secure re-read, field-by-field comparison. A refusal names
/// the step, and says that the app's read of the record fails today (it was
/// just tried).
///
/// App code (`init?(coder:)`, `encode(with:)`) runs in this process.
///
/// ```swift
/// let transform = TypedTransform(
///   registry: ClassRegistry(modelClasses: [UserProfile.self, Address.self]),
///   classMap: ClassNameMap(entries: ["ProfilesApp.UserProfile": "ProfileKit.UserProfile"]),
///   allowedClasses: ["ProfileKit.UserProfile", "ProfileKit.Address"])
/// let result = transform.transform(input)  // .unchanged, .rewritten or .refused
/// ```
public struct TypedTransform: RecordTransform {
  /// The app's current classes.
  public var registry: ClassRegistry
  /// Archived name → current name, for the legacy decode.
  public var classMap: ClassNameMap
  /// The classes the app's secure read declares.
  public var allowedClasses: [String]
  /// The bounds on reading.
  public var limits: ArchiveLimits

  /// Creates the transform.
  ///
  /// - Parameters:
  ///   - registry: The app's current classes.
  ///   - classMap: Archived name → current name, for the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  ///   - limits: The bounds on reading.
  public init(
    registry: ClassRegistry, classMap: ClassNameMap, allowedClasses: [String],
    limits: ArchiveLimits = .default
  ) {
    self.registry = registry
    self.classMap = classMap
    self.allowedClasses = allowedClasses
    self.limits = limits
  }

  /// The transform's name in reports: `typed`.
  public var name: String { "typed" }

  /// Leaves a record the app already reads, or rewrites it after a verified round trip.
  ///
  /// - Parameter input: The record's bytes and its parsed archive.
  /// - Returns: ``TransformResult/unchanged``, the new bytes, or a refusal naming the step.
  public func transform(_ input: TransformInput) -> TransformResult {
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
