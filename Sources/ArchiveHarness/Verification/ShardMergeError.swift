/// Why shard reports cannot be merged: other manifests, a missing or repeated shard, or not a shard report.
public struct ShardMergeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, naming the report file.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: What is wrong.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
