import Foundation

/// Checks a coder's `override` declarations against the platform table beside it, from source
/// text alone, so that an override valid on only one Foundation is caught on Linux.
///
/// The table rows read `| member | Darwin | corelibs | overridden |`, with `overridden` one of
/// `both`, `darwin`, `corelibs`, `each` or `none`.
enum CoderOverrideChecker {
  /// Where a row says a member is overridden.
  enum Placement: String, CaseIterable {
    case both
    case darwin
    case corelibs
    /// NSCoder declares it on macOS and in corelibs, not on iOS.
    case macOSAndCorelibs = "macOS and corelibs"
    case each
    case none
  }

  /// The conditional-compilation block a declaration sits in, as far as Foundation goes.
  enum Block: Equatable, CustomStringConvertible {
    /// Outside any `#if`.
    case anywhere
    /// Inside `#if canImport(Darwin)`, or the `#else` of `#if !canImport(Darwin)`.
    case darwin
    /// Inside `#if !canImport(Darwin)`, or the `#else` of `#if canImport(Darwin)`.
    case corelibs
    /// Inside `#if os(macOS) || !canImport(Darwin)`: macOS's Foundation and corelibs.
    case macOSAndCorelibs
    /// Inside a condition the checker does not read as either Foundation.
    case unknown(String)

    var description: String {
      switch self {
      case .anywhere: "outside any #if"
      case .darwin: "in a canImport(Darwin) block"
      case .corelibs: "in a !canImport(Darwin) block"
      case .macOSAndCorelibs: "in an os(macOS) || !canImport(Darwin) block"
      case .unknown(let condition): "under '#if \(condition)'"
      }
    }
  }

  /// One `override` declaration found in the source.
  struct Override: Equatable {
    let member: String
    let block: Block
    /// Where it is: `file:line`.
    let location: String
  }

