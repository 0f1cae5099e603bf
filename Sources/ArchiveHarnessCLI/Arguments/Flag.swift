/// A flag without a value (`--raw`); `arguments[flag]` is whether it was given.
struct Flag: Sendable {
  /// The long name without dashes.
  var name: String
  /// One line of help.
  var help: String

  /// `--name`, as usage and errors show the flag.
  var label: String { "--\(name)" }
}
