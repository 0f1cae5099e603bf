/// A way of decoding an archive: the harness's own coder or Foundation's, legacy or secure.
public enum DecodePath: String, Sendable, Hashable, Codable, CaseIterable {
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

  /// The word messages start with: `legacy` or `secure`.
  public var mode: String { isSecure ? "secure" : "legacy" }
}
