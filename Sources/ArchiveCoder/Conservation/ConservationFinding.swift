import ArchiveFormat

/// A value a historical archive holds that does not reach what the current code writes back.
///
/// The archive is the reference: what the old bytes hold is compared, at key paths, with the
/// archive the current classes write for the object they decoded. A value that is missing or
/// different is lost; a value kept with another stored type (`true` stored as the integer `1`)
/// is a type change, a warning until the manifest declares it.
///
/// ```swift
/// for finding in ConservationCheck(registry: registry).findings(original, rewritten) {
///   print(finding)  // pinned: the archive holds true (bool); the current code writes 0 (integer)
/// }
/// ```
package struct ConservationFinding: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What happened to the archived value.
  package enum Kind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The current code writes nothing where the archive holds a value.
    case lost
    /// The current code writes another value.
    case changed
    /// The current code writes the same value with another stored type.
    case typeChanged = "type-changed"

    /// How serious the finding is: a loss or a change is an error, a type change a warning.
    package var severity: Severity { self == .typeChanged ? .warning : .error }

    /// The kind's name, such as `type-changed`.
    package var description: String { rawValue }
  }

  /// What happened to the value.
  package var kind: Kind
  /// Where the value is, as manifests write key paths: `pinned`, `tags[*]`, or `root` itself.
  package var keyPath: String
  /// The value the archive holds, described: `true (bool)`.
  package var archived: String
  /// What the current code writes there, described: `0 (integer)`, or `nothing`.
  package var current: String

  /// Creates a finding.
  package init(_ kind: Kind, keyPath: String, archived: String, current: String) {
    self.kind = kind
    self.keyPath = keyPath
    self.archived = archived
    self.current = current
  }

  /// The finding as reports word it.
  package var description: String {
    "\(keyPath): the archive holds \(archived); the current code writes \(current)"
      + (kind == .typeChanged ? " (the same value, another type)" : "")
  }
}
