import ArchiveCoder

/// One decode path's outcome, with what its decode saw that Apple's platforms only log today.
///
/// Only the harness's secure path records strictness findings; every other path has none.
///
/// ```swift
/// let results = runner.pathOutcomes(
///   bytes, paths: [.legacy, .secure], allowedClasses: ["NSArray"], classMap: .empty,
///   topKeys: ["root"])
/// if case .success(let secure) = results[1] {
///   for finding in secure.strictnessFindings { print(finding) }
/// }
/// ```
package struct PathOutcome: Sendable, Hashable {
  /// What the path made of the archive.
  package var outcome: DecodeOutcome
  /// What the secure path saw that Apple's platforms only log today, each a warning.
  package var strictnessFindings: [StrictnessFinding]

  /// Creates a path's outcome.
  ///
  /// - Parameters:
  ///   - outcome: What the path made of the archive.
  ///   - strictnessFindings: What the secure path's decode recorded.
  package init(_ outcome: DecodeOutcome, strictnessFindings: [StrictnessFinding] = []) {
    self.outcome = outcome
    self.strictnessFindings = strictnessFindings
  }
}
