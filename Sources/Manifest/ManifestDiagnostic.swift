/// A problem found while reading, validating or checking a manifest.
///
/// Printed as `manifests/v1.xml:14:7: error: [schema] message`.
public struct ManifestDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How serious a diagnostic is.
  public enum Severity: String, Sendable, Hashable {
    /// The manifest cannot be used as it is.
    case error
    /// The manifest works, but probably not as meant.
    case warning
    /// Extra information attached to another diagnostic.
    case note
  }

  /// The stage that found a problem.
  public struct Category: RawRepresentable, Sendable, Hashable {
    /// The category's name, as printed between brackets.
    public var rawValue: String
    /// Creates a category from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The file could not be read.
    public static let io = Category(rawValue: "io")
    /// The text is not well-formed XML, or uses a forbidden construct such as a DOCTYPE.
    public static let xml = Category(rawValue: "xml")
    /// The document does not follow the XSD.
    public static let schema = Category(rawValue: "schema")
    /// The XSD itself could not be loaded.
    public static let schemaFile = Category(rawValue: "schema-file")
    /// A rule the XSD cannot express, such as a missing archive or a bad key path.
    public static let semantic = Category(rawValue: "semantic")
  }

  /// How serious the problem is.
  public var severity: Severity
  /// The stage that found it.
  public var category: Category
  /// Where it is.
  public var location: ManifestLocation
  /// What is wrong, in lowercase words.
  public var message: String

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ category: Category, at location: ManifestLocation, _ message: String
  ) {
    self.severity = severity
    self.category = category
    self.location = location
    self.message = message
  }

  /// The diagnostic as `file:line:col: severity: [category] message`.
  public var description: String {
    "\(location): \(severity.rawValue): [\(category.rawValue)] \(message)"
  }
}

extension [ManifestDiagnostic] {
  /// Whether any of the diagnostics is an error.
  public var containsErrors: Bool { contains { $0.severity == .error } }
}
