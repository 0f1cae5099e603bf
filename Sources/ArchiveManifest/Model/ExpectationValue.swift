import ArchiveFormat

/// One value a key path reached, with the concrete path that reached it (wildcards resolved).
package struct ExpectationValue: Sendable, Hashable {
  /// The concrete path, such as `items[3].id`.
  package var path: ArchiveKeyPath
  /// The value, as the engine compares it; objects and collections are `.object` leaves.
  package var leaf: ArchiveLeaf

  /// Creates a reached value.
  package init(path: ArchiveKeyPath, leaf: ArchiveLeaf) {
    self.path = path
    self.leaf = leaf
  }
}
