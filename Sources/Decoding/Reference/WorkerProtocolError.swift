import Foundation

/// A failure of the decode-worker machinery itself, not of an archive.
public struct WorkerProtocolError: Error, Sendable, Hashable, CustomStringConvertible,
  LocalizedError
{
  /// What went wrong, such as `cannot launch '/path/archive-harness': …`.
  public let message: String

  /// Creates an error with a message.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { "decode worker: \(message)" }

  /// The description, so that `localizedDescription` reads well on Linux.
  public var errorDescription: String? { description }
}
