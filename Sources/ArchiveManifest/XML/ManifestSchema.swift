/// The manifest vocabulary: its namespace, version and XSD.
///
/// The XSD is compiled into the library (`Source.builtIn`), so every command
/// and every team's executable validates manifests with no file on disk.
/// `manifests/schema/archive-manifest.xsd` stays the readable source:
/// `scripts/embed-schema` copies it into `ManifestSchema+BuiltIn.swift`, and a
/// test fails while the two differ.
///
/// ```swift
/// let result = ManifestLoader.load(
///   path: "manifests/Notes-1.0.xml", archivesDirectory: "LegacyArchives")
/// // The same, against a schema under development:
/// let draft = ManifestLoader.load(
///   path: "manifests/Notes-1.0.xml", archivesDirectory: "LegacyArchives",
///   schema: .file("draft/archive-manifest.xsd"))
/// ```
public enum ManifestSchema {
  /// The namespace of every manifest element.
  public static let namespace = "urn:archive-harness:manifest:1"
  /// The only schema version that exists.
  public static let version = "1"
  /// Where the readable source of the built-in schema lives in this repository.
  public static let relativePath = "manifests/schema/archive-manifest.xsd"

  /// Which XSD validates a manifest.
  public enum Source: Sendable, Hashable, CustomStringConvertible {
    /// The schema compiled into the library; what every command uses unless told otherwise.
    case builtIn
    /// An XSD file, such as one passed with `--schema FILE`.
    case file(String)

    /// The name diagnostics give the schema: its path, or `<built-in schema>`.
    public var description: String {
      switch self {
      case .builtIn: return "<built-in schema>"
      case .file(let path): return path
      }
    }
  }

  /// The built-in XSD, exactly as `manifests/schema/archive-manifest.xsd` holds it.
  ///
  /// ```swift
  /// print(ManifestSchema.builtInXSD)  // to publish or diff the schema the tool validates with
  /// ```
  public static var builtInXSD: String { builtInText }
}
