/// An option as a `CommandSpec` lists it, whatever its value's type.
protocol CommandOption: Sendable {
  /// What parsing and help read.
  var declaration: OptionDeclaration { get }
}
