/// A mapping from archived class names to current ones (`ProfilesApp.UserProfile` → `ProfileKit.UserProfile`).
///
/// Applied once, not transitively: `A → B` and `B → C` turn `A` into `B`.
package struct ClassNameMapping: Hashable, Sendable {
  /// Archived name → new name.
  package private(set) var names: [String: String]

  /// Creates a mapping.
  package init(_ names: [String: String] = [:]) {
    self.names = names
  }

  /// Parses `OLD=NEW` pairs, as `--class-map` gives them.
  ///
  /// - Throws: `MigrationError` with code `MigrationError.Code.invalidOptions`
  ///   for a pair without `=`, an empty side, or an old name mapped twice.
  package init(pairs: [String]) throws(MigrationError) {
    var names: [String: String] = [:]
    for pair in pairs {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw MigrationError(.invalidOptions, file: "--class-map", "'\(pair)' is not OLD=NEW")
      }
      let old = String(parts[0])
      let new = String(parts[1])
      if let existing = names[old], existing != new {
        throw MigrationError(
          .invalidOptions, file: "--class-map",
          "'\(old)' is mapped to both '\(existing)' and '\(new)'")
      }
      names[old] = new
    }
    self.names = names
  }

  /// The new name for an archived name, or the name itself when unmapped.
  package func map(_ name: String) -> String {
    names[name] ?? name
  }

  /// Whether the mapping is empty.
  package var isEmpty: Bool { names.isEmpty }

  /// This mapping with `other`'s entries added, `other` winning where both map a name.
  package func merging(_ other: ClassNameMapping) -> ClassNameMapping {
    ClassNameMapping(names.merging(other.names) { _, new in new })
  }
}
