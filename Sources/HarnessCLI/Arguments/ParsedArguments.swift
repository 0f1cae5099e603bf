/// The values a command line gave, checked against a ``CommandSpec``.
public struct ParsedArguments: Sendable {
  /// Positional values, by argument name.
  public var positional: [String: [String]] = [:]
  /// Option values, by long name, in the order given.
  public var options: [String: [String]] = [:]
  /// The flags given.
  public var flags: Set<String> = []

  /// The single value of an option, or its declared default.
  public func option(_ name: String, spec: CommandSpec) -> String? {
    if let values = options[name], let last = values.last { return last }
    return spec.options.first { $0.name == name }?.defaultValue
  }

  /// Every value given for an option.
  public func values(_ name: String) -> [String] {
    options[name] ?? []
  }

  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool {
    flags.contains(name)
  }

  /// The first value of a positional argument.
  public func argument(_ name: String) -> String? {
    positional[name]?.first
  }

  /// Every value of a repeating positional argument.
  public func arguments(_ name: String) -> [String] {
    positional[name] ?? []
  }
}

/// A command line that does not fit its command, reported as `Error: …` with the usage.
public struct UsageError: Error, Sendable {
  /// The message, without the `Error: ` prefix.
  public var message: String
}

/// A request for help, which prints the help text and exits 0.
struct HelpRequest: Error {}

/// Parses arguments against a spec.
struct ArgumentParser {
  let spec: CommandSpec

  func parse(_ arguments: [String]) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var positional: [String] = []
    var index = 0
    var onlyPositional = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
        positional.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositional = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        throw HelpRequest()
      }
      var name: String
      var inlineValue: String? = nil
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
      } else {
        let short = argument.dropFirst()
        guard short.count == 1, let letter = short.first,
          let option = spec.options.first(where: { $0.short == letter })
        else {
          throw UsageError(message: "Unknown option '\(argument)'")
        }
        name = option.name
      }
      if spec.flags.contains(where: { $0.name == name }) {
        guard inlineValue == nil else {
          throw UsageError(message: "The flag '--\(name)' does not take a value")
        }
        parsed.flags.insert(name)
        continue
      }
      guard let option = spec.options.first(where: { $0.name == name }) else {
        throw UsageError(message: "Unknown option '\(argument)'")
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else {
          throw UsageError(
            message: "Missing value for '--\(name) <\(option.valueName.lowercased())>'")
        }
        value = arguments[index]
        index += 1
      }
      if let allowed = option.allowedValues, !allowed.contains(value) {
        throw UsageError(
          message:
            "The value '\(value)' is invalid for '--\(name) <\(option.valueName.lowercased())>'; expected one of: \(allowed.joined(separator: ", "))"
        )
      }
      if !option.repeating, parsed.options[name] != nil {
        throw UsageError(message: "The option '--\(name)' was given more than once")
      }
      parsed.options[name, default: []].append(value)
    }

    var remaining = positional[...]
    for argument in spec.arguments {
      if argument.repeating {
        parsed.positional[argument.name] = Array(remaining)
        if remaining.isEmpty && !argument.optional {
          throw UsageError(message: "Missing expected argument '<\(argument.name)> ...'")
        }
        remaining = []
      } else if let first = remaining.first {
        parsed.positional[argument.name] = [first]
        remaining = remaining.dropFirst()
      } else if !argument.optional {
        throw UsageError(message: "Missing expected argument '<\(argument.name)>'")
      }
    }
    if let extra = remaining.first {
      throw UsageError(message: "Unexpected argument '\(extra)'")
    }
    return parsed
  }
}
