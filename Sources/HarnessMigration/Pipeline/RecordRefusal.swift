import HarnessKeyedArchive
import HarnessVocabulary

/// Why a record was not rewritten: the step that failed, and what went wrong there.
public struct RecordRefusal: Error, Hashable, Sendable, CustomStringConvertible {
  /// The step that failed.
  public var step: MigrationStep
  /// What went wrong, lowercase, without a period.
  public var reason: String
  /// The rejection category of the failure, such as ``RejectionCategory/truncated``, when it
  /// has one; `nil` for a failure no decoder category names (an empty decode, a graph that
  /// changed, a worker that did not answer, a record the store refuses to hand out).
  ///
  /// A store manifest's `<accepted>` element names the category it accepts; a refusal
  /// whose category differs is not accepted.
  public var category: RejectionCategory?
  /// Whether the app's own secure read of the record fails today (so its screen would come up
  /// empty); `nil` when not known, as for a record another writer changed meanwhile.
  public var currentReadFails: Bool?

  /// Creates a refusal.
  ///
  /// - Parameters:
  ///   - step: The step that failed.
  ///   - reason: What went wrong there.
  ///   - currentReadFails: Whether the app's read fails today; by default it does, as for
  ///     any record the migration cannot read or verify. A write-step refusal defaults to unknown.
  ///   - category: The failure's rejection category, if it has one.
  ///
  /// ```swift
  /// let refusal = RecordRefusal(.read, "the archive does not read", category: .truncated)
  /// print(refusal)  // [read] the archive does not read
  /// ```
  public init(
    _ step: MigrationStep, _ reason: String, currentReadFails: Bool? = nil,
    category: RejectionCategory? = nil
  ) {
    self.step = step
    self.reason = reason
    self.category = category
    self.currentReadFails = currentReadFails ?? (step == .write ? nil : true)
  }

  /// The category of a structural read error: `truncated`, `unknown-schema-version`,
  /// `limit-exceeded` or `malformed`, as `verify`'s structure check names them.
  ///
  /// - Parameter error: The error reading the bytes as a keyed archive.
  /// - Returns: The rejection category.
  static func structuralCategory(_ error: KeyedArchiveError) -> RejectionCategory {
    RejectionCategory(structural: error)
  }

  /// The step and the reason, such as `[decode] the legacy decode returned nil`.
  public var description: String { "[\(step)] \(reason)" }

  /// What the app's read does with this record today, in the two store styles teams use.
  public var currentReadConsequence: String {
    switch currentReadFails {
    case true?:
      "a SecureStoreCache-style read returns nil and logs; a SecureKeyValueStore-style read throws typeConversionFailed"
    case false?:
      "the app's current read still succeeds"
    case nil:
      step == .write
        ? "not known: another writer changed the record after it was read"
        : "not known: the app's read of the record was not run to the end"
    }
  }
}
