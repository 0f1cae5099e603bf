import Foundation

/// The result of loading a manifest: the model, when the document is usable, and every problem.
package struct ManifestLoadResult: Sendable {
  /// The manifest, when it parsed and followed the schema (semantic errors may remain).
  package var manifest: Manifest?
  /// Every problem found, in the order found.
  package var diagnostics: [ManifestDiagnostic]
  /// Whether the manifest loaded with no errors at all.
  package var isValid: Bool { manifest != nil && !diagnostics.containsErrors }
}
