/// A path into an archive's graph, such as `address.city`, `tags[2]`, `tags.@count` or `items[*].id`.
///
/// Paths start at `$top.root`; `$top.NAME` starts at another top-level key.
/// A key that holds `.`, `[`, `]` or `"` is written in brackets:
/// `settings["ui.theme"]`.
///
/// ```swift
/// let path = try ArchiveKeyPath("items[*].id")
/// for match in try archive.evaluate(path) { print(match.path, archive.leaf(of: match.node)) }
/// ```
package struct ArchiveKeyPath: Hashable, Sendable, CustomStringConvertible {
  /// One step of a path.
  package enum Component: Hashable, Sendable {
    /// A field of an instance, or a string key of a dictionary.
    case key(String)
    /// An element of an array, set or ordered set, or of a dictionary's values.
    case index(Int)
    /// Every element (`[*]`).
    case wildcard
    /// The element count of a collection (`@count`).
    case count
  }

  /// The `$top` key the path starts from (`root` unless the path starts with `$top.NAME`).
  package var topKey: String
  /// The steps, in order.
  package var components: [Component]

  /// Creates a path from parts.
  package init(topKey: String = "root", components: [Component]) {
    self.topKey = topKey
    self.components = components
  }

  /// Parses a key path.
  ///
  /// - Throws: `KeyPathError` naming the character offset of the problem.
  package init(_ text: String) throws(KeyPathError) {
    var parser = KeyPathParser(text: Array(text.unicodeScalars))
    let (top, components) = try parser.parse()
    self.init(topKey: top, components: components)
  }

  /// The path as text; parsing it gives the same path.
  package var description: String {
    var text = topKey == "root" ? "" : "$top." + Self.keyText(topKey, first: true)
    for component in components {
      switch component {
      case .key(let key):
        text += text.isEmpty ? Self.keyText(key, first: true) : Self.keyText(key, first: false)
      case .index(let index):
        text += "[\(index)]"
      case .wildcard:
        text += "[*]"
      case .count:
        text += text.isEmpty ? "@count" : ".@count"
      }
    }
    return text
  }

  /// The path with one more step.
  package func appending(_ component: Component) -> ArchiveKeyPath {
    ArchiveKeyPath(topKey: topKey, components: components + [component])
  }

  private static func keyText(_ key: String, first: Bool) -> String {
    let plain =
      !key.isEmpty && key != "@count"
      && key.unicodeScalars.allSatisfy { !".[]\"\\ ".unicodeScalars.contains($0) }
      && !(first && key.hasPrefix("$top"))
    if plain {
      return first ? key : "." + key
    }
    var escaped = "[\""
    for scalar in key.unicodeScalars {
      if scalar == "\"" || scalar == "\\" { escaped += "\\" }
      escaped.unicodeScalars.append(scalar)
    }
    return escaped + "\"]"
  }
}

extension KeyedArchive {
  /// Evaluates a key path from its `$top` key.
  ///
  /// - Returns: The nodes reached; empty when the path leads nowhere (a missing
  ///   field, an index past the end). `[*]` gives one match per element.
  /// - Throws: ``KeyedArchiveError`` with code `limit-exceeded` when wildcards
  ///   fan out past ``ArchiveLimits/maximumKeyPathMatches``.
  package func evaluate(_ path: ArchiveKeyPath, limits: ArchiveLimits = .default)
    throws(KeyedArchiveError)
    -> [KeyPathMatch]
  {
    guard let start = top[path.topKey] else { return [] }
    // A match keeps the element index it took at each wildcard, as a chain
    // through `choices` (the position of its last choice there, or -1), and
    // its concrete path is built once at the end. Copying each match's path at
    // every step would cost the square of the path's length.
    var choices: [(index: Int, previous: Int)] = []
    var current: [(node: ArchiveNode, choice: Int)] = [(node(for: start), -1)]
    for component in path.components {
      var next: [(node: ArchiveNode, choice: Int)] = []
      // Many matches can reach one shared object (a wildcard over a reference
      // bomb does). Each object is resolved once per step, so a step costs the
      // size of the distinct objects it reaches, not matches times their width.
      var resolvedObjects: [Int: [(component: ArchiveKeyPath.Component, node: ArchiveNode)]] = [:]
      for match in current {
        let steps: [(component: ArchiveKeyPath.Component, node: ArchiveNode)]
        if case .object(let index) = match.node {
          if let known = resolvedObjects[index] {
            steps = known
          } else {
            steps = resolve(component, from: match.node)
            resolvedObjects[index] = steps
          }
        } else {
          steps = resolve(component, from: match.node)
        }
        for step in steps {
          var choice = match.choice
          if component == .wildcard, case .index(let index) = step.component {
            choices.append((index, match.choice))
            choice = choices.count - 1
          }
          next.append((step.node, choice))
          guard component != .wildcard || next.count <= limits.maximumKeyPathMatches else {
            throw KeyedArchiveError(
              .limitExceeded, at: path.description,
              "key path '\(path)' matches more than \(limits.maximumKeyPathMatches) values")
          }
        }
      }
      current = next
      if current.isEmpty { break }
    }
    return current.map { match in
      // Every step other than a wildcard reaches its node by the path's own
      // component, and every match took one index at each wildcard.
      var taken: [Int] = []
      var choice = match.choice
      while choice >= 0 {
        taken.append(choices[choice].index)
        choice = choices[choice].previous
      }
      var components = path.components
      for position in components.indices where components[position] == .wildcard {
        components[position] = taken.popLast().map { .index($0) } ?? .wildcard
      }
      return KeyPathMatch(
        path: ArchiveKeyPath(topKey: path.topKey, components: components), node: match.node)
    }
  }

