/// Why the generator stopped.
struct GeneratorError: Error, CustomStringConvertible {
  /// What went wrong.
  var description: String

  init(_ description: String) { self.description = description }
}
