/// The manifest vocabulary: its namespace, version and XSD file.
///
/// The XSD is not compiled into the module. It is read at run time from
/// `manifests/schema/archive-manifest.xsd`, the one file the repository keeps,
/// so the schema that validates and the schema that is published cannot drift
/// apart. Callers pass its path; ``defaultPath(repositoryRoot:)`` builds the
/// usual one.
public enum ManifestSchema {
  /// The namespace of every manifest element.
  public static let namespace = "urn:archive-harness:manifest:1"
  /// The only schema version that exists.
  public static let version = "1"
  /// The schema's path relative to the repository root.
  public static let relativePath = "manifests/schema/archive-manifest.xsd"

  /// Returns the XSD path inside a repository checkout.
  ///
  /// - Parameter repositoryRoot: The folder that holds `Package.swift`.
  /// - Returns: `repositoryRoot/manifests/schema/archive-manifest.xsd`.
  public static func defaultPath(repositoryRoot: String) -> String {
    let root = repositoryRoot.hasSuffix("/") ? String(repositoryRoot.dropLast()) : repositoryRoot
    return root.isEmpty ? relativePath : "\(root)/\(relativePath)"
  }
}
