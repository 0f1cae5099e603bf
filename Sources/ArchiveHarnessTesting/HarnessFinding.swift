import ArchiveHarness

/// One line of a failure, with the manifest element it is about when there is one.
///
/// Swift Testing records each finding of a failing case as its own issue at ``location``, and
/// `ArchiveHarnessXCTest` reports each as its own XCTest failure there, so the test navigator
/// points at the manifest line.
///
/// ```swift
/// if let failure = harnessCase.check() {
///   for finding in failure.findings {
///     print(finding.location?.line ?? 0, finding.text)
///   }
/// }
/// ```
public struct HarnessFinding: Sendable, Hashable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The finding as one line, starting with its place: `manifests/Notes-1.0.xml:14:5: …`.
  public let text: String
  /// The manifest element the finding is about, its file an absolute path; nil for a finding
  /// that belongs to no manifest line (no manifests at all, an archive no manifest lists).
  public let location: Place?

  /// Creates a finding.
  ///
  /// ```swift
  /// let finding = HarnessFinding(
  ///   "manifests/Notes-1.0.xml:14:5: title: expected string \"A\", got string \"B\"",
  ///   at: Place(file: "/work/Notes/manifests/Notes-1.0.xml", line: 14, column: 5))
  /// ```
  ///
  /// - Parameters:
  ///   - text: The line, its place first.
  ///   - location: The manifest element it is about.
  public init(_ text: String, at location: Place? = nil) {
    self.text = text
    self.location = location
  }

  /// A finding that belongs to no manifest line.
  ///
  /// ```swift
  /// let finding: HarnessFinding = "no manifests in manifests/"
  /// ```
  public init(stringLiteral text: String) {
    self.init(text)
  }

  /// The finding's ``text``.
  public var description: String { text }
}
