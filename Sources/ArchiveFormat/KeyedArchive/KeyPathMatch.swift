/// One node a key path reached, with the concrete path that reached it (wildcards resolved).
package struct KeyPathMatch: Hashable, Sendable {
  /// The concrete path, such as `items[3].id`.
  package var path: ArchiveKeyPath
  /// The node reached.
  package var node: ArchiveNode
}
