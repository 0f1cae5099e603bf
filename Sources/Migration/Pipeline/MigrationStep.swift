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
