import HarnessJSONOutput
import HarnessTestSupport
import Testing

@Suite("JSON Schema validation")
struct JSONSchemaValidatorTests {
  /// A schema that uses every supported keyword.
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
        "extra": {"type": "object", "additionalProperties": {"type": "boolean"}}
      },
      "$defs": {
        "Circle": {"type": "object", "required": ["radius"], "properties": {"radius": {"type": "number"}}},
        "Square": {"type": "object", "required": ["side"], "properties": {"side": {"type": "number"}}}
      }
    }
    """##

  private func violations(_ text: String) throws -> [JSONSchemaViolation] {
    try JSONSchemaValidator(schema: JSONDocument(parsing: Self.schema))
      .validate(JSONDocument(parsing: text))
  }

  @Test(
    "Documents that follow the schema have no violations",
    arguments: [
      #"{"kind": "a", "count": 0}"#,
      #"{"kind": "b", "count": 3.0, "version": 2, "tags": ["x", "y"], "note": null}"#,
      #"{"kind": "a", "count": 1, "note": "n", "shape": {"radius": 1}, "size": "inf"}"#,
      #"{"kind": "a", "count": 1, "shape": {"side": 2}, "size": 1.5, "extra": {"x": true}}"#,
    ])
  func validDocuments(text: String) throws {
    let found = try violations(text)
    #expect(found.isEmpty, "\(found)")
  }

  @Test("A missing required member is a violation")
  func missingRequired() throws {
    #expect(
      try violations(#"{"kind": "a"}"#).map(\.description) == [
        "/: the required member 'count' is missing"
      ])
  }

  @Test("A member the schema does not declare is a violation")
  func undeclaredMember() throws {
    #expect(try violations(#"{"kind": "a", "count": 1, "other": 1}"#).map(\.path) == ["/other"])
  }

  @Test("A value of another type is a violation")
  func wrongType() throws {
    #expect(try violations(#"{"kind": "a", "count": "1"}"#).map(\.path) == ["/count"])
  }

  @Test("A boolean is not an integer")
  func booleanIsNotInteger() throws {
    #expect(try violations(#"{"kind": "a", "count": true}"#).map(\.path) == ["/count"])
  }

  @Test("A fraction is not an integer")
  func fractionIsNotInteger() throws {
    #expect(try violations(#"{"kind": "a", "count": 1.5}"#).map(\.path) == ["/count"])
  }

  @Test("A number below the minimum is a violation")
  func belowMinimum() throws {
    #expect(try violations(#"{"kind": "a", "count": -1}"#).map(\.path) == ["/count"])
  }

  @Test("A value outside the enumeration is a violation")
  func outsideEnum() throws {
    #expect(try violations(#"{"kind": "c", "count": 1}"#).map(\.path) == ["/kind"])
  }

  @Test("A value other than the constant is a violation")
  func otherThanConst() throws {
    #expect(try violations(#"{"kind": "a", "count": 1, "version": 1}"#).map(\.path) == ["/version"])
  }

  @Test("An array element of the wrong type is a violation at its index")
  func badArrayElement() throws {
    #expect(
      try violations(#"{"kind": "a", "count": 1, "tags": ["x", 2]}"#).map(\.path) == ["/tags/1"])
  }

  @Test("A value that matches no oneOf alternative is a violation")
  func noOneOfAlternative() throws {
    #expect(
      try violations(#"{"kind": "a", "count": 1, "shape": {"edge": 1}}"#).map(\.path) == ["/shape"])
  }

  @Test("A value that matches two oneOf alternatives is a violation")
  func twoOneOfAlternatives() throws {
    let found = try violations(#"{"kind": "a", "count": 1, "shape": {"radius": 1, "side": 1}}"#)
    #expect(found.map(\.path) == ["/shape"])
    #expect(found.first?.message.contains("exactly one") == true)
  }

  @Test("A value that matches no anyOf alternative is a violation")
  func noAnyOfAlternative() throws {
    #expect(try violations(#"{"kind": "a", "count": 1, "size": "big"}"#).map(\.path) == ["/size"])
  }

  @Test("additionalProperties given as a schema checks the undeclared members")
  func additionalPropertiesSchema() throws {
    #expect(
      try violations(#"{"kind": "a", "count": 1, "extra": {"x": 1}}"#).map(\.path) == ["/extra/x"])
  }

  @Test("A schema with an unsupported keyword is refused")
  func refusesUnsupportedKeyword() {
    #expect(throws: JSONSchemaError.self) {
      try JSONSchemaValidator(
        schema: JSONDocument(parsing: #"{"type": "string", "pattern": "a*"}"#))
    }
  }

  @Test("A schema with a reference that leads nowhere is refused")
  func refusesUnresolvableReference() {
    #expect(throws: JSONSchemaError.self) {
      try JSONSchemaValidator(schema: JSONDocument(parsing: ##"{"$ref": "#/$defs/Missing"}"##))
    }
  }

  @Test("A schema with an unknown type name is refused")
  func refusesUnknownType() {
    #expect(throws: JSONSchemaError.self) {
      try JSONSchemaValidator(schema: JSONDocument(parsing: #"{"type": "text"}"#))
    }
  }

  @Test("A reference loop is reported, not followed forever")
  func referenceLoopIsReported() throws {
    let validator = try JSONSchemaValidator(
      schema: JSONDocument(
        parsing: ##"{"$defs": {"A": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}"##))
    #expect(!validator.validate(.null).isEmpty)
  }

  @Test("The false schema allows nothing and the true schema everything")
  func booleanSchemas() throws {
    #expect(!(try JSONSchemaValidator(schema: .bool(false)).validate(.null).isEmpty))
    #expect(try JSONSchemaValidator(schema: .bool(true)).validate(.null).isEmpty)
  }

  @Test(
    "Every shipped schema uses only the supported keywords", arguments: JSONSchemas.Name.allCases)
  func shippedSchemasLoad(name: JSONSchemas.Name) throws {
    _ = try JSONSchemas.validator(name)
  }
}
