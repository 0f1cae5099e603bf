/// One archive file of a manifest, with its checksum, expected outcomes and field expectations.
public struct ArchiveEntry: Sendable {
  /// The path relative to the archives folder, as written.
  public var path: String
  /// The expected SHA-256 of the file, in lowercase hexadecimal.
  public var sha256: String
  /// The largest size, in bytes, the file may have before decoding is refused.
  public var maxSize: Int?
  /// The `$top` key whose object the key paths start from (`root` unless stated).
  public var topKey: String
  /// The allowed classes for this archive, overriding the manifest's.
  public var allowedClasses: [Manifest.ClassReference]?
  /// The root class for this archive, overriding the manifest's.
  public var rootClass: Manifest.ClassReference?
  /// The expected outcome of each decode path that the entry names.
  public var outcomes: [OutcomeExpectation]
  /// The field expectations, in document order.
  public var expectations: [FieldExpectation]
  /// The values the privacy scan reports that a person has reviewed, in document order.
  public var reviewed: [ReviewedValue]
  /// Where the entry's start tag begins.
  public var location: ManifestLocation
  /// Where the `path` attribute was written.
  public var pathLocation: ManifestLocation
  /// Where the `sha256` attribute was written.
  public var sha256Location: ManifestLocation

  /// Creates an entry.
  public init(
    path: String, sha256: String, maxSize: Int? = nil, topKey: String = "root",
    allowedClasses: [Manifest.ClassReference]? = nil, rootClass: Manifest.ClassReference? = nil,
    outcomes: [OutcomeExpectation] = [], expectations: [FieldExpectation] = [],
    reviewed: [ReviewedValue] = [], location: ManifestLocation,
    pathLocation: ManifestLocation? = nil,
    sha256Location: ManifestLocation? = nil
  ) {
    self.path = path
    self.sha256 = sha256
    self.maxSize = maxSize
    self.topKey = topKey
    self.allowedClasses = allowedClasses
    self.rootClass = rootClass
    self.outcomes = outcomes
    self.expectations = expectations
    self.reviewed = reviewed
    self.location = location
    self.pathLocation = pathLocation ?? location
    self.sha256Location = sha256Location ?? location
  }

  /// Returns the expected outcome for a decode path, if the entry names one.
  public func outcome(for path: OutcomePath) -> OutcomeExpectation? {
    outcomes.first { $0.path == path }
  }
}

/// A decode path that a manifest can set an expected outcome for.
public enum OutcomePath: String, Sendable, Hashable, CaseIterable {
  /// The harness coder with `requiresSecureCoding = false`.
  case legacy
  /// The harness coder with `requiresSecureCoding = true`.
  case secure
  /// Foundation's own `NSKeyedUnarchiver`, the reference path.
  case foundation
}

/// The reason categories of a rejected decode, as the decode-paths issue names them.
public enum OutcomeCategory: String, Sendable, Hashable, CaseIterable {
  /// The root object is not of the expected class.
  case wrongRootClass = "wrong-root-class"
  /// A class is not in the allowed classes of its decode call.
  case classNotAllowed = "class-not-allowed"
  /// A class does not adopt `NSSecureCoding`, or a plain decode ran under secure coding.
  case notSecureCoding = "not-secure-coding"
  /// An archived class name maps to no registered class.
  case unmappedClass = "unmapped-class"
  /// A value has another type than the decoder asked for.
  case typeMismatch = "type-mismatch"
  /// A required field is missing.
  case missingField = "missing-field"
  /// A class's `init?(coder:)` returned nil.
  case initReturnedNil = "init-returned-nil"
  /// A class's `init?(coder:)` reported an error with `failWithError(_:)`.
  case initFailed = "init-failed"
  /// The object graph has a cycle the decode cannot follow.
  case cycle
  /// A configured limit was passed.
  case limitExceeded = "limit-exceeded"
  /// The archive is malformed.
  case malformed
  /// The archive is cut short.
  case truncated
  /// The archive's or a class's version is unknown.
  case unknownSchemaVersion = "unknown-schema-version"
  /// The decode crashed the worker.
  case crashed
}

/// The expected outcome of one decode path of an archive entry.
public struct OutcomeExpectation: Sendable, Hashable {
  /// What the path must do.
  public enum Outcome: Sendable, Hashable {
    /// The archive decodes.
    case decodes
    /// The archive is rejected, for this reason.
    case rejected(OutcomeCategory)
  }

  /// The decode path.
  public var path: OutcomePath
  /// What it must do.
  public var outcome: Outcome
  /// Where the expectation was written.
  public var location: ManifestLocation

  /// Creates an outcome expectation.
  public init(path: OutcomePath, outcome: Outcome, location: ManifestLocation) {
    self.path = path
    self.outcome = outcome
    self.location = location
  }
}
