/// Renders usage and help text in swift-argument-parser's layout.
enum HelpFormatter {
  /// The column help text starts at.
  static let helpColumn = 26
  /// The width usage lines wrap at.
  static let width = 80

  /// The usage lines of a command, wrapped, without a final newline.
  ///
  /// Required options show bare (`--store <path>`), others in brackets, a
  /// repeating one with `...`, a set of which exactly one must be given as
  /// `(--backup <dir> | --no-backup)`, and a standalone option on a line of its own.
  ///
  /// - Parameters:
  ///   - spec: The command.
  ///   - tool: The tool's name.
  ///   - prefix: What the first line starts with: `USAGE: ` or `Usage: `.
  ///   - compact: Whether to stand `[<options>]` for the options that may be
  ///     left out when they would not fit on one line, as errors do.
  /// - Returns: The lines, joined by newlines.
  static func usage(
    _ spec: CommandSpec, tool: String, prefix: String, compact: Bool = false
  ) -> String {
    let command = "\(tool) \(spec.name)"
    var lines = wrap(usageItems(spec, collapsingOptional: false), after: prefix + command)
    if compact, lines.count > 1 {
      lines = wrap(usageItems(spec, collapsingOptional: true), after: prefix + command)
    }
    for option in spec.options where option.isStandalone {
      lines.append(String(repeating: " ", count: prefix.count) + command + " " + option.label)
    }
    return lines.joined(separator: "\n")
  }

  /// The full help of a command: overview, usage, arguments, options and exit statuses.
  ///
  /// - Parameters:
  ///   - spec: The command.
  ///   - tool: The tool's name.
  /// - Returns: The help text, ending in a newline.
  static func help(_ spec: CommandSpec, tool: String) -> String {
    var text = "OVERVIEW: \(spec.abstract)\n"
    if !spec.discussion.isEmpty {
      text += "\n" + spec.discussion + "\n"
    }
    text += "\n" + usage(spec, tool: tool, prefix: "USAGE: ") + "\n"
    if !spec.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in spec.arguments {
        text += row("<\(argument.name)>", argument.help)
      }
    }
    text += "\nOPTIONS:\n"
    for option in spec.options {
      var label = option.label
      if let short = option.short { label = "-\(short), " + label }
      text += row(label, option.help + annotation(option))
    }
    for flag in spec.flags {
      text += row(flag.label, flag.help)
    }
    text += row("-h, --help", "Show help information.")
    text += "\nEXIT STATUS:\n" + spec.exitStatus + "\n"
    return text
  }

  /// The help of a group of subcommands, or of the tool itself.
  ///
  /// - Parameters:
  ///   - group: The group; the tool's root group has an empty name.
  ///   - tool: The tool's name.
  ///   - extraOptions: Rows listed before `-h, --help`, such as the root's `--version`.
  ///   - exitStatus: The `EXIT STATUS` section, if the help has one.
  /// - Returns: The help text, ending in a newline.
  static func help(
    _ group: CommandGroup, tool: String, extraOptions: [(String, String)] = [],
    exitStatus: String? = nil
  ) -> String {
    let command = group.name.isEmpty ? tool : "\(tool) \(group.name)"
    var text = "OVERVIEW: \(group.abstract)\n\nUSAGE: \(command) <subcommand>\n\nOPTIONS:\n"
    for (label, help) in extraOptions {
      text += row(label, help)
    }
    text += row("-h, --help", "Show help information.")
    text += "\nSUBCOMMANDS:\n"
    for entry in group.entries {
      text += row(entry.word, entry.abstract)
    }
    let helpPath = group.name.isEmpty ? "help" : "help \(group.name)"
    text += "\n  See '\(tool) \(helpPath) <subcommand>' for detailed help.\n"
    if let exitStatus {
      text += "\nEXIT STATUS:\n" + exitStatus + "\n"
    }
    return text
  }

  /// The text of a usage error: `Error: …`, the usage, and where to find help.
  ///
  /// - Parameters:
  ///   - message: The error, without the `Error: ` prefix.
  ///   - usage: The usage, as ``usage(_:tool:prefix:)`` renders it with `Usage: `.
  ///   - command: The command whose help to point to, such as `my-harness verify`.
  /// - Returns: The lines, ending in a newline.
  static func usageError(_ message: String, usage: String, command: String) -> String {
    "Error: \(message)\n\(usage)\n  See '\(command) --help' for more information.\n"
  }

  /// One row of a help section: the label, then the help at ``helpColumn`` (on the next line if the label is long).
  static func row(_ label: String, _ help: String) -> String {
    let padded = "  " + label
    if padded.count < helpColumn {
      return padded + String(repeating: " ", count: helpColumn - padded.count) + help + "\n"
    }
    return padded + "\n" + String(repeating: " ", count: helpColumn) + help + "\n"
  }

  /// ` (values: …; default: …)`, ` (default: …)` or nothing.
  private static func annotation(_ option: OptionDeclaration) -> String {
    var parts: [String] = []
    if let allowed = option.allowedValues {
      parts.append("values: " + allowed.joined(separator: ", "))
    }
    if let defaultDescription = option.defaultDescription {
      parts.append("default: " + defaultDescription)
    }
    return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
  }

  /// The usage items after the command's name, standalone options left out,
  /// and those that may be left out standing as one `[<options>]` when `collapsingOptional`.
  private static func usageItems(_ spec: CommandSpec, collapsingOptional: Bool) -> [String] {
    var items: [String] = []
    var collapsed = false
    var shownGroups: Set<Int> = []
    let members = spec.options.filter { !$0.isStandalone }.map(\.name) + spec.flags.map(\.name)
    for name in members {
      if let group = spec.exactlyOneOf.firstIndex(where: { $0.contains(name) }) {
        if shownGroups.insert(group).inserted {
          items.append(
            "(" + spec.exactlyOneOf[group].map(spec.label(of:)).joined(separator: " | ") + ")")
        }
        continue
      }
      let option = spec.option(named: name)
      if collapsingOptional, option?.isRequired != true {
        if !collapsed { items.append("[<options>]") }
        collapsed = true
        continue
      }
      guard let option else {
        items.append("[--\(name)]")
        continue
      }
      let item = option.isRepeating ? option.label + " ..." : option.label
      items.append(option.isRequired ? item : "[\(item)]")
    }
    items += spec.arguments.map(\.usage)
    return items
  }

  /// Lines that start with `lead` and hold `items`, wrapped at ``width`` and indented under the first item.
  private static func wrap(_ items: [String], after lead: String) -> [String] {
    let indent = String(repeating: " ", count: lead.count + 1)
    var lines: [String] = []
    var line = lead
    for item in items {
      if line.count + 1 + item.count > width, line != lead {
        lines.append(line)
        line = indent + item
      } else {
        line += " " + item
      }
    }
    lines.append(line)
    return lines
  }
}
