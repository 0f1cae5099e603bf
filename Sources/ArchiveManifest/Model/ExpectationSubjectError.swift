import ArchiveFormat

/// Why a key path could not be followed, such as a wildcard fan-out past its limit.
public struct ExpectationSubjectError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, in lowercase words.
  public var message: String

  /// Creates an error.
  public init(message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
