/// Why shard reports cannot be merged: other manifests, a missing or repeated shard, or not a shard report.
package struct ShardMergeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, naming the report file.
  package var message: String

  /// Creates an error.
  ///
  /// - Parameter message: What is wrong.
  package init(_ message: String) {
    self.message = message
  }

  /// The message.
  package var description: String { message }
}
