/// A positional argument as a `CommandSpec` lists it, whatever its value's type.
protocol CommandArgument: Sendable {
  /// What parsing and help read.
  var declaration: ArgumentDeclaration { get }
}
