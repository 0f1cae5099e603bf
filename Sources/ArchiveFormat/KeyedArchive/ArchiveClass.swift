/// A class description in `$objects`: `$classname` and the superclass chain `$classes` that the archive claims.
///
/// The chain is whatever the archive says. It is attacker-controlled and must
/// never decide what a secure decode allows.
package struct ArchiveClass: Hashable, Sendable {
  /// The archived class name (`$classname`), such as `NSMutableArray` or `ProfilesApp.UserProfile`.
  package var name: String
  /// The archived chain (`$classes`), the class itself first; empty when the archive gives none.
  package var chain: [String]
  /// Other keys of the description, such as `$classhints`, kept for writing back.
  package var extra: PropertyListDictionary

  /// Creates a class description.
  package init(
    name: String, chain: [String], extra: PropertyListDictionary = PropertyListDictionary()
  ) {
    self.name = name
    self.chain = chain
    self.extra = extra
  }
}
