import ArchiveFormat
import HarnessTestSupport

/// A workflow's YAML, read by PyYAML as GitHub Actions reads it, then by the harness's JSON reader.
///
/// `scripts/yaml-to-json` does the reading: only `true` and `false` are booleans, so `on:` is a
/// key, and a repeated key is refused. Mappings become objects, which keep no order.
///
/// ```swift
/// let workflow = try WorkflowYAML.parse("on:\n  push:\n")
/// workflow["on"]?["push"]  // .null
/// ```
enum WorkflowYAML {
  /// Why a text is not YAML, as PyYAML says it, at a line counted from 1.
  struct SyntaxError: Error, Equatable, CustomStringConvertible {
    let line: Int
    let message: String

    var description: String { "line \(line): \(message)" }
  }

  /// `scripts/yaml-to-json` could not read the text: no python3 or PyYAML, or a value JSON
  /// cannot hold.
  struct ReadError: Error, CustomStringConvertible {
    let description: String
  }

  /// Reads one YAML document.
  ///
  /// - Parameter text: The YAML.
  /// - Returns: The document as JSON; ``JSONDocument/null`` for an empty document.
  /// - Throws: ``SyntaxError`` naming the line PyYAML stopped at, or ``ReadError``.
  static func parse(_ text: String) throws -> JSONDocument {
    let result = try PythonScript.run("yaml-to-json", on: text)
    if result.status == 0 { return try JSONDocument(parsing: result.stdout) }
    let said = PythonScript.failure(result)
    let prefix = "yaml-to-json: line "
    if result.status == 1, said.hasPrefix(prefix) {
      let rest = said.dropFirst(prefix.count)
      if let colon = rest.firstIndex(of: ":"), let line = Int(rest[..<colon]) {
        let message = rest[rest.index(after: colon)...].drop { $0 == " " }
        throw SyntaxError(line: line, message: String(message))
      }
    }
    throw ReadError(description: said)
  }
}

extension JSONDocument {
  /// The string's text, or nil.
  var text: String? {
    guard case .string(let text) = self else { return nil }
    return text
  }

  /// The array's elements, or nil.
  var elements: [JSONDocument]? {
    guard case .array(let elements) = self else { return nil }
    return elements
  }

  /// The object's members, or nil.
  var members: [String: JSONDocument]? {
    guard case .object(let members) = self else { return nil }
    return members
  }
}
