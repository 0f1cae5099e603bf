/// How serious a diagnostic is.
///
/// ```swift
/// console.diagnose(.warning, place: "manifests/v1.xml:3:5", category: .semantic, "unused class")
/// ```
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// The input cannot be used as it is.
  case error
  /// The input works, but probably not as meant.
  case warning
  /// Extra information attached to another diagnostic.
  case note

  /// The severity's name, such as `warning`.
  public var description: String { rawValue }
}
