import ArchiveHarness
import Testing

/// One archive entry of one manifest, as a Swift Testing argument named by manifest and archive.
///
/// ```swift
/// @Test(arguments: HarnessCases.all(configuration: configuration))
/// func entry(_ harnessCase: HarnessCase) throws {
///   try harnessCase.verify()
/// }
/// ```
///
/// Swift Testing shows each case as `NotesApp-1.0.xml › NotesApp-1.0/note.archive`, and
/// re-runs one by that name. A setup problem (no manifests, an invalid manifest) is a case
/// too, whose ``verify()`` fails with the reason.
public struct HarnessCase: Sendable, Hashable, Encodable, CustomStringConvertible,
  CustomTestStringConvertible
{
  /// What the case stands for.
  enum Subject: Sendable, Hashable {
    /// An entry, by its manifest's index among the loaded manifests and its own index.
    case entry(manifest: Int, entry: Int)
    /// A problem that stops verification, with its findings.
    case problem([String])
  }

  /// The manifest, as a path below the manifests folder, such as `NotesApp-1.0.xml`.
  public let manifest: String
  /// The archive, as the manifest's entry names it (relative to the archives folder).
  public let archive: String
  let subject: Subject
  let project: HarnessProject

  init(
    manifest: String, archive: String, manifestIndex: Int, entryIndex: Int,
    project: HarnessProject
  ) {
    self.manifest = manifest
    self.archive = archive
    self.subject = .entry(manifest: manifestIndex, entry: entryIndex)
    self.project = project
  }

  init(problem: String, archive: String, findings: [String], project: HarnessProject) {
    self.manifest = problem
    self.archive = archive
    self.subject = .problem(findings)
    self.project = project
  }

  /// `manifest › archive`, the name tests and JUnit show.
  public var description: String { "\(manifest) › \(archive)" }

  /// The case's name in Swift Testing's output: ``description``.
  public var testDescription: String { description }

  /// Runs the entry through every path and checks it against its manifest.
  ///
  /// ```swift
  /// try harnessCase.verify()
  /// ```
  ///
  /// - Throws: ``HarnessFailure`` listing each finding as `manifest.xml:LINE:COL: …`, when an
  ///   outcome or a field expectation differs from the manifest, or a path did not run.
  public func verify() throws(HarnessFailure) {
    switch subject {
    case .problem(let findings):
      throw HarnessFailure(subject: description, findings: findings)
    case .entry:
      guard let (_, entry) = project.lookUp(self),
        let result = project.verify(self)
      else {
        throw HarnessFailure(subject: description, findings: ["the entry is gone"])
      }
      guard result.status != .passed else { return }
      // In process, a failing case says so: a trap there would have ended the test host.
      let containment = project.containment.isOn ? [] : [project.containment.reportLine]
      throw HarnessFailure(
        subject: description, findings: Findings.lines(result, entry: entry, in: project),
        notes: result.notes.map(project.relative) + containment)
    }
  }

  /// The entry's full report: every path's outcome and every expectation.
  ///
  /// - Returns: The report, or nil for a case that stands for a setup problem.
  public func result() -> VerificationCase? {
    project.verify(self)
  }

  /// Whether two values are the same entry of the same project.
  ///
  /// - Parameters:
  ///   - lhs: A case.
  ///   - rhs: Another case.
  /// - Returns: Whether they name the same manifest and archive of the same project.
  public static func == (lhs: HarnessCase, rhs: HarnessCase) -> Bool {
    lhs.manifest == rhs.manifest && lhs.archive == rhs.archive && lhs.project === rhs.project
  }

  /// Hashes the manifest and archive.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(manifest)
    hasher.combine(archive)
  }

  private enum CodingKeys: String, CodingKey {
    case manifest
    case archive
  }

  /// Encodes the manifest and archive, which identify the case when Swift Testing re-runs it.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(manifest, forKey: .manifest)
    try container.encode(archive, forKey: .archive)
  }
}
