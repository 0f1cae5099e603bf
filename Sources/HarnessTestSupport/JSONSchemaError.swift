/// A schema the validator cannot use: an unsupported keyword, or a malformed one.
public struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Where in the schema, as a `#/…` pointer.
  public var path: String
  /// What is wrong.
  public var message: String

  /// The error as `POINTER: message`.
  public var description: String { "\(path): \(message)" }
}
