/// The YAML the repository's workflows are written in, read by indentation: block mappings,
/// block sequences, plain and quoted scalars, `|` and `>` blocks, and comments.
///
/// Anything else (flow collections, anchors, tags, tabs, several documents) is refused
/// with its line, so a workflow that leaves the subset fails its test rather than being
/// misread.
indirect enum WorkflowYAML: Equatable, CustomStringConvertible {
  /// A scalar, as text.
  case scalar(String)
  /// An empty value (`key:` with nothing under it).
  case null
  /// A block mapping, in file order.
  case mapping([Entry])
  /// A block sequence.
  case sequence([WorkflowYAML])

  /// One key and its value.
  struct Entry: Equatable {
    let key: String
    let value: WorkflowYAML
  }

  /// The value under a key, or nil for a missing key or a node that is not a mapping.
  subscript(key: String) -> WorkflowYAML? {
    guard case .mapping(let entries) = self else { return nil }
    return entries.first { $0.key == key }?.value
  }

  /// The scalar's text, or nil.
  var string: String? {
    guard case .scalar(let text) = self else { return nil }
    return text
  }

  /// The sequence's items, or nil.
  var items: [WorkflowYAML]? {
    guard case .sequence(let items) = self else { return nil }
    return items
  }

  /// The mapping's entries, or nil.
  var entries: [Entry]? {
    guard case .mapping(let entries) = self else { return nil }
    return entries
  }

  var description: String {
    switch self {
    case .scalar(let text): "\"\(text)\""
    case .null: "null"
    case .mapping(let entries):
      "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    case .sequence(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
    }
  }

  /// Why a text is not YAML of the subset, at a line counted from 1.
  struct SubsetError: Error, Equatable, CustomStringConvertible {
    let line: Int
    let message: String

    var description: String { "line \(line): \(message)" }
  }

  /// Parses a document.
  ///
  /// - Parameter text: The YAML.
  /// - Returns: The document's root; ``null`` for an empty document.
  /// - Throws: ``SubsetError`` naming the first line outside the subset.
  static func parse(_ text: String) throws(SubsetError) -> WorkflowYAML {
    var parser = Parser(text)
    return try parser.document()
  }

  /// A recursive descent over the lines, by their indentation.
  private struct Parser {
    /// A line as written, with its number and the width of its indentation.
    struct Line {
      let number: Int
      let indent: Int
      /// The text after the indentation, comments kept.
      let text: String
      /// Whether the line holds nothing but spaces or a comment.
      var isBlank: Bool { text.isEmpty || text.hasPrefix("#") }
    }

    private var lines: [Line] = []
    private var index = 0

    init(_ text: String) {
      for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        var body = Substring(raw)
        if body.hasSuffix("\r") { body = body.dropLast() }
        let spaces = body.prefix { $0 == " " }.count
        lines.append(Line(number: offset + 1, indent: spaces, text: String(body.dropFirst(spaces))))
      }
    }

    mutating func document() throws(SubsetError) -> WorkflowYAML {
      for line in lines {
        if line.text.hasPrefix("\t") {
          throw SubsetError(line: line.number, message: "a tab in the indentation")
        }
        if line.indent == 0, line.text == "---" || line.text == "..." {
          throw SubsetError(line: line.number, message: "document markers are outside the subset")
        }
      }
      skipBlank()
      guard index < lines.count else { return .null }
      let first = lines[index]
      guard first.indent == 0 else {
        throw SubsetError(line: first.number, message: "the document starts indented")
      }
      let root = try block(indent: 0)
      skipBlank()
      if index < lines.count {
        throw SubsetError(
          line: lines[index].number,
          message: "indented \(lines[index].indent), which matches no enclosing block")
      }
      return root
    }

    private mutating func skipBlank() {
      while index < lines.count, lines[index].isBlank { index += 1 }
    }

    /// The block whose first line is at `index`, indented `indent`.
    private mutating func block(indent: Int) throws(SubsetError) -> WorkflowYAML {
      if Self.isItem(lines[index].text) { return try sequence(indent: indent) }
      return try mapping(indent: indent)
    }

    private static func isItem(_ text: String) -> Bool {
      text == "-" || text.hasPrefix("- ")
    }

    private mutating func mapping(indent: Int) throws(SubsetError) -> WorkflowYAML {
      var entries: [Entry] = []
      while true {
        skipBlank()
        guard index < lines.count, lines[index].indent == indent,
          !Self.isItem(lines[index].text)
        else { break }
        let line = lines[index]
        let (key, rest) = try Self.splitKey(line)
        if entries.contains(where: { $0.key == key }) {
          throw SubsetError(line: line.number, message: "the key '\(key)' is repeated")
        }
        index += 1
        entries.append(Entry(key: key, value: try value(rest, of: line, indent: indent)))
      }
      if index < lines.count, lines[index].indent > indent {
        throw SubsetError(
          line: lines[index].number,
          message: "indented \(lines[index].indent) inside a mapping indented \(indent)")
      }
      return .mapping(entries)
    }

    private mutating func sequence(indent: Int) throws(SubsetError) -> WorkflowYAML {
      var items: [WorkflowYAML] = []
      while true {
        skipBlank()
        guard index < lines.count, lines[index].indent == indent, Self.isItem(lines[index].text)
        else { break }
        let line = lines[index]
        let rest = String(line.text.dropFirst(1).drop { $0 == " " })
        let offset = line.text.count - rest.count
        if Self.stripComment(rest).isEmpty {
          index += 1
          items.append(try nested(under: line, indent: indent) ?? .null)
        } else if Self.isItem(rest) {
          // `- - item` starts a sequence indented where its first dash is.
          lines[index] = Line(number: line.number, indent: indent + offset, text: rest)
          items.append(try sequence(indent: indent + offset))
        } else if (try? Self.splitKey(Line(number: line.number, indent: 0, text: rest))) != nil {
          // `- key: value` starts a mapping indented where its key is.
          lines[index] = Line(number: line.number, indent: indent + offset, text: rest)
          items.append(try mapping(indent: indent + offset))
        } else {
          index += 1
          items.append(try Self.scalar(rest, line: line.number))
        }
      }
      if index < lines.count, lines[index].indent > indent {
        throw SubsetError(
          line: lines[index].number,
          message: "indented \(lines[index].indent) inside a sequence indented \(indent)")
      }
      return .sequence(items)
    }

    /// The value after `key:`: a scalar on the line, a block scalar, or a block below it.
    private mutating func value(_ rest: String, of line: Line, indent: Int) throws(SubsetError)
      -> WorkflowYAML
    {
      let text = Self.stripComment(rest)
      if text == "|" || text == ">" || text == "|-" || text == ">-" {
        return blockScalar(
          folded: text.hasPrefix(">"), keepsNewline: !text.hasSuffix("-"), indent: indent)
      }
      if !text.isEmpty { return try Self.scalar(text, line: line.number) }
      skipBlank()
      // A sequence may sit at its key's own indentation.
      if index < lines.count, lines[index].indent == indent, Self.isItem(lines[index].text) {
        return try sequence(indent: indent)
      }
      return try nested(under: line, indent: indent) ?? .null
    }

    /// The block below a line, when the next line is indented deeper.
    private mutating func nested(under line: Line, indent: Int) throws(SubsetError)
      -> WorkflowYAML?
    {
      skipBlank()
      guard index < lines.count, lines[index].indent > indent else { return nil }
      return try block(indent: lines[index].indent)
    }

    /// The lines of a `|` or `>` block: those indented deeper than the key, and blank ones;
    /// one final line break unless the block is `|-` or `>-`.
    private mutating func blockScalar(folded: Bool, keepsNewline: Bool, indent: Int)
      -> WorkflowYAML
    {
      var body: [Line] = []
      while index < lines.count, lines[index].text.isEmpty || lines[index].indent > indent {
        body.append(lines[index])
        index += 1
      }
      while let last = body.last, last.text.isEmpty { body.removeLast() }
      let margin = body.filter { !$0.text.isEmpty }.map(\.indent).min() ?? 0
      let texts = body.map { line in
        line.text.isEmpty ? "" : String(repeating: " ", count: line.indent - margin) + line.text
      }
      let joined = texts.joined(separator: folded ? " " : "\n")
      return .scalar(keepsNewline && !texts.isEmpty ? joined + "\n" : joined)
    }

    /// A line's key and what follows its colon.
    private static func splitKey(_ line: Line) throws(SubsetError) -> (String, String) {
      let text = line.text
      if let quote = text.first, quote == "\"" || quote == "'" {
        guard let close = text.dropFirst().firstIndex(of: quote) else {
          throw SubsetError(line: line.number, message: "an unterminated quoted key")
        }
        let after = text[text.index(after: close)...]
        guard after.hasPrefix(":") else {
          throw SubsetError(line: line.number, message: "a quoted key without a colon")
        }
        return (String(text[text.index(after: text.startIndex)..<close]), String(after.dropFirst()))
      }
      var previous: Character = " "
      for position in text.indices {
        let character = text[position]
        if character == "#", previous == " " { break }
        if character == ":" {
          let next = text.index(after: position)
          if next == text.endIndex || text[next] == " " {
            let key = String(text[..<position])
            guard !key.isEmpty, !"[{&*!|>".contains(key.first ?? " ") else { break }
            return (key, String(text[next...]))
          }
        }
        previous = character
      }
      throw SubsetError(line: line.number, message: "expected 'key: value', found '\(text)'")
    }

    /// A value with its trailing comment taken off, outside quotes.
    private static func stripComment(_ text: String) -> String {
      var quote: Character? = nil
      var previous: Character = " "
      var position = text.startIndex
      while position < text.endIndex {
        let character = text[position]
        let next = text.index(after: position)
        if let open = quote {
          if character == "'", open == "'", next < text.endIndex, text[next] == "'" {
            // '' inside single quotes is one quote.
            position = text.index(after: next)
            continue
          }
          if character == "\\", open == "\"", next < text.endIndex {
            position = text.index(after: next)
            continue
          }
          if character == open { quote = nil }
        } else if character == "\"" || character == "'", previous == " " {
          quote = character
        } else if character == "#", previous == " " {
          return String(text[..<position]).trimmingSpaces
        }
        previous = character
        position = next
      }
      return text.trimmingSpaces
    }

    /// A scalar written on one line: plain, 'single' or "double" quoted.
    private static func scalar(_ written: String, line: Int) throws(SubsetError) -> WorkflowYAML {
      let text = stripComment(written)
      guard let first = text.first else { return .null }
      if "[{".contains(first) {
        throw SubsetError(line: line, message: "flow collections are outside the subset")
      }
      if "&*!%@`".contains(first) {
        throw SubsetError(line: line, message: "'\(first)' starts no scalar of the subset")
      }
      if first == "'" {
        guard text.count >= 2, text.hasSuffix("'") else {
          throw SubsetError(line: line, message: "an unterminated 'quoted' scalar")
        }
        return .scalar(
          String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
      }
      if first == "\"" {
        guard text.count >= 2, text.hasSuffix("\""), !text.hasSuffix("\\\"") else {
          throw SubsetError(line: line, message: "an unterminated \"quoted\" scalar")
        }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
          if escaped {
            switch character {
            case "n": result.append("\n")
            case "t": result.append("\t")
            default: result.append(character)
            }
            escaped = false
          } else if character == "\\" {
            escaped = true
          } else {
            result.append(character)
          }
        }
        return .scalar(result)
      }
      return .scalar(text)
    }
  }
}

extension String {
  /// The text without leading and trailing spaces.
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
