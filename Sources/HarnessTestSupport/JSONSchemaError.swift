/// A schema check that could not run: the document is not JSON, the schema is unusable, or
/// `python3` or its `jsonschema` is missing.
package struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, as `scripts/check-json-schema` said it.
  package var message: String

  /// The error's message.
  package var description: String { message }
}
