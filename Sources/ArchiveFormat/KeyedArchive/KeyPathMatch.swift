/// One node a key path reached, with the concrete path that reached it (wildcards resolved).
public struct KeyPathMatch: Hashable, Sendable {
  /// The concrete path, such as `items[3].id`.
  public var path: ArchiveKeyPath
  /// The node reached.
  public var node: ArchiveNode
}
