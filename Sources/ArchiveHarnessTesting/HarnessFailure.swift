/// Why a harness case or merge check failed: each finding with its place, `manifest.xml:LINE:COL`.
///
/// ``HarnessCase/check()`` returns it, ``HarnessCase/verify(sourceLocation:)`` records it,
/// and the ``MergeChecks`` throw it; Swift Testing prints its `description` as the failure
/// message of a check.
///
/// ```swift
/// if let failure = harnessCase.check() {
///   print(failure)
///   // NotesApp-1.0.xml › NotesApp-1.0/note.archive failed:
///   // manifests/NotesApp-1.0.xml:14:5: secure: expected decodes, got rejected [class-not-allowed] …
/// }
/// ```
public struct HarnessFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed, such as `NotesApp-1.0.xml › NotesApp-1.0/note.archive`.
  public let subject: String
  /// The findings, most important first, each with the manifest element it is about.
  public let findings: [HarnessFinding]
  /// Notes that explain the findings, such as the `allowedClasses` that would fix a secure read.
  public let notes: [String]

  /// Creates a failure.
  ///
  /// ```swift
  /// let failure = HarnessFailure(
  ///   subject: "Notes-1.0.xml › Notes-1.0/note.archive",
  ///   findings: [HarnessFinding("manifests/Notes-1.0.xml:14:5: …", at: location)])
  /// let setup = HarnessFailure(subject: "setup", findings: ["no manifests"])
  /// ```
  ///
  /// - Parameters:
  ///   - subject: What failed.
  ///   - findings: The findings.
  ///   - notes: Explanations.
  public init(subject: String, findings: [HarnessFinding], notes: [String] = []) {
    self.subject = subject
    self.findings = findings
    self.notes = notes
  }

  /// The subject, then one line per finding and note.
  public var description: String {
    ([subject + " failed:"] + findings.map(\.text) + notes.map { "note: " + $0 }).joined(
      separator: "\n")
  }
}
