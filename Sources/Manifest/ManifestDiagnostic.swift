import HarnessVocabulary

/// A problem found while reading, validating or checking a manifest.
///
/// Printed as `manifests/v1.xml:14:7: error: [schema] message`.
public struct ManifestDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How serious the problem is.
  public var severity: Severity
  /// The stage that found it.
  public var category: DiagnosticCategory
  /// Where it is.
  public var location: ManifestLocation
  /// What is wrong, in lowercase words.
  public var message: String

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ category: DiagnosticCategory, at location: ManifestLocation,
    _ message: String
  ) {
    self.severity = severity
    self.category = category
    self.location = location
    self.message = message
  }

  /// The diagnostic as `file:line:col: severity: [category] message`.
  public var description: String {
    "\(location): \(severity): [\(category)] \(message)"
  }
}

extension DiagnosticCategory {
  /// The file could not be read.
  public static let io = DiagnosticCategory(rawValue: "io")
  /// The text is not well-formed XML, or uses a forbidden construct such as a DOCTYPE.
  public static let xml = DiagnosticCategory(rawValue: "xml")
  /// The document does not follow the XSD.
  public static let schema = DiagnosticCategory(rawValue: "schema")
  /// The XSD itself could not be loaded.
  public static let schemaFile = DiagnosticCategory(rawValue: "schema-file")
  /// A rule the XSD cannot express, such as a missing archive or a bad key path.
  public static let semantic = DiagnosticCategory(rawValue: "semantic")
}

extension [ManifestDiagnostic] {
  /// Whether any of the diagnostics is an error.
  public var containsErrors: Bool { contains { $0.severity == .error } }
}
