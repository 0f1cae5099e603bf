import Foundation

/// What the harness coder made of one archive: the outcome, the live object, and warnings.
///
/// The result holds the decoded object itself, so it is not `Sendable`; hand on ``outcome``.
package struct HarnessDecodeResult {
  /// The outcome, with the decoded object described field by field.
  package let outcome: DecodeOutcome
  /// The decoded root object, for re-encoding or comparison; `nil` unless decoded.
  package let object: AnyObject?
  /// Warnings that do not change the outcome, such as SAP's stricter allowed-classes rule.
  package var warnings: [String]
  /// The registered names of the classes instantiated, in first-use order, inline
  /// property-list leaves excluded.
  package let instantiatedClassNames: [String]
  /// What the decode built for its collections, for a caller that walks `object` itself.
  package var builtCollections = BuiltCollections.none
  /// What the secure path saw that Apple's platforms only log today, each a warning.
  ///
  /// Empty on the legacy path. A rejected read gives only its untyped decode calls: the rest
  /// of its graph was not decoded, and an unlisted class may be what refused it.
  package var strictnessFindings: [StrictnessFinding] = []

  /// Creates a result.
  package init(
    outcome: DecodeOutcome, object: AnyObject?, warnings: [String],
    instantiatedClassNames: [String]
  ) {
    self.outcome = outcome
    self.object = object
    self.warnings = warnings
    self.instantiatedClassNames = instantiatedClassNames
  }
}
