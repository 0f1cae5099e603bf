/// Where two object graphs first differ, as a key path from `$top` and a message.
package struct GraphDifference: Hashable, Sendable, CustomStringConvertible {
  /// The key path in the original archive, such as `root.address.city`.
  package var keyPath: String
  /// What differs, lowercase.
  package var message: String

  /// The key path and what differs there.
  package var description: String { "\(keyPath): \(message)" }
}
