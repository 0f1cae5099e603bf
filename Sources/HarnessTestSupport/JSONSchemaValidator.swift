import HarnessJSONOutput

/// Checks JSON documents against a JSON Schema (draft 2020-12), for the keywords the harness's schemas use.
///
/// The subset: `type` (a name or a list), `properties`, `required`,
/// `additionalProperties` (a boolean or a schema), `items`, `enum`, `const`,
/// `$ref` to a JSON pointer in the same document (such as `#/$defs/Path`),
/// `oneOf`, `anyOf` and `minimum`; `$schema`, `$id`, `$defs`, `$comment`,
/// `title` and `description` are read as annotations. A schema that uses any
/// other keyword is refused when the validator is made, so a schema can never
/// seem to pass because a keyword was silently ignored.
///
/// ```swift
/// let validator = try JSONSchemaValidator(schema: JSONDocument(parsing: schemaText))
/// let violations = validator.validate(try JSONDocument(parsing: output))
/// #expect(violations.isEmpty, "\(violations)")
/// ```
public struct JSONSchemaValidator: Sendable {
  /// The keywords the validator understands; any other is refused.
  public static let supportedKeywords: Set<String> = [
    "$schema", "$id", "$defs", "$comment", "$ref", "title", "description", "type", "properties",
    "required", "additionalProperties", "items", "enum", "const", "oneOf", "anyOf", "minimum",
  ]

  /// The type names `type` may use.
  public static let typeNames: Set<String> = [
    "object", "array", "string", "number", "integer", "boolean", "null",
  ]

  /// The whole schema document, which `$ref` pointers start from.
  public let schema: JSONDocument

  /// How deep references and subschemas may nest while one value is checked, against `$ref` loops.
  private let maximumDepth = 256

  /// Creates a validator after checking that the schema uses only the supported subset.
  ///
  /// - Parameter schema: The schema document.
  /// - Throws: ``JSONSchemaError`` naming the first unsupported or malformed keyword.
  public init(schema: JSONDocument) throws(JSONSchemaError) {
    self.schema = schema
    try check(schema, at: "#")
  }

  /// Checks a document and returns every violation, in document order; none means it is valid.
  ///
  /// - Parameter instance: The document to check.
  /// - Returns: The violations, each with its JSON pointer.
  public func validate(_ instance: JSONDocument) -> [JSONSchemaViolation] {
    validate(instance, against: schema, at: "", depth: 0)
  }

  // MARK: - Checking the schema

  private func check(_ node: JSONDocument, at path: String) throws(JSONSchemaError) {
    switch node {
    case .bool: return
    case .object(let members):
      for (keyword, value) in members.sorted(by: { $0.key < $1.key }) {
        let here = path + "/" + keyword
        guard Self.supportedKeywords.contains(keyword) else {
          throw JSONSchemaError(path: here, message: "unsupported keyword '\(keyword)'")
        }
        try check(keyword: keyword, value, at: here)
      }
    default:
      throw JSONSchemaError(path: path, message: "a schema must be an object or a boolean")
    }
  }

  private func check(keyword: String, _ value: JSONDocument, at path: String)
    throws(JSONSchemaError)
  {
    switch (keyword, value) {
    case ("$defs", .object(let members)), ("properties", .object(let members)):
      for (name, member) in members { try check(member, at: path + "/" + name) }
    case ("additionalProperties", _), ("items", _):
      try check(value, at: path)
    case ("oneOf", .array(let members)), ("anyOf", .array(let members)):
      guard !members.isEmpty else { throw JSONSchemaError(path: path, message: "an empty list") }
      for (index, member) in members.enumerated() { try check(member, at: "\(path)/\(index)") }
    case ("$ref", .string(let reference)):
      guard resolve(reference) != nil else {
        throw JSONSchemaError(path: path, message: "unresolvable reference '\(reference)'")
      }
    case ("type", .string(let name)):
      guard Self.typeNames.contains(name) else {
        throw JSONSchemaError(path: path, message: "unknown type '\(name)'")
      }
    case ("type", .array(let names)):
      for name in names {
        guard case .string(let text) = name, Self.typeNames.contains(text) else {
          throw JSONSchemaError(path: path, message: "unknown type \(name)")
        }
      }
    case ("required", .array(let names)):
      guard names.allSatisfy({ if case .string = $0 { true } else { false } }) else {
        throw JSONSchemaError(path: path, message: "required must list member names")
      }
    case ("enum", .array), ("const", _), ("minimum", .number), ("$schema", .string),
      ("$id", .string), ("$comment", .string), ("title", .string), ("description", .string):
      return
    default:
      throw JSONSchemaError(path: path, message: "a malformed '\(keyword)'")
    }
  }

