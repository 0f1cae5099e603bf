import ArchiveFormat
import ArchiveManifest

/// One field expectation, evaluated.
package struct ExpectationResult: Sendable, Hashable {
  /// The key path.
  package var keyPath: String
  /// Whether it held.
  package var passed: Bool
  /// What the manifest expected.
  package var expected: FieldExpectation.Kind
  /// What the archive holds.
  package var actual: ExpectationFinding.Observation
  /// Where the expectation is declared: its manifest element's line and column.
  package var location: Place

  /// Creates an expectation result.
  package init(
    keyPath: String, passed: Bool, expected: FieldExpectation.Kind,
    actual: ExpectationFinding.Observation, location: Place
  ) {
    self.keyPath = keyPath
    self.passed = passed
    self.expected = expected
    self.actual = actual
    self.location = location
  }
}
