/// One way a document breaks its schema: where, and how.
package struct JSONSchemaViolation: Sendable, Hashable, CustomStringConvertible {
  /// The JSON pointer of the offending value, such as `/cases/0/status`; empty for the root.
  package var path: String
  /// What is wrong, as `jsonschema` says it, such as `None is not of type 'string'`.
  package var message: String

  /// The violation as `POINTER: message`.
  package var description: String { "\(path.isEmpty ? "/" : path): \(message)" }
}
