/// Bounds on reading and walking a keyed archive.
///
/// ```swift
/// var limits = ArchiveLimits()
/// limits.propertyList.maximumInputSize = 1 << 20
/// let archive = try KeyedArchive(bytes: bytes, limits: limits)
/// ```
public struct ArchiveLimits: Hashable, Sendable {
  /// The bounds on the property list underneath.
  package var propertyList = PropertyListLimits()
  /// The deepest chain of object references that a printer follows before it elides the rest (default 256).
  public var maximumWalkDepth: Int = 256
  /// The most matches one key path may produce (`[*]` fans out) (default 100,000).
  public var maximumKeyPathMatches: Int = 100_000

  /// Creates the default limits.
  public init() {}

  /// The default limits.
  public static let `default` = ArchiveLimits()
}
