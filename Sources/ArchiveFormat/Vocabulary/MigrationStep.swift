/// The steps a record goes through on its way to being rewritten; a refusal names the one that failed.
///
/// The typed round trip (read, decode, re-encode, re-read, compare) and the
/// store migration (which adds the write) name their steps with this one enum.
///
/// ```swift
/// let step = MigrationStep.reRead
/// print("[\(step)]")  // [re-read]
/// ```
public enum MigrationStep: String, Sendable, Hashable, Codable, CaseIterable,
  CustomStringConvertible
{
  /// Reading the bytes as a keyed archive.
  case read
  /// Decoding the archive through the legacy path with the class-name mapping.
  case decode
  /// Encoding the new archive (typed: re-encoding with secure coding; rename-only: rewriting
  /// the class names).
  case encode
  /// Reading the new bytes back (typed mode: through the secure path with `allowedClasses`).
  case reRead = "re-read"
  /// Comparing the re-read object graph with the original.
  case compare
  /// Comparing what the historical archive holds with the new archive, value by value at key
  /// paths: nothing the old bytes hold may be lost or changed unless the manifest declares it.
  case conserve
  /// Replacing the record in the store.
  case write

  /// The step's name, such as `re-read`.
  public var description: String { rawValue }
}
