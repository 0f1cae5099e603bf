/// Why a harness case or merge check failed: each finding with its place, `manifest.xml:LINE:COL`.
///
/// ``HarnessCase/check()`` returns it, ``HarnessCase/verify(sourceLocation:)`` records it,
/// and the ``MergeChecks`` throw it; Swift Testing prints its ``description`` as the failure
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
  /// The findings with the manifest element each is about, most important first.
  public let located: [HarnessFinding]
  /// Notes that explain the findings, such as the `allowedClasses` that would fix a secure read.
  public let notes: [String]

  /// Creates a failure whose findings belong to no manifest line.
  ///
  /// ```swift
  /// let failure = HarnessFailure(subject: "setup", findings: ["no manifests"])
  /// ```
  ///
  /// - Parameters:
  ///   - subject: What failed.
  ///   - findings: The findings, one line each.
  ///   - notes: Explanations.
  public init(subject: String, findings: [String], notes: [String] = []) {
    self.init(subject: subject, located: findings.map { HarnessFinding($0) }, notes: notes)
  }

  /// Creates a failure from findings with their manifest elements.
  ///
  /// ```swift
  /// let failure = HarnessFailure(
  ///   subject: "Notes-1.0.xml › Notes-1.0/note.archive",
  ///   located: [HarnessFinding("manifests/Notes-1.0.xml:14:5: …", at: location)])
  /// ```
  ///
  /// - Parameters:
  ///   - subject: What failed.
  ///   - located: The findings.
  ///   - notes: Explanations.
  public init(subject: String, located: [HarnessFinding], notes: [String] = []) {
    self.subject = subject
    self.located = located
    self.notes = notes
  }

  /// The findings, one line each, each starting with its place.
  public var findings: [String] { located.map(\.text) }

  /// The subject, then one line per finding and note.
  public var description: String {
    ([subject + " failed:"] + findings + notes.map { "note: " + $0 }).joined(separator: "\n")
  }
}
