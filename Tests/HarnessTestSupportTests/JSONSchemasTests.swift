import Foundation
import HarnessTestSupport
import Testing

/// The schema check the tests use, `JSONSchemas` running Python's `jsonschema`: that it passes
/// what follows a schema and reports, with its place, what does not.
@Suite("JSON Schema checks (Python's jsonschema)")
struct JSONSchemasTests {
  /// A schema with the keywords the shipped schemas use, and `pattern`.
  static let schema = ##"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "title": "a record",
      "type": "object",
      "required": ["kind", "count"],
      "additionalProperties": false,
      "properties": {
        "kind": {"enum": ["a", "b"]},
        "count": {"type": "integer", "minimum": 0},
        "version": {"const": 2},
        "tags": {"type": "array", "items": {"type": "string"}},
        "note": {"type": ["string", "null"]},
        "shape": {"oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}]},
        "size": {"anyOf": [{"type": "number"}, {"enum": ["nan", "inf"]}]},
        "extra": {"type": "object", "additionalProperties": {"type": "boolean"}},
        "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"}
      },
      "$defs": {
        "Circle": {"type": "object", "required": ["radius"], "properties": {"radius": {"type": "number"}}},
        "Square": {"type": "object", "required": ["side"], "properties": {"side": {"type": "number"}}}
      }
    }
    """##

  /// The violations of a text against a schema given as text.
  private func violations(_ text: String, schema: String = Self.schema) throws
    -> [JSONSchemaViolation]
  {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "json-schemas-test-\(UUID().uuidString).json")
    try Data(schema.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try JSONSchemas.violations(of: text, againstSchemaAt: file.path)
  }

  @Test(
    "Documents that follow the schema have no violations",
    arguments: [
      #"{"kind": "a", "count": 0}"#,
      #"{"kind": "b", "count": 3.0, "version": 2, "tags": ["x", "y"], "note": null}"#,
      #"{"kind": "a", "count": 1, "note": "n", "shape": {"radius": 1}, "size": "inf"}"#,
      #"{"kind": "a", "count": 1, "shape": {"side": 2}, "size": 1.5, "extra": {"x": true}}"#,
      #"{"kind": "a", "count": 1, "digest": "\#(String(repeating: "0f", count: 32))"}"#,
    ])
  func validDocuments(text: String) throws {
    let found = try violations(text)
    #expect(found.isEmpty, "\(found)")
  }

  @Test("A missing required member is a violation at its object, named in the message")
  func missingRequired() throws {
    let found = try violations(#"{"kind": "a"}"#)
    #expect(found.map(\.path) == [""])
    #expect(found.first?.description.hasPrefix("/: ") == true)
    #expect(found.first?.message.contains("'count'") == true)
  }

  @Test("A member the schema does not declare is a violation, named in the message")
  func undeclaredMember() throws {
    let found = try violations(#"{"kind": "a", "count": 1, "other": 1}"#)
    #expect(found.map(\.path) == [""])
    #expect(found.first?.message.contains("'other'") == true)
  }

  @Test(
    "A value that breaks its subschema is a violation at its JSON pointer",
    arguments: [
      (#"{"kind": "a", "count": "1"}"#, "/count"),  // another type
      (#"{"kind": "a", "count": true}"#, "/count"),  // a boolean is not an integer
      (#"{"kind": "a", "count": 1.5}"#, "/count"),  // a fraction is not an integer
      (#"{"kind": "a", "count": -1}"#, "/count"),  // below the minimum
      (#"{"kind": "c", "count": 1}"#, "/kind"),  // outside the enumeration
      (#"{"kind": "a", "count": 1, "version": 1}"#, "/version"),  // other than the constant
      (#"{"kind": "a", "count": 1, "tags": ["x", 2]}"#, "/tags/1"),  // an element, at its index
      (#"{"kind": "a", "count": 1, "shape": {"edge": 1}}"#, "/shape"),  // no oneOf alternative
      (#"{"kind": "a", "count": 1, "size": "big"}"#, "/size"),  // no anyOf alternative
      (#"{"kind": "a", "count": 1, "extra": {"x": 1}}"#, "/extra/x"),  // additionalProperties
      (#"{"kind": "a", "count": 1, "digest": "D1GEST"}"#, "/digest"),  // pattern
    ])
  func violationAtPointer(text: String, path: String) throws {
    let found = try violations(text)
    #expect(found.map(\.path) == [path])
    #expect(found.allSatisfy { !$0.message.isEmpty })
  }

  @Test("A value that matches two oneOf alternatives is a violation")
  func twoOneOfAlternatives() throws {
    let found = try violations(#"{"kind": "a", "count": 1, "shape": {"radius": 1, "side": 1}}"#)
    #expect(found.map(\.path) == ["/shape"])
    #expect(found.first?.message.contains("valid under each of") == true)
  }

  @Test("A value that matches no oneOf alternative names a closest miss inside it")
  func closestMiss() throws {
    // Which alternative's error is closest is jsonschema's heuristic (best_match).
    let found = try violations(#"{"kind": "a", "count": 1, "shape": {"radius": "one"}}"#)
    #expect(found.map(\.path) == ["/shape"])
    #expect(found.first?.message.contains("(closest: /shape") == true, "\(found)")
  }

  @Test("Every violation is reported, each with its place")
  func everyViolation() throws {
    let found = try violations(#"{"kind": "c", "count": -1, "tags": [1]}"#)
    #expect(Set(found.map(\.path)) == ["/kind", "/count", "/tags/0"])
  }

  @Test(
    "A schema the check cannot use is refused, not applied in part",
    arguments: [
      #"{"type": "string", "patern": "a*"}"#,  // a keyword draft 2020-12 does not define
      ##"{"$ref": "#/$defs/Missing"}"##,  // a reference that leads nowhere
      #"{"type": "text"}"#,  // an unknown type name
      ##"{"$defs": {"A": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}"##,  // a reference loop
      #"{"type": "object",}"#,  // not JSON
    ])
  func unusableSchemaIsRefused(schema: String) {
    #expect(throws: JSONSchemaError.self) { try violations("null", schema: schema) }
  }

  @Test(
    "A document that is not strict JSON is refused",
    arguments: [#"{"kind": "a", "kind": "b", "count": 1}"#, #"{"count": NaN}"#, "{", ""])
  func notJSONIsRefused(text: String) {
    #expect(throws: JSONSchemaError.self) { try violations(text) }
  }

  @Test("The false schema allows nothing and the true schema everything")
  func booleanSchemas() throws {
    #expect(try !violations("null", schema: "false").isEmpty)
    #expect(try violations("null", schema: "true").isEmpty)
  }

  @Test(
    "Every shipped schema is a valid schema and reports a document that breaks it",
    arguments: JSONSchemas.Name.allCases)
  func shippedSchemasCheck(name: JSONSchemas.Name) throws {
    let found = try JSONSchemas.violations(of: #"{"serializationVersion": -1}"#, against: name)
    #expect(found.contains { $0.path == "/serializationVersion" }, "\(found)")
    #expect(found.contains { $0.path == "" && $0.message.contains("required property") })
  }
}
