/// A schema check that could not run: the document is not JSON, the schema is unusable, or
/// `python3` or its `jsonschema` is missing.
public struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, as `scripts/check-json-schema` said it.
  public var message: String

  /// The error's message.
  public var description: String { message }
}
