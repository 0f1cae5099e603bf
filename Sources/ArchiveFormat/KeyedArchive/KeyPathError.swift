/// A key path that does not parse, with the character offset of the problem.
package struct KeyPathError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The path as given.
  package let path: String
  /// The offset, in Unicode scalars, where the problem is.
  package let offset: Int
  /// A lowercase description.
  package let message: String

  /// The key path and what is wrong with it.
  package var description: String {
    "key path '\(path)': at character \(offset + 1): \(message)"
  }
}
