import ArchiveFormat

/// A problem found while reading, validating or checking a manifest.
///
/// Printed as `manifests/v1.xml:14:7: error: [schema] message`.
public struct ManifestDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How serious the problem is.
  public var severity: Severity
  /// The stage that found it.
  public var category: DiagnosticCategory
  /// Where it is.
  public var location: Place
  /// What is wrong, in lowercase words.
  public var message: String

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ category: DiagnosticCategory, at location: Place,
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

  /// The category of a diagnostic about an archive that was read but does not parse: the
  /// rejection's own category, such as `[truncated]` or `[malformed]`, never ``io``, which
  /// means the file could not be read at all.
  ///
  /// ```swift
  /// DiagnosticCategory.archive(.truncated)  // [truncated]
  /// ```
  ///
  /// - Parameter rejection: Why the archive does not read, as a decode path would reject it.
  /// - Returns: The category, named as the rejection is.
  public static func archive(_ rejection: RejectionCategory) -> DiagnosticCategory {
    DiagnosticCategory(rawValue: rejection.rawValue)
  }

  /// The category of a diagnostic about an archive whose bytes do not parse: `[truncated]`,
  /// `[unknown-schema-version]`, `[limit-exceeded]` or `[malformed]`
  /// (`RejectionCategory(structural:)`).
  ///
  /// ```swift
  /// do { _ = try KeyedArchive(bytes: bytes) } catch {
  ///   ManifestDiagnostic(.warning, .archive(error), at: location, "not a keyed archive")
  /// }
  /// ```
  ///
  /// - Parameter error: Why the archive does not read.
  /// - Returns: The category.
  public static func archive(_ error: KeyedArchiveError) -> DiagnosticCategory {
    archive(RejectionCategory(structural: error))
  }
}

extension [ManifestDiagnostic] {
  /// Whether any of the diagnostics is an error.
  public var containsErrors: Bool { contains { $0.severity == .error } }
}
