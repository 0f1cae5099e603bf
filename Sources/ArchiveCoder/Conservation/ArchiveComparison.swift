import ArchiveFormat

/// Compares two keyed archives as object graphs, at key paths, and names every difference.
///
/// Both archives are read as graphs, with no app code, from their `$top` entries. Objects pair
/// by where they are reached, never by their UIDs, so two archives of one graph compare equal
/// whatever order their objects were written in; shared references stay shared (a reference
/// that is shared on one side and not on the other is a difference) and a cycle is followed
/// once.
///
/// - The old archive's class names go through ``classMap`` (`OLD=NEW` entries and
///   `Module.*=Other.*` module renames), so a renamed class compares equal to its new name.
///   A Swift class's mangled name (`_TtC11ProfilesApp7Address`) compares equal to its readable
///   one (`ProfilesApp.Address`), which names the same class.
/// - Numbers compare as `NSNumber` does, by value; a number whose stored type changed (`true`
///   became `1`, `1` became `1.0`) is a type change, as is a string that became an integer or
///   an object of another class.
/// - Strings compare by content, data by bytes, dates by time, URLs as Foundation resolves
///   them against their base.
/// - Arrays and ordered sets compare element by element; sets and dictionaries without order,
///   elements and keys matched by value.
/// - A value only one side holds is an addition or a removal, and is not looked into further.
///
/// This is the walk `ConservationCheck` uses too, there with the historical archive as the
/// reference and only the app's model classes compared field by field.
///
/// ```swift
/// let comparison = ArchiveComparison(classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
/// let differences = try comparison.differences(
///   try KeyedArchive(bytes: old), try KeyedArchive(bytes: new))
/// for difference in differences { print(difference) }  // removed isActive: true (bool)
/// ```
package struct ArchiveComparison: Sendable {
  /// The graphs are larger or deeper than one comparison walks.
  package struct LimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which limit the graphs passed.
    package enum Limit: Sendable, Hashable {
      /// More values than `ArchiveComparison.maximumVisits`.
      case values(Int)
      /// Deeper than `ArchiveComparison.maximumDepth`.
      case depth(Int)
    }

    /// The limit passed.
    package var limit: Limit

    /// The limit, in a sentence.
    package var description: String {
      switch limit {
      case .values(let count):
        return "the archives hold more than \(count) values to compare; too large to compare"
      case .depth(let depth):
        return "the archives nest deeper than \(depth) levels; too deep to compare"
      }
    }
  }

  /// The map from the old archive's class names to the new archive's.
  package var classMap: ClassNameMap
  /// How many values one comparison may visit.
  package var maximumVisits: Int
  /// How deep one comparison may descend.
  package var maximumDepth: Int

  /// Creates a comparison.
  ///
  /// - Parameters:
  ///   - classMap: The old class names' new names; none by default.
  ///   - maximumVisits: How many values one comparison may visit.
  ///   - maximumDepth: How deep one comparison may descend.
  package init(
    classMap: ClassNameMap = .empty, maximumVisits: Int = 2_000_000, maximumDepth: Int = 256
  ) {
    self.classMap = classMap
    self.maximumVisits = maximumVisits
    self.maximumDepth = maximumDepth
  }

  /// Every difference between two archives' graphs, in the order the walk meets them.
  ///
  /// - Parameters:
  ///   - old: The archive compared from (a backup, an earlier version).
  ///   - new: The archive compared to.
  /// - Returns: The differences; empty when the graphs are equal under the class map.
  /// - Throws: `LimitExceeded` when the graphs are larger than ``maximumVisits`` values or
  ///   deeper than ``maximumDepth`` levels.
  package func differences(_ old: KeyedArchive, _ new: KeyedArchive) throws(LimitExceeded)
    -> [ArchiveDifference]
  {
    let map = classMap
    // A Swift class's mangled name (_TtC11ProfilesApp7Address) names the class its readable
    // name does: both sides compare by the readable one.
    let readable = { (name: String) in SwiftMangledClassName.demangle(name) ?? name }
    let rules = GraphComparisonRules(
      mode: .difference, currentName: { readable(map.mappedName(for: $0.name) ?? $0.name) },
      newName: { readable($0.name) }, mappedName: { map.mappedName(for: $0.name) },
      comparesFields: { _ in true },
      declaredChange: { _, _ in nil }, maximumVisits: maximumVisits, maximumDepth: maximumDepth)
    var walk = GraphComparisonWalk(rules: rules, old: old, new: new)
    do throws(GraphComparisonLimit) {
      try walk.compareTops()
    } catch {
      switch error {
      case .visits(let count): throw LimitExceeded(limit: .values(count))
      case .depth(let depth): throw LimitExceeded(limit: .depth(depth))
      }
    }
    return walk.differences
  }
}
