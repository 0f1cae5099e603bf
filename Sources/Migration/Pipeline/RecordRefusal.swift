/// The steps a record goes through on its way to being rewritten; a refusal names the one that failed.
public enum MigrationStep: String, Sendable, Hashable, CaseIterable {
  /// Reading the bytes as a keyed archive.
  case read
  /// Decoding the archive through the legacy path with the class-name mapping.
  case decode
  /// Encoding the new archive (rename-only: rewriting the class names).
  case encode
  /// Reading the new bytes back (typed mode: through the secure path with `allowedClasses`).
  case reRead = "re-read"
  /// Comparing the re-read object graph with the original.
  case compare
  /// Replacing the record in the store.
  case write
}

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