  /// Reads the table rows: member and placement, keyed by member.
  static func table(in source: String) -> [String: Placement] {
    var rows: [String: Placement] = [:]
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      let text = line.trimmingCharacters(in: .whitespaces)
      guard text.hasPrefix("// |") else { continue }
      let cells = text.dropFirst(3).split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      // A row is `| a | b | c | d |`: an empty cell either side of four.
      guard cells.count == 6, let placement = Placement(rawValue: cells[4]) else { continue }
      rows[cells[1]] = placement
    }
    return rows
  }

  /// Finds every `override` declaration and the block it sits in.
  static func overrides(in source: String, file: String = "source") -> [Override] {
    var found: [Override] = []
    var stack: [(condition: String, inElse: Bool)] = []
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for (index, rawLine) in lines.enumerated() {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("#if ") {
        stack.append((String(line.dropFirst(4)), false))
      } else if line.hasPrefix("#elseif"), !stack.isEmpty {
        stack[stack.count - 1] = ("elseif " + String(line.dropFirst(8)), false)
      } else if line == "#else", !stack.isEmpty {
        stack[stack.count - 1].inElse = true
      } else if line.hasPrefix("#endif"), !stack.isEmpty {
        stack.removeLast()
      } else if !line.hasPrefix("//"), let member = memberName(lines, from: index) {
        found.append(
          Override(member: member, block: block(of: stack), location: "\(file):\(index + 1)"))
      }
    }
    return found
  }

  /// The problems in a coder's source: each one a sentence naming the member and line.
  static func problems(in source: String) -> [String] {
    problems(overrides: overrides(in: source), table: table(in: source))
  }

  /// The problems of the given overrides against the given table.
  static func problems(overrides: [Override], table: [String: Placement]) -> [String] {
    var problems: [String] = []
    for found in overrides {
      guard let placement = table[found.member] else {
        problems.append("\(found.location): '\(found.member)' is overridden but not in the table")
        continue
      }
      let expected: [Block]
      switch placement {
      case .both: expected = [.anywhere]
      case .darwin: expected = [.darwin]
      case .corelibs: expected = [.corelibs]
      case .macOSAndCorelibs: expected = [.macOSAndCorelibs]
      case .each: expected = [.darwin, .corelibs]
      case .none: expected = []
      }
      if !expected.contains(found.block) {
        problems.append(
          "\(found.location): '\(found.member)' (\(placement.rawValue)) is overridden "
            + "\(found.block)")
      }
    }
    for (member, placement) in table.sorted(by: { $0.key < $1.key }) {
      let blocks = overrides.filter { $0.member == member }.map(\.block)
      let missing: [Block]
      switch placement {
      case .both: missing = blocks.contains(.anywhere) ? [] : [.anywhere]
      case .darwin: missing = blocks.contains(.darwin) ? [] : [.darwin]
      case .corelibs: missing = blocks.contains(.corelibs) ? [] : [.corelibs]
      case .macOSAndCorelibs:
        missing = blocks.contains(.macOSAndCorelibs) ? [] : [.macOSAndCorelibs]
      case .each: missing = [Block.darwin, .corelibs].filter { !blocks.contains($0) }
      case .none: missing = []
      }
      for block in missing {
        problems.append("'\(member)' (\(placement.rawValue)) has no override \(block)")
      }
    }
    return problems
  }

  private static func block(of stack: [(condition: String, inElse: Bool)]) -> Block {
    var result = Block.anywhere
    for (condition, inElse) in stack {
      let compact = condition.filter { !$0.isWhitespace }
      let here: Block
      switch (compact, inElse) {
      case ("canImport(Darwin)", false), ("!canImport(Darwin)", true): here = .darwin
      case ("!canImport(Darwin)", false), ("canImport(Darwin)", true): here = .corelibs
      case ("os(macOS)||!canImport(Darwin)", false): here = .macOSAndCorelibs
      default: here = .unknown(inElse ? "!(\(condition))" : condition)
      }
      switch (result, here) {
      case (.anywhere, _), (.darwin, .darwin), (.corelibs, .corelibs): result = here
      default: return .unknown("\(result) and \(here)")
      }
    }
    return result
  }

  /// The member an `override` declaration starting on a line names: `name(label:label:)` for a
  /// method, `name` for a property; nil when the line declares no override.
  private static func memberName(_ lines: [String], from index: Int) -> String? {
    let words = lines[index].split(whereSeparator: \.isWhitespace)
    guard let overrideIndex = words.firstIndex(of: "override"),
      overrideIndex + 2 < words.count
    else { return nil }
    let keyword = words[overrideIndex + 1]
    let rest = words[(overrideIndex + 2)...].joined(separator: " ")
    if keyword == "var" {
      return String(rest.prefix { $0 != ":" && !$0.isWhitespace })
    }
    guard keyword == "func" else { return nil }
    // The declaration up to its parameter list's closing parenthesis, across lines.
    var text = rest
    var next = index + 1
    while !hasClosedParameters(text), next < lines.count {
      text += " " + lines[next].trimmingCharacters(in: .whitespaces)
      next += 1
    }
    let name = String(text.prefix { $0 != "(" && $0 != "<" })
    guard let parameters = parameterList(text) else { return nil }
    let labels = splitTopLevel(parameters).compactMap { parameter -> String? in
      let label = parameter.trimmingCharacters(in: .whitespaces)
        .prefix { $0 != ":" && !$0.isWhitespace }
      return label.isEmpty ? nil : label + ":"
    }
    return name + "(" + labels.joined() + ")"
  }

  private static func hasClosedParameters(_ text: String) -> Bool {
    parameterList(text) != nil
  }

  /// The text inside a declaration's parameter parentheses, after any generic clause.
  private static func parameterList(_ text: String) -> String? {
    var angle = 0
    var depth = 0
    var start: String.Index?
    for index in text.indices {
      switch text[index] {
      case "<" where start == nil: angle += 1
      case ">" where start == nil: angle -= 1
      case "(":
        if start == nil, angle == 0 {
          start = text.index(after: index)
        } else if start != nil {
          depth += 1
        }
      case ")" where start != nil:
        if depth == 0, let start { return String(text[start..<index]) }
        depth -= 1
      default: break
      }
    }
    return nil
  }

  /// Splits a parameter list at its top-level commas.
  private static func splitTopLevel(_ text: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var previous: Character = " "
    for character in text {
      defer { previous = character }
      switch character {
      case ">" where previous == "-": break
      case "(", "[", "<": depth += 1
      case ")", "]", ">": depth -= 1
      case "," where depth == 0:
        parts.append(current)
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    if !current.trimmingCharacters(in: .whitespaces).isEmpty { parts.append(current) }
    return parts
  }
}
