/// Renders help text in swift-argument-parser's layout.
enum HelpFormatter {
  static func usage(_ spec: CommandSpec, tool: String) -> String {
    var parts = ["\(tool) \(spec.name)"]
    for option in spec.options {
      let item = "--\(option.name) <\(option.valueName.lowercased())>"
      parts.append(option.defaultValue == nil && !option.repeating ? "[\(item)]" : "[\(item)]")
    }
    for flag in spec.flags {
      parts.append("[--\(flag.name)]")
    }
    for argument in spec.arguments {
      var item = "<\(argument.name)>"
      if argument.repeating { item += " ..." }
      parts.append(argument.optional ? "[\(item)]" : item)
    }
    return parts.joined(separator: " ")
  }

  static func help(_ spec: CommandSpec, tool: String) -> String {
    var text = "OVERVIEW: \(spec.abstract)\n"
    if !spec.discussion.isEmpty {
      text += "\n" + spec.discussion + "\n"
    }
    text += "\nUSAGE: \(usage(spec, tool: tool))\n"
    if !spec.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in spec.arguments {
        text += row("<\(argument.name)>", argument.help)
      }
    }
    text += "\nOPTIONS:\n"
    for option in spec.options {
      var label = "--\(option.name) <\(option.valueName.lowercased())>"
      if let short = option.short { label = "-\(short), " + label }
      var help = option.help
      if let allowed = option.allowedValues {
        help += " (values: \(allowed.joined(separator: ", "))"
        help += option.defaultValue.map { "; default: \($0))" } ?? ")"
      } else if let defaultValue = option.defaultValue {
        help += " (default: \(defaultValue))"
      }
      text += row(label, help)
    }
    for flag in spec.flags {
      text += row("--\(flag.name)", flag.help)
    }
    text += row("-h, --help", "Show help information.")
    text += "\nEXIT STATUS:\n" + spec.exitStatus + "\n"
    return text
  }

  static func row(_ label: String, _ help: String) -> String {
    let padded = "  " + label
    if padded.count < 26 {
      return padded + String(repeating: " ", count: 26 - padded.count) + help + "\n"
    }
    return padded + "\n" + String(repeating: " ", count: 26) + help + "\n"
  }
}
