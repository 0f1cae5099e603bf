/// The untyped part of a positional argument's declaration, which the parser and help read.
struct ArgumentDeclaration: Sendable {
  /// The name shown in usage, such as `file`.
  var name: String
  /// One line of help.
  var help: String
  /// Whether it takes every remaining value.
  var isRepeating = false
  /// Whether it may be left out.
  var isOptional = false

  /// `<name>`, `<name> ...` or `[<name> ...]`, as usage shows the argument.
  var usage: String {
    let item = isRepeating ? "<\(name)> ..." : "<\(name)>"
    return isOptional ? "[\(item)]" : item
  }
}
