import ArchiveFormat

/// Why a record was refused: the step that failed, the cause and what went wrong there.
///
/// The one refusal of the package: a migration plan's refused records, ``RoundTrip/run(_:)``'s
/// failures and the typed migration's answers all carry it.
public struct RecordRefusal: Error, Hashable, Sendable, CustomStringConvertible {
  /// What made a step fail.
  ///
  /// ```swift
  /// if refusal.cause == .rejected(.classNotAllowed) { print("extend allowedClasses") }
  /// ```
  public enum Cause: Sendable, Hashable, CustomStringConvertible {
    /// A decode refused the bytes, or they broke a rule such as a limit, for this reason.
    case rejected(RejectionCategory)
    /// A decode returned `nil` without a rejection.
    case nilDecode
    /// The decode came back empty although the archive holds elements.
    case emptyDecode
    /// The re-read object differs from the first decode; at the `write` step, another
    /// writer changed the record after it was read, and its newer contents were kept.
    case changed
    /// None of these: a worker that did not answer, a record the store will not hand out,
    /// another writer's change; the reason says which.
    case other

    /// The cause as reports name it, such as `class-not-allowed`, `nil-decode`, or `other`.
    public var description: String {
      switch self {
      case .rejected(let category): category.description
      case .nilDecode: "nil-decode"
      case .emptyDecode: "empty-decode"
      case .changed: "changed"
      case .other: "other"
      }
    }

    /// The cause a report names, such as `empty-decode`; `nil` for an unknown name.
    ///
    /// ```swift
    /// RecordRefusal.Cause(named: "class-not-allowed")  // .rejected(.classNotAllowed)
    /// ```
    public init?(named name: String) {
      switch name {
      case "nil-decode": self = .nilDecode
      case "empty-decode": self = .emptyDecode
      case "changed": self = .changed
      case "other": self = .other
      default:
        guard let category = RejectionCategory(rawValue: name) else { return nil }
        self = .rejected(category)
      }
    }
  }

  /// The step that failed.
  public var step: MigrationStep
  /// What made it fail.
  public var cause: Cause
  /// What went wrong, lowercase, without a period.
  public var reason: String
  /// The rejection category of the failure, such as ``RejectionCategory/truncated``, when it
  /// has one; `nil` for a failure no decoder category names (an empty decode, a graph that
  /// changed, a worker that did not answer, a record the store refuses to hand out).
  ///
  /// A store manifest's `<accepted>` element names the category it accepts; a refusal
  /// whose category differs is not accepted.
  public var category: RejectionCategory? {
    if case .rejected(let category) = cause { category } else { nil }
  }
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
    self.init(
      step, cause: category.map(Cause.rejected) ?? .other, reason,
      currentReadFails: currentReadFails)
  }

  /// Creates a refusal with its cause.
  ///
  /// ```swift
  /// let refusal = RecordRefusal(.compare, cause: .changed, "the re-read object differs")
  /// print(refusal)  // [compare] [changed] the re-read object differs
  /// ```
  ///
  /// - Parameters:
  ///   - step: The step that failed.
  ///   - cause: What made it fail.
  ///   - reason: What went wrong there.
  ///   - currentReadFails: Whether the app's read fails today; by default it does, except
  ///     after a write-step refusal.
  public init(
    _ step: MigrationStep, cause: Cause, _ reason: String, currentReadFails: Bool? = nil
  ) {
    self.step = step
    self.cause = cause
    self.reason = reason
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

  /// The step, the cause when it is named, and the reason, such as
  /// `[re-read] [class-not-allowed] …` or `[decode] the transform gave no result`.
  public var description: String {
    cause == .other ? "[\(step)] \(reason)" : "[\(step)] [\(cause)] \(reason)"
  }

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
