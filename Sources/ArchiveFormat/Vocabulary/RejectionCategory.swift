/// Why a decode path refused an archive: the categories decoders report and manifests expect.
///
/// The raw values are the `RejectionCategory` enumeration of the manifest
/// schema (`manifests/schema/archive-manifest.xsd`); a test keeps the two equal.
///
/// ```swift
/// RejectionCategory(rawValue: "class-not-allowed")  // .classNotAllowed
/// ```
public enum RejectionCategory: String, Sendable, Hashable, Codable, CaseIterable,
  CustomStringConvertible
{
  /// The root object's class is not among the classes the read allows.
  case wrongRootClass = "wrong-root-class"
  /// A nested object's class is not among the classes its decode call allows.
  case classNotAllowed = "class-not-allowed"
  /// A class decoded under secure coding does not adopt `NSSecureCoding`, or a plain
  /// `decodeObject(forKey:)` was used under secure coding.
  case notSecureCoding = "not-secure-coding"
  /// The archive names a class that no mapping entry or registered class matches.
  case unmappedClass = "unmapped-class"
  /// A value has another type than the one asked for.
  case typeMismatch = "type-mismatch"
  /// A key that a decode asked for is absent.
  case missingField = "missing-field"
  /// A class's `init?(coder:)` returned `nil`.
  case initReturnedNil = "init-returned-nil"
  /// A class's `init?(coder:)` reported an error with `failWithError(_:)`.
  case initFailed = "init-failed"
  /// The object graph refers back to an object that is still being decoded.
  case cycle
  /// The archive exceeds a limit, such as nesting depth or size.
  case limitExceeded = "limit-exceeded"
  /// The bytes are not a well-formed keyed archive.
  case malformed
  /// The bytes end before the property list does.
  case truncated
  /// The archive's or a class's version is one the reader does not know.
  case unknownSchemaVersion = "unknown-schema-version"
  /// The process decoding the archive died; only manifests name this, as what a path must do.
  case crashed
  /// The path decoded, but what the current code writes back for the object loses or changes
  /// a value the archive holds (conservation: the archive is the reference).
  case notConserved = "not-conserved"

  /// The category's name, such as `class-not-allowed`.
  public var description: String { rawValue }
}