  /// The subschema a `#…` JSON pointer names, or `nil`.
  private func resolve(_ reference: String) -> JSONDocument? {
    guard reference.hasPrefix("#") else { return nil }
    let pointer = reference.dropFirst()
    guard !pointer.isEmpty else { return schema }
    guard pointer.hasPrefix("/") else { return nil }
    var node = schema
    for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      let name = token.replacingOccurrences(of: "~1", with: "/")
        .replacingOccurrences(of: "~0", with: "~")
      switch node {
      case .object(let members):
        guard let next = members[name] else { return nil }
        node = next
      case .array(let elements):
        guard let index = Int(name), elements.indices.contains(index) else { return nil }
        node = elements[index]
      default:
        return nil
      }
    }
    return node
  }

  // MARK: - Checking instances

  private func validate(
    _ instance: JSONDocument, against subschema: JSONDocument, at path: String, depth: Int
  ) -> [JSONSchemaViolation] {
    guard depth < maximumDepth else {
      return [JSONSchemaViolation(path: path, message: "schema references nest too deeply")]
    }
    guard case .object(let keywords) = subschema else {
      return subschema == .bool(false)
        ? [JSONSchemaViolation(path: path, message: "no value is allowed here")] : []
    }
    var violations: [JSONSchemaViolation] = []
    func fail(_ message: String) {
      violations.append(JSONSchemaViolation(path: path, message: message))
    }
    if case .string(let reference)? = keywords["$ref"], let target = resolve(reference) {
      violations += validate(instance, against: target, at: path, depth: depth + 1)
    }
    if let type = keywords["type"], !matches(instance, type: type) {
      fail("expected \(Self.typeText(type)), found \(instance.typeName) \(instance)")
    }
    if case .array(let allowed)? = keywords["enum"],
      !allowed.contains(instance)
    {
      fail("\(instance) is not one of \(allowed.map(\.description).joined(separator: ", "))")
    }
    if let constant = keywords["const"], constant != instance {
      fail("expected \(constant), found \(instance)")
    }
    if case .number(let minimum)? = keywords["minimum"], case .number(let value) = instance,
      value < minimum
    {
      fail("\(instance) is less than the minimum \(JSONDocument.number(minimum))")
    }
    if case .object(let members) = instance {
      violations += validateObject(members, keywords, at: path, depth: depth)
    }
    if case .array(let elements) = instance, let items = keywords["items"] {
      for (index, element) in elements.enumerated() {
        violations += validate(element, against: items, at: "\(path)/\(index)", depth: depth + 1)
      }
    }
    if case .array(let alternatives)? = keywords["anyOf"] {
      let results = alternatives.map { validate(instance, against: $0, at: path, depth: depth + 1) }
      if !results.contains(where: \.isEmpty) {
        fail("matches none of the \(alternatives.count) anyOf alternatives" + Self.closest(results))
      }
    }
    if case .array(let alternatives)? = keywords["oneOf"] {
      let results = alternatives.map { validate(instance, against: $0, at: path, depth: depth + 1) }
      let passing = results.count(where: \.isEmpty)
      if passing == 0 {
        fail("matches none of the \(alternatives.count) oneOf alternatives" + Self.closest(results))
      } else if passing > 1 {
        fail("matches \(passing) of the oneOf alternatives; exactly one must match")
      }
    }
    return violations
  }

  private func validateObject(
    _ members: [String: JSONDocument], _ keywords: [String: JSONDocument], at path: String,
    depth: Int
  ) -> [JSONSchemaViolation] {
    var violations: [JSONSchemaViolation] = []
    if case .array(let names)? = keywords["required"] {
      for case .string(let name) in names where members[name] == nil {
        violations.append(
          JSONSchemaViolation(path: path, message: "the required member '\(name)' is missing"))
      }
    }
    var properties: [String: JSONDocument] = [:]
    if case .object(let declared)? = keywords["properties"] { properties = declared }
    for (name, value) in members.sorted(by: { $0.key < $1.key }) {
      let here = path + "/" + Self.escapePointer(name)
      if let property = properties[name] {
        violations += validate(value, against: property, at: here, depth: depth + 1)
      } else if let additional = keywords["additionalProperties"] {
        if additional == .bool(false) {
          violations.append(
            JSONSchemaViolation(path: here, message: "the member '\(name)' is not allowed"))
        } else {
          violations += validate(value, against: additional, at: here, depth: depth + 1)
        }
      }
    }
    return violations
  }

  private func matches(_ instance: JSONDocument, type: JSONDocument) -> Bool {
    switch type {
    case .string(let name):
      return name == instance.typeName || (name == "integer" && instance.isInteger)
    case .array(let names):
      return names.contains { matches(instance, type: $0) }
    default:
      return false
    }
  }

  private static func typeText(_ type: JSONDocument) -> String {
    switch type {
    case .string(let name): name
    case .array(let names): names.map(\.description).joined(separator: " or ")
    default: "\(type)"
    }
  }

  /// The violations of the alternative that came closest, to say why none matched.
  private static func closest(_ results: [[JSONSchemaViolation]]) -> String {
    guard let best = results.min(by: { $0.count < $1.count }), let first = best.first else {
      return ""
    }
    return " (closest: \(first))"
  }

  private static func escapePointer(_ name: String) -> String {
    name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}