  /// The nodes one step of a key path reaches from a node, each with the concrete step.
  private func resolve(_ component: ArchiveKeyPath.Component, from node: ArchiveNode) -> [(
    component: ArchiveKeyPath.Component, node: ArchiveNode
  )] {
    // Values are indexed directly: an array stored in `$objects` can be reached
    // through many references, and listing its children each time would cost
    // matches times its width.
    switch (component, node) {
    case (.index(let index), .value(let value)):
      guard case .array(let elements) = value, index < elements.count else { return [] }
      return [(.index(index), self.node(for: elements[index]))]
    case (.key(let key), .value(let value)):
      guard case .dictionary(let dictionary) = value, let child = dictionary[key] else { return [] }
      return [(.key(key), self.node(for: child))]
    default:
      break
    }
    switch component {
    case .count:
      guard let count = elementCount(of: node) else { return [] }
      return [(.count, .value(.integer(Int64(count))))]
    case .key(let key):
      for child in children(of: node) where child.component == .key(key) {
        return [(.key(key), self.node(for: child.value))]
      }
      return []
    case .index(let index):
      let elements = children(of: node)
      guard index < elements.count, case .index = elements[index].component else { return [] }
      return [(.index(index), self.node(for: elements[index].value))]
    case .wildcard:
      return children(of: node).compactMap { child in
        guard case .index(let index) = child.component else { return nil }
        return (.index(index), self.node(for: child.value))
      }
    }
  }

  /// The element count of a collection node, or `nil` when the node is not a collection.
  package func elementCount(of node: ArchiveNode) -> Int? {
    switch node {
    case .null:
      return nil
    case .value(.array(let elements)):
      return elements.count
    case .value(.dictionary(let dictionary)):
      return dictionary.count
    case .value(.string(let string)):
      return string.utf16.count
    case .value:
      return nil
    case .object(let index):
      guard let instance = instance(at: index) else { return nil }
      switch foundationForm(of: instance) {
      case .string(let string)?: return string.utf16.count
      case .data(let bytes)?: return bytes.count
      case let form?: return form.elements?.count
      case nil: return nil
      }
    }
  }
}

private struct KeyPathParser {
  let text: [Unicode.Scalar]
  var position = 0

  private var source: String {
    var string = ""
    string.unicodeScalars.append(contentsOf: text)
    return string
  }

  private func error(_ message: String) -> KeyPathError {
    KeyPathError(path: source, offset: position, message: message)
  }

  mutating func parse() throws(KeyPathError) -> (String, [ArchiveKeyPath.Component]) {
    guard !text.isEmpty else { throw error("empty key path") }
    var components: [ArchiveKeyPath.Component] = []
    var expectingName = true
    while position < text.count {
      let scalar = text[position]
      if scalar == "[" {
        components.append(try parseBracket())
        expectingName = false
      } else if scalar == "." {
        guard !expectingName, position + 1 < text.count else {
          throw error("a '.' must come between two steps")
        }
        position += 1
        expectingName = true
      } else {
        guard expectingName else { throw error("expected '.' or '[' before '\(scalar)'") }
        let name = parseName()
        guard !name.isEmpty else { throw error("expected a name") }
        components.append(name == "@count" ? .count : .key(name))
        expectingName = false
      }
    }
    guard !expectingName || components.isEmpty == false else {
      throw error("the key path ends where a step is expected")
    }
    var top = "root"
    if case .key("$top")? = components.first {
      guard components.count >= 2, case .key(let name) = components[1] else {
        throw KeyPathError(path: source, offset: 0, message: "'$top' must be followed by a key")
      }
      top = name
      components.removeFirst(2)
    }
    return (top, components)
  }

  private mutating func parseName() -> String {
    var name = ""
    while position < text.count, text[position] != ".", text[position] != "[" {
      name.unicodeScalars.append(text[position])
      position += 1
    }
    return name
  }

  private mutating func parseBracket() throws(KeyPathError) -> ArchiveKeyPath.Component {
    let start = position
    position += 1
    guard position < text.count else {
      position = start
      throw error("unterminated '['")
    }
    if text[position] == "*" {
      position += 1
      guard position < text.count, text[position] == "]" else {
        throw error("expected ']' after '*'")
      }
      position += 1
      return .wildcard
    }
    if text[position] == "\"" {
      position += 1
      var key = ""
      while position < text.count, text[position] != "\"" {
        if text[position] == "\\" {
          position += 1
          guard position < text.count else { break }
        }
        key.unicodeScalars.append(text[position])
        position += 1
      }
      guard position + 1 < text.count, text[position] == "\"", text[position + 1] == "]" else {
        position = start
        throw error("unterminated quoted key")
      }
      position += 2
      return .key(key)
    }
    var digits = ""
    while position < text.count, text[position] != "]" {
      digits.unicodeScalars.append(text[position])
      position += 1
    }
    guard position < text.count else {
      position = start
      throw error("unterminated '['")
    }
    guard let index = Int(digits), index >= 0, digits.count <= 18 else {
      position = start + 1
      throw error("'\(digits)' is not an index, '*' or a quoted key")
    }
    position += 1
    return .index(index)
  }
}
