/// Where two object graphs first differ, as a key path from `$top` and a message.
public struct GraphDifference: Hashable, Sendable, CustomStringConvertible {
  /// The key path in the original archive, such as `root.address.city`.
  public var keyPath: String
  /// What differs, lowercase.
  public var message: String

  /// The key path and what differs there.
  public var description: String { "\(keyPath): \(message)" }
}
