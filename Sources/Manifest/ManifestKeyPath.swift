/// A path from an archive's root object to a value: `address.city`, `tags[0]`, `items[*].id`.
///
/// Grammar: components joined by `.`; a component is a key, `@count`, or a
/// bracketed `[n]`, `[*]` or `["quoted key"]` (with `\"` and `\\` escapes),
/// which needs no dot before it. Keys that contain `.`, `[`, `]`, `"`,
/// whitespace or start with `@` must use the quoted form. The empty path is
/// the root object.
public struct ManifestKeyPath: Sendable, Hashable, CustomStringConvertible {
  /// One step of a key path.
  public enum Component: Sendable, Hashable {
    /// A field of an object or a key of a dictionary.
    case key(String)
    /// An element of an array or ordered set.
    case index(Int)
    /// Every element of a collection.
    case wildcard
    /// The element count of a collection, or the UTF-16 length of a string.
    case count
  }

  /// A reason a key path text does not parse.
  public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The 0-based character offset in the key path text.
    public var offset: Int
    /// The problem and its offset.
    public var description: String { "\(message) at character \(offset + 1)" }
  }

  /// The components, from the root.
  public var components: [Component]

  /// Creates a key path from components.
  public init(_ components: [Component]) { self.components = components }

  /// Parses a key path text.
  ///
  /// - Throws: ``ParseError`` naming the first problem and where it is.
  public init(parsing text: String) throws(ParseError) {
    var parser = Parser(characters: Array(text))
    components = try parser.parse()
  }

  /// Whether the path has a wildcard, so it can stand for several values.
  public var hasWildcard: Bool { components.contains(.wildcard) }

  /// The key path in its written form.
  public var description: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        if ManifestKeyPath.isPlain(key) {
          if !text.isEmpty { text += "." }
          text += key
        } else {
          let escaped = key.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
          text += "[\"\(escaped)\"]"
        }
      case .index(let index): text += "[\(index)]"
      case .wildcard: text += "[*]"
      case .count:
        if !text.isEmpty { text += "." }
        text += "@count"
      }
    }
    return text
  }

  /// Returns this path with one more component.
  public func appending(_ component: Component) -> ManifestKeyPath {
    ManifestKeyPath(components + [component])
  }

  /// Whether a key can be written without quotes.
  static func isPlain(_ key: String) -> Bool {
    guard let first = key.first, first != "@" else { return false }
    return !key.contains { $0 == "." || $0 == "[" || $0 == "]" || $0 == "\"" || $0.isWhitespace }
  }

  private struct Parser {
    let characters: [Character]
    var offset = 0

    mutating func parse() throws(ParseError) -> [Component] {
      var components: [Component] = []
      if characters.isEmpty { return components }
      var expectsComponent = true
      while offset < characters.count {
        let character = characters[offset]
        if character == "[" {
          components.append(try bracket())
          expectsComponent = false
        } else if character == "." {
          if expectsComponent || components.isEmpty {
            throw ParseError(message: "empty key", offset: offset)
          }
          offset += 1
          expectsComponent = true
          if offset == characters.count {
            throw ParseError(message: "key path ends with '.'", offset: offset - 1)
          }
        } else {
          if !expectsComponent {
            throw ParseError(message: "expected '.' or '['", offset: offset)
          }
          components.append(try plain())
          expectsComponent = false
        }
      }
      return components
    }

    mutating func plain() throws(ParseError) -> Component {
      let start = offset
      while offset < characters.count, characters[offset] != ".", characters[offset] != "[" {
        let character = characters[offset]
        if character == "]" || character == "\"" || character.isWhitespace {
          throw ParseError(
            message: "'\(character)' in a key; write the key as [\"…\"]", offset: offset)
        }
        offset += 1
      }
      let key = String(characters[start..<offset])
      if key == "@count" { return .count }
      if key.hasPrefix("@") {
        throw ParseError(message: "unknown operator '\(key)'; only '@count' exists", offset: start)
      }
      return .key(key)
    }

    mutating func bracket() throws(ParseError) -> Component {
      let open = offset
      offset += 1
      guard offset < characters.count else {
        throw ParseError(message: "unclosed '['", offset: open)
      }
      if characters[offset] == "\"" {
        offset += 1
        var key = ""
        while true {
          guard offset < characters.count else {
            throw ParseError(message: "unclosed quoted key", offset: open)
          }
          let character = characters[offset]
          offset += 1
          if character == "\"" { break }
          if character == "\\" {
            guard offset < characters.count else {
              throw ParseError(message: "unclosed quoted key", offset: open)
            }
            key.append(characters[offset])
            offset += 1
          } else {
            key.append(character)
          }
        }
        try close(open)
        return .key(key)
      }
      if characters[offset] == "*" {
        offset += 1
        try close(open)
        return .wildcard
      }
      let start = offset
      while offset < characters.count, let digit = characters[offset].wholeNumberValue,
        characters[offset].isASCII, digit >= 0
      {
        offset += 1
      }
      guard offset > start, let index = Int(String(characters[start..<offset])) else {
        throw ParseError(
          message: "expected an index, '*' or a quoted key after '['", offset: start)
      }
      try close(open)
      return .index(index)
    }

    mutating func close(_ open: Int) throws(ParseError) {
      guard offset < characters.count, characters[offset] == "]" else {
        throw ParseError(message: "expected ']' to close the '[' at character \(open + 1)", offset: offset)
      }
      offset += 1
    }
  }
}
