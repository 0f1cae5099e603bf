import Foundation

/// The result of loading a manifest: the model, when the document is usable, and every problem.
public struct ManifestLoadResult: Sendable {
  /// The manifest, when it parsed and followed the schema (semantic errors may remain).
  public var manifest: Manifest?
  /// Every problem found, in the order found.
  public var diagnostics: [ManifestDiagnostic]
  /// Whether the manifest loaded with no errors at all.
  public var isValid: Bool { manifest != nil && !diagnostics.containsErrors }
}
