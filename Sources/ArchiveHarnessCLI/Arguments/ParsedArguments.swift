/// The values a command line gave, checked and converted against a `CommandSpec`.
///
/// Read them through the declarations: `arguments[option]`, `arguments[flag]`,
/// `arguments[argument]`. Each has the declared type, with the default
/// applied, so a command never repeats a default or a check the parser made.
struct ParsedArguments: Sendable {
  /// The command whose declarations these values answer.
  private let commandName: String
  /// The long names of the options and flags the command declares.
  private let declaredNames: Set<String>
  /// Converted option values, by long name, in the order given.
  private var optionValues: [String: [any Sendable]] = [:]
  /// The flags given, by long name.
  private var flagsGiven: Set<String> = []
  /// Positional values, by argument name.
  private var positional: [String: [String]] = [:]

  /// Empty values for a spec, which the parser fills.
  init(spec: CommandSpec) {
    commandName = spec.name
    declaredNames = Set(spec.options.map(\.name) + spec.flags.map(\.name))
  }

  /// The option's value: what was given, else its default (nil for an optional option).
  ///
  /// - Precondition: The command declares the option. A required option is
  ///   there unless a standalone option was given; check that one first.
  subscript<Value>(option: Option<Value>) -> Value {
    precondition(declaredNames.contains(option.name), undeclared("--\(option.name)"))
    guard let value = option.value(from: optionValues[option.name] ?? []) else {
      preconditionFailure(undeclared("--\(option.name)"))
    }
    return value
  }

  /// Whether the flag was given.
  ///
  /// - Precondition: The command declares the flag.
  subscript(flag: Flag) -> Bool {
    precondition(declaredNames.contains(flag.name), undeclared("--\(flag.name)"))
    return flagsGiven.contains(flag.name)
  }

  /// The positional argument's value.
  ///
  /// - Precondition: The command declares the argument. A required argument
  ///   is there unless a standalone option was given; check that one first.
  subscript<Value>(argument: Argument<Value>) -> Value {
    guard let given = positional[argument.declaration.name], let value = argument.value(from: given)
    else {
      preconditionFailure(undeclared("<\(argument.declaration.name)>"))
    }
    return value
  }

  /// Whether an option or flag was given, by long name.
  func isGiven(_ name: String) -> Bool {
    optionValues[name] != nil || flagsGiven.contains(name)
  }

  /// Records a converted option value.
  mutating func append(_ value: any Sendable, toOption name: String) {
    optionValues[name, default: []].append(value)
  }

  /// Records a flag.
  mutating func insert(flag name: String) {
    flagsGiven.insert(name)
  }

  /// Records the values of a positional argument.
  mutating func set(_ values: [String], forArgument name: String) {
    positional[name] = values
  }

  private func undeclared(_ label: String) -> String {
    "'\(commandName)' read '\(label)', which it does not declare or the parser let through absent"
  }
}
