/// A way of decoding an archive: the harness's own coder or Foundation's, legacy or secure.
///
/// The raw values are the names reports, JSON and the command line use.
///
/// ```swift
/// DecodePath(rawValue: "foundation-secure")  // .foundationSecure
/// DecodePath.foundationSecure.harnessPath    // .secure
/// ```
public enum DecodePath: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// The harness coder with `requiresSecureCoding = false`.
  case legacy
  /// The harness coder with `requiresSecureCoding = true`.
  case secure
  /// Foundation's `NSKeyedUnarchiver` with `requiresSecureCoding = false`, in a worker process.
  case foundationLegacy = "foundation-legacy"
  /// Foundation's `NSKeyedUnarchiver` with `requiresSecureCoding = true`, in a worker process.
  case foundationSecure = "foundation-secure"

  /// Whether the path requires secure coding.
  public var isSecure: Bool { self == .secure || self == .foundationSecure }

  /// Whether the path runs Foundation's unarchiver rather than the harness coder.
  public var isFoundation: Bool { self == .foundationLegacy || self == .foundationSecure }

  /// The harness path with the same secure-coding setting: ``legacy`` or ``secure``.
  ///
  /// Messages start with it, such as `secure: root: …`.
  public var harnessPath: DecodePath { isSecure ? .secure : .legacy }

  /// The path's name, such as `foundation-secure`.
  public var description: String { rawValue }
}
