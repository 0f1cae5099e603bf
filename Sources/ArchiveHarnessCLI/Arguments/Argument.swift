/// A positional argument, declared once; `arguments[argument]` is its value.
///
/// ```swift
/// static let file = Argument.single("file", help: "The archive to read.")
/// ...
/// let path = arguments[file]  // the parser has made sure it was given
/// ```
struct Argument<Value: Sendable>: CommandArgument {
  /// What parsing and help read.
  let declaration: ArgumentDeclaration
  /// The typed value from the values given; nil only for a required argument not given.
  private let resolve: @Sendable ([String]) -> Value?

  private init(
    _ declaration: ArgumentDeclaration, resolve: @escaping @Sendable ([String]) -> Value?
  ) {
    self.declaration = declaration
    self.resolve = resolve
  }

  /// The argument's value from the values given for it.
  func value(from given: [String]) -> Value? {
    resolve(given)
  }
}

extension Argument where Value == String {
  /// One value that must be given.
  static func single(_ name: String, help: String) -> Argument {
    Argument(ArgumentDeclaration(name: name, help: help)) { given in given.first }
  }
}

extension Argument where Value == [String] {
  /// Every remaining value: one or more, or any number when `optional`.
  static func repeating(_ name: String, help: String, optional: Bool = false) -> Argument {
    Argument(
      ArgumentDeclaration(name: name, help: help, isRepeating: true, isOptional: optional)
    ) { given in given }
  }
}
