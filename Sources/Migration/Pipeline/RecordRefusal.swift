/// Why a record was not rewritten: the step that failed, and what went wrong there.
public struct RecordRefusal: Error, Hashable, Sendable, CustomStringConvertible {
  /// The step that failed.
  public var step: MigrationStep
  /// What went wrong, lowercase, without a period.
  public var reason: String
  /// Whether the app's own secure read of the record fails today (so its screen would come up empty).
  public var currentReadFails: Bool

  /// Creates a refusal.
  public init(_ step: MigrationStep, _ reason: String, currentReadFails: Bool = true) {
    self.step = step
    self.reason = reason
    self.currentReadFails = currentReadFails
  }

  public var description: String { "[\(step.rawValue)] \(reason)" }

  /// What the app's read does with this record today, in the two store styles teams use.
  public var currentReadConsequence: String {
    currentReadFails
      ? "a SecureStoreCache-style read returns nil and logs; a SecureKeyValueStore-style read throws typeConversionFailed"
      : "the app's current read still succeeds"
  }
}
