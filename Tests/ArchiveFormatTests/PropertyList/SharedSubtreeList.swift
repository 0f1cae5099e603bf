import HarnessTestSupport

/// A binary list whose shared subtree is first read near the top and reached again further down.
///
/// Object 1 is a chain of height 2, first read at depth 1; object 2 reaches it
/// again at depth 4, so its leaf would sit at depth 6 in the tree: refused
/// under a depth limit of 4, read under one of 6.
enum SharedSubtreeList {
  static let objects: [[UInt8]] = [
    BinaryPlistBuilder.array([1, 2]),
    BinaryPlistBuilder.array([3]), BinaryPlistBuilder.array([5]),
    BinaryPlistBuilder.array([4]), BinaryPlistBuilder.ascii("leaf"),
    BinaryPlistBuilder.array([6]), BinaryPlistBuilder.array([1]),
  ]

  /// The list's bytes.
  static var bytes: [UInt8] { BinaryPlistBuilder(objects: objects).build() }
}
