import ArchiveCoder
import ArchiveFormat
import ArchiveManifest

/// The objects one decode path read under an entry's `$top` keys, as a subject field
/// expectations can be checked against: each key path is followed from the object under its
/// own top key.
///
/// ```swift
/// let subject = DecodedTopLevelSubject(decoded, keys: ["$0", "$1"])
/// let findings = ExpectationEngine(manifest: manifest).evaluate(entry, in: subject)
/// ```
package struct DecodedTopLevelSubject: ExpectationSubject, Sendable {
  /// The tree under each top key.
  package let trees: [String: ExpectationTree]

  /// Creates a subject from what a decode path returned.
  ///
  /// - Parameters:
  ///   - value: One key's object, or a `DecodedValue.topLevel(_:)` value for several keys.
  ///   - keys: The keys that were read, in order.
  package init(_ value: DecodedValue, keys: [String]) {
    // The whole value becomes one tree, so that a shared object described under one key
    // resolves under another.
    let tree = value.expectationTree
    if keys.count > 1, value.topLevelFields != nil, case .object(_, let entries) = tree {
      var trees: [String: ExpectationTree] = [:]
      for entry in entries where trees[entry.key] == nil { trees[entry.key] = entry.value }
      self.trees = trees
    } else {
      self.trees = [keys.first ?? "root": tree]
    }
  }

  /// The values at `keyPath`, read from the tree of the top key the path starts with.
  ///
  /// - Parameters:
  ///   - keyPath: A key path such as `root.address.city` or `$1.title`.
  ///   - limits: The bounds on how many values a wildcard may reach.
  /// - Returns: The values found; none when the path's top key was not decoded.
  /// - Throws: `ExpectationSubjectError` when a limit is exceeded.
  package func expectationValues(at keyPath: ArchiveKeyPath, limits: ArchiveLimits)
    throws(ExpectationSubjectError) -> [ExpectationValue]
  {
    guard let tree = trees[keyPath.topKey] else { return [] }
    return try tree.expectationValues(at: keyPath, limits: limits)
  }
}
