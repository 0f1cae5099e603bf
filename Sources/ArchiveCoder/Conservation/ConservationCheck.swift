import ArchiveFormat
import Foundation

/// Compares what a historical archive holds with what the current code writes back for it.
///
/// The archive is the oracle. Both archives are read as graphs, with no app code: every value
/// the original holds must reach the rewritten archive at the same key path (class names taken
/// through the class map, fields through ``DeclaredChange``s), or it is a
/// `ConservationFinding`. Fields the new code adds are not findings.
///
/// - Numbers compare as `NSNumber` does: `true` equals `1`, and `1` equals `1.0`; a kept value
///   whose stored type changed is a `ConservationFinding.Kind.typeChanged` warning.
/// - Strings compare by content, data by bytes, dates by time.
/// - Arrays and ordered sets compare in order; sets and dictionaries without order.
/// - An object reached twice (shared, or a cycle) is compared once.
///
/// Only the app's own classes (registered model classes) are compared field by field. The
/// fields of Foundation and platform classes outside Foundation's value forms (`NSValue`,
/// `NSAttributedString`, a `UIColor` stand-in, `NSCountedSet`…) are written by each archiver
/// in its own way, so such an object conserves when the new archive holds a value in its place.
/// URLs compare as Foundation resolves them against their base.
///
/// The walk is `ArchiveComparison`'s, with the oracle's rules: its `ArchiveDifference`s
/// become findings (a removal is a loss; an addition is none).
///
/// ```swift
/// let check = ConservationCheck(registry: registry, classMap: map)
/// let findings = try check.findings(try KeyedArchive(bytes: old), try KeyedArchive(bytes: new))
/// ```
package struct ConservationCheck: Sendable {
  /// The graph is larger than one comparison may walk.
  package struct TooLarge: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many values the comparison may visit.
    package var limit: Int
    /// The limit, in a sentence.
    package var description: String {
      "the archives hold more than \(limit) values to compare; too large to check for losses"
    }
  }

  /// The app's current classes, which tell app objects from Foundation's.
  package var registry: ClassRegistry
  /// The map from archived class names to current ones.
  package var classMap: ClassNameMap
  /// What the current code changes on purpose, beside the class map's own field changes.
  package var declaredChanges: [DeclaredChange]
  /// How many values one comparison may visit.
  package var maximumVisits: Int
  /// How deep one comparison may descend.
  package var maximumDepth: Int

  /// Creates a check.
  package init(
    registry: ClassRegistry, classMap: ClassNameMap = .empty,
    declaredChanges: [DeclaredChange] = [], maximumVisits: Int = 2_000_000,
    maximumDepth: Int = 256
  ) {
    self.registry = registry
    self.classMap = classMap
    self.declaredChanges = declaredChanges
    self.maximumVisits = maximumVisits
    self.maximumDepth = maximumDepth
  }

  /// The values of `original` that do not reach `rewritten`, under the given `$top` keys.
  ///
  /// - Parameters:
  ///   - original: The historical archive.
  ///   - rewritten: The archive the current code wrote for the object it decoded.
  ///   - topKeys: The `$top` keys the app reads; `root` unless given.
  /// - Returns: The findings, in the order found; empty when everything is kept.
  /// - Throws: `TooLarge` when the graphs hold more than ``maximumVisits`` values.
  package func findings(
    _ original: KeyedArchive, _ rewritten: KeyedArchive, topKeys: [String] = ["root"]
  ) throws(TooLarge) -> [ConservationFinding] {
    var walk = GraphComparisonWalk(rules: rules, old: original, new: rewritten)
    do {
      for key in topKeys {
        guard let value = original.top[key] else { continue }
        try walk.compare(
          value, rewritten.top[key], at: ArchiveKeyPath(topKey: key, components: []))
      }
    } catch {
      throw TooLarge(limit: maximumVisits)
    }
    return walk.differences.compactMap(Self.finding)
  }

  /// The values one `$top` key of `original` holds that do not reach another key of
  /// `rewritten`: an object an app read from `$top.NAME` is written back under `root`.
  ///
  /// - Throws: `TooLarge` when the graphs hold more than ``maximumVisits`` values.
  package func findings(
    _ original: KeyedArchive, at originalKey: String, _ rewritten: KeyedArchive,
    at rewrittenKey: String
  ) throws(TooLarge) -> [ConservationFinding] {
    guard let value = original.top[originalKey] else { return [] }
    var walk = GraphComparisonWalk(rules: rules, old: original, new: rewritten)
    do {
      try walk.compare(
        value, rewritten.top[rewrittenKey],
        at: ArchiveKeyPath(topKey: originalKey, components: []))
    } catch {
      throw TooLarge(limit: maximumVisits)
    }
    return walk.differences.compactMap(Self.finding)
  }

  /// The walk's rules for this check: the archive is the reference, only model classes are
  /// compared field by field, and declared changes are accepted.
  private var rules: GraphComparisonRules {
    GraphComparisonRules(
      mode: .conservation, currentName: currentName(of:), comparesFields: isModelClass,
      declaredChange: declaredChange(className:key:), maximumVisits: maximumVisits,
      maximumDepth: maximumDepth)
  }

  /// The finding a difference is for the conservation check.
  ///
  /// A removal is a loss, and so is a collection that came back shorter; a value kept with
  /// another stored type (equal as `NSNumber` compares) is a type change, and any other
  /// difference a change. The walk reports no additions in conservation mode.
  static func finding(_ difference: ArchiveDifference) -> ConservationFinding? {
    let path = difference.keyPath.displayText
    switch difference {
    case .added:
      return nil
    case .removed(let keyPath, let value):
      // An element of a set is matched by value: no element of the new set equals it.
      let current = keyPath.components.last == .wildcard ? "no equal element" : "nothing"
      return ConservationFinding(
        .lost, keyPath: path, archived: value.description, current: current)
    case .changed(_, let old, let new):
      let shorter = (old.count ?? 0) > (new.count ?? Int.max)
      return ConservationFinding(
        shorter ? .lost : .changed, keyPath: path, archived: old.description,
        current: new.description)
    case .typeChanged(_, let old, let new):
      var kind = ConservationFinding.Kind.changed
      if case .leaf(let a) = old, case .leaf(let b) = new, let x = ComparedNumber(a),
        let y = ComparedNumber(b), x.equals(y)
      {
        kind = .typeChanged
      }
      return ConservationFinding(
        kind, keyPath: path, archived: old.description, current: new.description)
    }
  }

  /// The name a class of the historical archive has now: its registered match through the
  /// class map, or its own name when no registered class matches.
  func currentName(of archiveClass: ArchiveClass) -> String {
    classMap.resolve(
      className: archiveClass.name, superclassNames: Array(archiveClass.chain.dropFirst()),
      in: registry)?.registeredName ?? archiveClass.name
  }

  /// Whether a current class name is one of the app's own model classes.
  func isModelClass(_ name: String) -> Bool {
    guard let registered = registry.registeredClass(named: name) else { return false }
    return registered.foundationKind == nil && !registered.isStandIn
  }

  /// The declared change of a class's field, if any: from ``declaredChanges``, then the class
  /// map's ``ClassNameMap/fieldChanges``.
  func declaredChange(className: String, key: String) -> DeclaredChange.Change? {
    for declared in declaredChanges where declared.className == className && declared.key == key {
      return declared.change
    }
    for declared in classMap.fieldChanges
    where declared.className == className && declared.key == key {
      return declared.change
    }
    return nil
  }
}
