import ArchiveFormat

/// A decoded object as a tree that field expectations can be checked against.
///
/// The decode paths describe what the app would see (a `DecodedValue` in the
/// Decoding module); converting that description into this tree lets the
/// same `ExpectationEngine` check the decoded object, not only the archive's
/// graph. The tree cannot loop: a back-reference is a leaf, such as
/// `.leaf(.object(className: "ProfileKit.UserProfile", index: 0, count: nil))`.
///
/// ```swift
/// let tree = ExpectationTree.object(
///   className: "ProfileKit.UserProfile",
///   fields: [("name", .leaf(.string("Avery"))), ("tags", .collection(className: "NSArray", elements: []))])
/// let findings = ExpectationEngine(manifest: manifest).evaluate(entry, in: tree)
/// ```
package indirect enum ExpectationTree: Sendable, Hashable, ExpectationSubject {
  /// A leaf value: a string, number, date, data, null, or an object shown only by its class.
  case leaf(ArchiveLeaf)
  /// An array, set or ordered set, by its class name, with its elements (`[n]`, `[*]`, `@count`).
  case collection(className: String, elements: [ExpectationTree])
  /// A dictionary, by its class name, with its entries looked up by key.
  case dictionary(className: String, entries: [Entry])
  /// An app object, by its class name, with the fields its `encode(with:)` writes.
  case object(className: String, fields: [Entry])

  /// A key and the tree under it.
  package struct Entry: Sendable, Hashable {
    /// The field name or dictionary key.
    package var key: String
    /// The value under it.
    package var value: ExpectationTree

    /// Creates an entry.
    package init(_ key: String, _ value: ExpectationTree) {
      self.key = key
      self.value = value
    }
  }

  /// The value as the engine compares it: collections and objects become `.object` leaves.
  package var leafValue: ArchiveLeaf {
    switch self {
    case .leaf(let leaf): return leaf
    case .collection(let className, let elements):
      return .object(className: className, index: 0, count: elements.count)
    case .dictionary(let className, let entries):
      return .object(className: className, index: 0, count: entries.count)
    case .object(let className, _):
      return .object(className: className, index: 0, count: nil)
    }
  }

  /// Returns the values a key path reaches; the path's `$top` key is ignored, the tree is the root.
  package func expectationValues(at keyPath: ArchiveKeyPath, limits: ArchiveLimits)
    throws(ExpectationSubjectError) -> [ExpectationValue]
  {
    var current: [(path: ArchiveKeyPath, tree: ExpectationTree)] = [
      (ArchiveKeyPath(topKey: keyPath.topKey, components: []), self)
    ]
    for component in keyPath.components {
      var next: [(path: ArchiveKeyPath, tree: ExpectationTree)] = []
      for (path, tree) in current {
        switch (component, tree) {
        case (.key(let key), .object(_, let entries)), (.key(let key), .dictionary(_, let entries)):
          if let entry = entries.first(where: { $0.key == key }) {
            next.append((path.appending(.key(key)), entry.value))
          }
        case (.index(let index), .collection(_, let elements)):
          if elements.indices.contains(index) {
            next.append((path.appending(.index(index)), elements[index]))
          }
        case (.wildcard, .collection(_, let elements)):
          for (index, element) in elements.enumerated() {
            next.append((path.appending(.index(index)), element))
            guard next.count <= limits.maximumKeyPathMatches else {
              throw ExpectationSubjectError(
                message:
                  "key path '\(keyPath)' matches more than \(limits.maximumKeyPathMatches) values")
            }
          }
        case (.count, _):
          let count: Int?
          switch tree.leafValue {
          case .object(_, _, let elements): count = elements
          case .string(let value): count = value.utf16.count
          case .data(let bytes): count = bytes.count
          default: count = nil
          }
          if let count { next.append((path.appending(.count), .leaf(.integer(Int64(count))))) }
        default:
          break
        }
      }
      current = next
      if current.isEmpty { break }
    }
    return current.map { ExpectationValue(path: $0.path, leaf: $0.tree.leafValue) }
  }
}
