import Foundation

/// An error in the text form of a class-name map, naming the entry and its position.
public struct ClassNameMapError: Error, Sendable, Hashable, CustomStringConvertible,
  LocalizedError
{
  /// The entry as written.
  public let entry: String
  /// The entry's 1-based position in the comma-separated list.
  public let position: Int
  /// What is wrong with it.
  public let reason: String

  /// Creates an error for one entry.
  public init(entry: String, position: Int, reason: String) {
    self.entry = entry
    self.position = position
    self.reason = reason
  }

  /// A message such as `class map entry 2 'Foo': expected OLD=NEW`.
  public var description: String { "class map entry \(position) '\(entry)': \(reason)" }

  /// The description, so that `localizedDescription` reads well on Linux.
  public var errorDescription: String? { description }
}
