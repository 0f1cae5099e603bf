/// Why a decode path refused an archive; the categories reports and manifests name.
public enum RejectionCategory: String, Sendable, Hashable, Codable, CaseIterable {
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
  /// The archive exceeds a limit, such as nesting depth.
  case limitExceeded = "limit-exceeded"
  /// The bytes are not a well-formed keyed archive.
  case malformed
}
