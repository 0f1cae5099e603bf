import ArchiveFormat

/// Why a key path could not be followed, such as a wildcard fan-out past its limit.
package struct ExpectationSubjectError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, in lowercase words.
  package var message: String

  /// Creates an error.
  package init(message: String) { self.message = message }

  /// The message.
  package var description: String { message }
}
