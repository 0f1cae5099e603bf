/// Why a harness case or merge check failed: each finding with its place, `manifest.xml:LINE:COL`.
///
/// Thrown by ``HarnessCase/verify()`` and the ``MergeChecks``; Swift Testing
/// prints its ``description`` as the failure message.
///
/// ```swift
/// do {
///   try harnessCase.verify()
/// } catch {
///   print(error)
///   // NotesApp-1.0.xml › NotesApp-1.0/note.archive failed:
///   // manifests/NotesApp-1.0.xml:14:5: secure: expected decodes, got rejected [class-not-allowed] …
/// }
/// ```
public struct HarnessFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed, such as `NotesApp-1.0.xml › NotesApp-1.0/note.archive`.
  public let subject: String
  /// The findings, one line each, most important first, each starting with its place.
  public let findings: [String]
  /// Notes that explain the findings, such as the `allowedClasses` that would fix a secure read.
  public let notes: [String]

  /// Creates a failure.
  ///
  /// - Parameters:
  ///   - subject: What failed.
  ///   - findings: The findings, one line each.
  ///   - notes: Explanations.
  public init(subject: String, findings: [String], notes: [String] = []) {
    self.subject = subject
    self.findings = findings
    self.notes = notes
  }

  /// The subject, then one line per finding and note.
  public var description: String {
    ([subject + " failed:"] + findings + notes.map { "note: " + $0 }).joined(separator: "\n")
  }
}
