/// Parses a command's arguments against its `CommandSpec`, in swift-argument-parser's conventions.
///
/// - `--name value` and `--name=value`; `-x value` for an option with a short name.
/// - An option's value is the next argument even when it starts with `-`
///   (`--offset -1`), unless it is `--` or one of the command's own options
///   or flags: in `--output --format json`, `--output` is missing its value.
/// - `--` ends the options: every argument after it is positional.
/// - `-` alone is positional (standard input, by convention).
/// - A single-valued option given twice is an error; a repeating option keeps
///   every value, in order. A flag given twice is given.
/// - Every value is converted to its option's type while parsing, so an
///   invalid value is a usage error before the command runs.
/// - `-h` or `--help` anywhere before `--` asks for help.
struct ArgumentParser {
  /// The command the arguments are for.
  let spec: CommandSpec

  /// Parses the arguments that follow the command's name.
  ///
  /// - Parameter arguments: The arguments, without the tool and command names.
  /// - Returns: The converted values.
  /// - Throws: `HelpRequest` for `-h` or `--help`; `UsageError` for a command line that does not fit.
  func parse(_ arguments: [String]) throws -> ParsedArguments {
    let options = arguments.prefix { $0 != "--" }
    if options.contains(where: { $0 == "-h" || $0 == "--help" }) {
      throw HelpRequest()
    }
    var parsed = ParsedArguments(spec: spec)
    var given: [String] = []
    var positional: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        positional += arguments[index...]
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        positional.append(argument)
        continue
      }
      let (name, inlineValue) = try split(argument)
      if spec.flag(named: name) != nil {
        guard inlineValue == nil else {
          throw UsageError(message: "The flag '--\(name)' does not take a value")
        }
        parsed.insert(flag: name)
        given.append(name)
        continue
      }
      guard let option = spec.option(named: name) else {
        throw UsageError(message: "Unknown option '--\(name)'")
      }
      if !option.isRepeating, parsed.isGiven(name) {
        throw UsageError(message: "The option '--\(name)' was given more than once")
      }
      let text: String
      if let inlineValue {
        text = inlineValue
      } else if index < arguments.count, !isDeclared(arguments[index]) {
        text = arguments[index]
        index += 1
      } else {
        throw UsageError(message: "Missing value for '\(option.label)'")
      }
      do {
        parsed.append(try option.convert(text), toOption: name)
      } catch {
        throw UsageError(
          message: "The value '\(text)' is invalid for '\(option.label)'; \(error.reason)")
      }
      given.append(name)
    }
    if let standalone = spec.options.first(where: { $0.isStandalone && parsed.isGiven($0.name) }) {
      if let other = given.first(where: {
        $0 != standalone.name && !standalone.standaloneCompanions.contains($0)
      }).map({ "--" + $0 })
        ?? positional.first
      {
        throw UsageError(message: "'--\(standalone.name)' cannot be used with '\(other)'")
      }
      return parsed
    }
    try checkPresence(parsed)
    try assign(positional, to: &parsed)
    return parsed
  }

  /// Splits `--name=value`, `--name` or `-x` into the long name and the inline value.
  private func split(_ argument: String) throws -> (name: String, inlineValue: String?) {
    guard argument.hasPrefix("--") else {
      let letters = argument.dropFirst()
      guard letters.count == 1, let letter = letters.first,
        let option = spec.options.first(where: { $0.short == letter })
      else {
        throw UsageError(message: "Unknown option '\(argument)'")
      }
      return (option.name, nil)
    }
    let body = argument.dropFirst(2)
    guard let equals = body.firstIndex(of: "=") else {
      return (String(body), nil)
    }
    return (String(body[..<equals]), String(body[body.index(after: equals)...]))
  }

  /// Whether an argument is `--`, help, or one of the command's options or flags, and so not a value.
  private func isDeclared(_ argument: String) -> Bool {
    if argument == "--" || argument == "-h" || argument == "--help" { return true }
    if argument.hasPrefix("--") {
      let name = String(argument.dropFirst(2).prefix { $0 != "=" })
      return spec.option(named: name) != nil || spec.flag(named: name) != nil
    }
    let letters = argument.dropFirst()
    return argument.hasPrefix("-") && letters.count == 1
      && spec.options.contains { $0.short == letters.first }
  }

  /// Checks required options and the sets of which exactly one must be given.
  private func checkPresence(_ parsed: ParsedArguments) throws {
    for option in spec.options where option.isRequired && !parsed.isGiven(option.name) {
      throw UsageError(message: "Missing expected option '\(option.label)'")
    }
    for group in spec.exactlyOneOf {
      let present = group.filter(parsed.isGiven)
      if present.count > 1 {
        throw UsageError(
          message: "'--\(present[0])' and '--\(present[1])' cannot be used together")
      }
      if present.isEmpty, let first = group.first {
        let others = group.dropFirst().map { "--" + $0 }.joined(separator: " or ")
        throw UsageError(
          message: "Missing expected option '\(spec.label(of: first))' (or pass \(others))")
      }
    }
  }

  /// Gives each positional argument its values, in declaration order.
  private func assign(_ positional: [String], to parsed: inout ParsedArguments) throws {
    var remaining = positional[...]
    for argument in spec.arguments {
      if argument.isRepeating {
        if remaining.isEmpty && !argument.isOptional {
          throw UsageError(message: "Missing expected argument '<\(argument.name)> ...'")
        }
        parsed.set(Array(remaining), forArgument: argument.name)
        remaining = []
      } else if let first = remaining.first {
        parsed.set([first], forArgument: argument.name)
        remaining = remaining.dropFirst()
      } else if argument.isOptional {
        parsed.set([], forArgument: argument.name)
      } else {
        throw UsageError(message: "Missing expected argument '<\(argument.name)>'")
      }
    }
    if let extra = remaining.first {
      throw UsageError(message: "Unexpected argument '\(extra)'")
    }
  }
}
