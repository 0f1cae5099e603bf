/// Where a value sits in a property list: the dictionary keys and array indexes from the root.
///
/// Its text form, which messages, reports and a store manifest's
/// `<accepted key="…">` use, puts a dot between dictionary keys and writes an
/// array index as `[N]`: `profile.current`, `recent[2]`, `[0].name` (an array
/// root). A key is written as it is unless it is empty or holds `.`, `[`, `]`,
/// `"`, `\` or a control character; then it is written in double quotes, with
/// `\"` and `\\` for a quote and a backslash, `\n`, `\r`, `\t` for those
/// characters and `\u{1B}` (hexadecimal) for any other control character. So
/// every key path has one text form, and the text names one key path:
///
/// ```swift
/// let path = PropertyListKeyPath([.key("NSWindow Frame main.window"), .key("recent"), .index(2)])
/// path.description  // "\"NSWindow Frame main.window\".recent[2]"
/// PropertyListKeyPath(parsing: path.description) == path  // true
/// ```
package struct PropertyListKeyPath: Hashable, Sendable, CustomStringConvertible {
  /// One step from a container to a value in it.
  package enum Component: Hashable, Sendable {
    /// A dictionary's key.
    case key(String)
    /// An array's index, from 0.
    case index(Int)
  }

  /// The steps from the root, outermost first; empty for the root itself.
  package var components: [Component]

  /// Creates a key path from its steps.
  ///
  /// - Parameter components: The steps from the root, outermost first.
  package init(_ components: [Component] = []) {
    self.components = components
  }

  /// This key path with one more step.
  ///
  /// - Parameter component: The step into the value this path names.
  /// - Returns: The longer path.
  package func appending(_ component: Component) -> PropertyListKeyPath {
    PropertyListKeyPath(components + [component])
  }

  /// The text form: `profile.current`, `recent[2]`, `"a.b"[0]`; empty for the root.
  package var description: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += Self.quotedIfNeeded(key)
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }

  /// Reads the text form back; `nil` when the text is not one.
  ///
  /// - Parameter text: A key path's `description`.
  package init?(parsing text: String) {
    var components: [Component] = []
    for step in Self.steps(parsing: text, wildcards: false) ?? [nil] {
      guard let step else { return nil }
      components.append(step)
    }
    self.init(components)
  }

  /// The steps of a key path's text form; a step is nil for `[*]` (when `wildcards` allows it),
  /// and the result nil when the text is not a key path.
  static func steps(parsing text: String, wildcards: Bool) -> [Component?]? {
    var scalars = Array(text.unicodeScalars)[...]
    var components: [Component?] = []
    while let first = scalars.first {
      if first == "[" {
        scalars.removeFirst()
        if wildcards, scalars.first == "*" {
          scalars.removeFirst()
          guard scalars.first == "]" else { return nil }
          scalars.removeFirst()
          components.append(nil)
          continue
        }
        var digits = ""
        while let digit = scalars.first, ("0"..."9").contains(digit) {
          digits.unicodeScalars.append(digit)
          scalars.removeFirst()
        }
        guard scalars.first == "]", let index = Int(digits), String(index) == digits else {
          return nil
        }
        scalars.removeFirst()
        components.append(.index(index))
        continue
      }
      if !components.isEmpty {
        // After the first step, a key follows a dot.
        guard first == "." else { return nil }
        scalars.removeFirst()
      }
      if scalars.first == "\"" {
        scalars.removeFirst()
        guard let key = Self.readQuoted(&scalars) else { return nil }
        components.append(.key(key))
      } else {
        var key = ""
        while let scalar = scalars.first, !Self.needsQuotes(scalar) {
          key.unicodeScalars.append(scalar)
          scalars.removeFirst()
        }
        guard !key.isEmpty else { return nil }
        components.append(.key(key))
      }
    }
    return components
  }

  /// Whether a character in a key makes the key be written in quotes.
  private static func needsQuotes(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case ".", "[", "]", "\"", "\\": true
    default: scalar.value < 0x20 || scalar.value == 0x7F
    }
  }

  /// A key as the text form writes it: bare, or quoted with escapes.
  private static func quotedIfNeeded(_ key: String) -> String {
    guard key.isEmpty || key.unicodeScalars.contains(where: needsQuotes) else { return key }
    var text = "\""
    for scalar in key.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text + "\""
  }

  /// Reads a quoted key after its opening quote, through its closing quote.
  private static func readQuoted(_ scalars: inout ArraySlice<Unicode.Scalar>) -> String? {
    var key = ""
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\"":
        return key
      case "\\":
        guard let escaped = scalars.popFirst() else { return nil }
        switch escaped {
        case "\"", "\\": key.unicodeScalars.append(escaped)
        case "n": key += "\n"
        case "r": key += "\r"
        case "t": key += "\t"
        case "u":
          guard scalars.popFirst() == "{" else { return nil }
          var hex = ""
          while true {
            guard let digit = scalars.popFirst() else { return nil }
            if digit == "}" { break }
            hex.unicodeScalars.append(digit)
          }
          guard !hex.isEmpty, hex.count <= 8, let value = UInt32(hex, radix: 16),
            let decoded = Unicode.Scalar(value)
          else { return nil }
          key.unicodeScalars.append(decoded)
        default:
          return nil
        }
      default:
        key.unicodeScalars.append(scalar)
      }
    }
    return nil
  }
}

/// A key path a manifest's `<keyPath>` names, in which `[*]` stands for every element of an
/// array: `recent[*]` matches `recent[0]`, `recent[1]` and every later one, however many a
/// device's property list holds.
///
/// ```swift
/// let pattern = PropertyListKeyPathPattern(parsing: "recent[*]")
/// pattern?.matches(PropertyListKeyPath([.key("recent"), .index(7)]))  // true
/// ```
package struct PropertyListKeyPathPattern: Hashable, Sendable, CustomStringConvertible {
  /// The steps, nil for `[*]`.
  private let steps: [PropertyListKeyPath.Component?]
  /// The text it was read from.
  package let description: String

  /// Reads a pattern; `nil` when the text is not a key path with optional `[*]` steps.
  package init?(parsing text: String) {
    guard let steps = PropertyListKeyPath.steps(parsing: text, wildcards: true) else {
      return nil
    }
    self.steps = steps
    description = text
  }

  /// Whether a key path is one the pattern names.
  package func matches(_ path: PropertyListKeyPath) -> Bool {
    guard path.components.count == steps.count else { return false }
    for (step, component) in zip(steps, path.components) {
      switch (step, component) {
      case (nil, .index): continue
      case (let step?, _) where step == component: continue
      default: return false
      }
    }
    return true
  }
}
