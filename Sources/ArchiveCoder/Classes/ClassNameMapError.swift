import Foundation

/// An error in the text form of a class-name map, naming the entry and its position.
package struct ClassNameMapError: Error, Sendable, Hashable, CustomStringConvertible,
  LocalizedError
{
  /// The entry as written.
  package let entry: String
  /// The entry's 1-based position in the comma-separated list.
  package let position: Int
  /// What is wrong with it.
  package let reason: String

  /// Creates an error for one entry.
  package init(entry: String, position: Int, reason: String) {
    self.entry = entry
    self.position = position
    self.reason = reason
  }

  /// A message such as `class map entry 2 'Foo': expected OLD=NEW`.
  package var description: String { "class map entry \(position) '\(entry)': \(reason)" }

  /// The description, so that `localizedDescription` reads well on Linux.
  package var errorDescription: String? { description }
}
