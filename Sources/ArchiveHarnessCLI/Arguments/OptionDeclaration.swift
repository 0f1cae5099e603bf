/// The untyped part of an option's declaration, which the parser and help read.
struct OptionDeclaration: Sendable {
  /// The long name without dashes.
  var name: String
  /// A one-letter short name, if any.
  var short: Character? = nil
  /// The value's name in help, such as `FILE`.
  var valueName: String
  /// One line of help.
  var help: String
  /// The values allowed, if they are a closed set.
  var allowedValues: [String]? = nil
  /// The default, or what happens without the option, as help shows it.
  var defaultDescription: String? = nil
  /// Whether the option must be given.
  var isRequired = false
  /// Whether the option may be given several times, each value kept.
  var isRepeating = false
  /// Whether the option is a command line of its own (see `Option.optional(_:short:valueName:help:defaultDescription:standalone:)`).
  var isStandalone = false
  /// The options a standalone option may still be given with, such as a key for `--rollback`.
  var standaloneCompanions: [String] = []
  /// Converts one value, as the option's type needs.
  var convert: ArgumentConverter<any Sendable>

  /// `--name <value>`, as usage and errors show the option.
  var label: String { "--\(name) <\(valueName.lowercased())>" }
}
