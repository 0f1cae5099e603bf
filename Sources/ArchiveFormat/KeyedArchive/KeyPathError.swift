/// A key path that does not parse, with the character offset of the problem.
public struct KeyPathError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The path as given.
  public let path: String
  /// The offset, in Unicode scalars, where the problem is.
  public let offset: Int
  /// A lowercase description.
  public let message: String

  /// The key path and what is wrong with it.
  public var description: String {
    "key path '\(path)': at character \(offset + 1): \(message)"
  }
}
