/// How an archived class name was matched to a registered class.
package struct ClassResolution: Sendable, Hashable, CustomStringConvertible {
  /// The rule that produced the match.
  package enum Rule: String, Sendable, Hashable {
    /// The archived name is the registered name.
    case identity
    /// An explicit `OLD=NEW` entry of the map.
    case explicitEntry = "explicit-entry"
    /// A module rename, such as `ProfilesApp` → `ProfileKit`.
    case moduleRename = "module-rename"
    /// A Swift mangled name, read and then matched.
    case mangledName = "mangled-name"
  }

  /// The name the archive gives the object's class (the first entry of its `$classes`).
  package let archivedName: String
  /// The name that matched: `archivedName` itself, or a superclass name from the archive's chain.
  package let matchedName: String
  /// The registered class's runtime name.
  package let registeredName: String
  /// The rule that matched `matchedName`.
  package let rule: Rule

  /// Whether the match came from a superclass name in the archive's chain.
  package var isFromSuperclassChain: Bool { archivedName != matchedName }

  /// Creates a resolution.
  package init(archivedName: String, matchedName: String, registeredName: String, rule: Rule) {
    self.archivedName = archivedName
    self.matchedName = matchedName
    self.registeredName = registeredName
    self.rule = rule
  }

  /// A phrase such as `'ProfilesApp.Address' (mapped to 'ProfileKit.Address')`.
  package var description: String {
    if archivedName == registeredName { return "'\(archivedName)'" }
    if isFromSuperclassChain {
      return "'\(archivedName)' (through its archived superclass '\(matchedName)', "
        + "mapped to '\(registeredName)')"
    }
    return "'\(archivedName)' (mapped to '\(registeredName)')"
  }
}
