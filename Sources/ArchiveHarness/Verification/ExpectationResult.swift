import ArchiveFormat
import ArchiveManifest

/// One field expectation, evaluated.
public struct ExpectationResult: Sendable, Hashable {
  /// The key path.
  public var keyPath: String
  /// Whether it held.
  public var passed: Bool
  /// What the manifest expected.
  public var expected: FieldExpectation.Kind
  /// What the archive holds.
  public var actual: ExpectationFinding.Observation
  /// Where the expectation is declared: its manifest element's line and column.
  public var location: Place

  /// Creates an expectation result.
  public init(
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
