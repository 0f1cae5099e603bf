import ArchiveHarness
import Testing

/// One archive entry or store check of one manifest, as a Swift Testing argument named by
/// manifest and archive (or store).
///
/// ```swift
/// @Test(arguments: NotesHarness.project.cases)
/// func entry(_ harnessCase: HarnessCase) {
///   harnessCase.verify()
/// }
/// ```
///
/// Swift Testing shows each case as `NotesApp-1.0.xml › NotesApp-1.0/note.archive`, and
/// re-runs one by that name. A setup problem (no manifests, an invalid manifest) is a case
/// too, which fails with the reason, and so is an archive no manifest lists, which the
/// project's ``RecordMode`` records or fails.
public struct HarnessCase: Sendable, Hashable, Encodable, CustomStringConvertible,
  CustomTestStringConvertible
{
  /// What the case stands for.
  enum Subject: Sendable, Hashable {
    /// An entry, by its manifest's index among the loaded manifests and its own index.
    case entry(manifest: Int, entry: Int)
    /// A store check (a Keychain snapshot, a pinned Core Data attribute), by its manifest's
    /// index among the loaded manifests and its index among the manifest's store checks.
    case storeCheck(manifest: Int, check: Int)
    /// A problem that stops verification, with its findings.
    case problem([HarnessFinding])
    /// An archive no manifest lists.
    case unlisted(ArchiveRecorder.Unlisted)
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

  init(
    manifest: String, store: String, manifestIndex: Int, checkIndex: Int, project: HarnessProject
  ) {
    self.manifest = manifest
    self.archive = store
    self.subject = .storeCheck(manifest: manifestIndex, check: checkIndex)
    self.project = project
  }

  init(problem: String, archive: String, findings: [HarnessFinding], project: HarnessProject) {
    self.manifest = problem
    self.archive = archive
    self.subject = .problem(findings)
    self.project = project
  }

  init(unlisted: ArchiveRecorder.Unlisted, manifest: String, project: HarnessProject) {
    self.manifest = manifest
    self.archive = unlisted.archive
    self.subject = .unlisted(unlisted)
    self.project = project
  }

  /// `manifest › archive`, the name tests and JUnit show.
  public var description: String { "\(manifest) › \(archive)" }

  /// The case's name in Swift Testing's output: `description`.
  public var testDescription: String { description }

  /// Runs the entry through every path and records each finding as its own Swift Testing
  /// issue, at the manifest line it is about.
  ///
  /// ```swift
  /// @Test(arguments: NotesHarness.project.cases)
  /// func entry(_ harnessCase: HarnessCase) {
  ///   harnessCase.verify()
  /// }
  /// ```
  ///
  /// A finding about an outcome or a field expectation is recorded at its element in the
  /// manifest (`manifests/Notes-1.0.xml:14:5`), so `swift test` and Xcode point at that line;
  /// one about no line (a setup problem, an archive no manifest lists) at the caller. The
  /// notes that explain the findings come with the first issue. An archive no manifest lists
  /// is recorded first under ``RecordMode/missing``; see ``check()``.
  ///
  /// - Parameter sourceLocation: Where a finding about no manifest line is recorded: the call.
  public func verify(sourceLocation: SourceLocation = #_sourceLocation) {
    guard let failure = check() else { return }
    guard !failure.findings.isEmpty else {
      Issue.record(Comment(rawValue: failure.description), sourceLocation: sourceLocation)
      return
    }
    for (index, finding) in failure.findings.enumerated() {
      var comment = "\(failure.subject): \(finding.text)"
      if index == 0, !failure.notes.isEmpty {
        comment += "\n" + failure.notes.map { "note: " + $0 }.joined(separator: "\n")
      }
      Issue.record(
        Comment(rawValue: comment),
        sourceLocation: finding.location.map(project.sourceLocation) ?? sourceLocation)
    }
  }

  /// Runs the entry through every path and checks it against its manifest.
  ///
  /// ```swift
  /// if let failure = harnessCase.check() {
  ///   print(failure)
  /// }
  /// ```
  ///
  /// For an archive no manifest lists: under ``RecordMode/missing`` its entry is drafted
  /// into its manifest once the privacy scan finds nothing in it (all the unlisted archives
  /// of one manifest in one write), and the failure says `recorded: review the outcomes and
  /// commit` at the new entry; under ``RecordMode/never`` the failure says how to record it.
  ///
  /// - Returns: ``HarnessFailure`` listing each finding as `manifest.xml:LINE:COL: …`, when an
  ///   outcome or a field expectation differs from the manifest, a path did not run, or the
  ///   case stands for a setup problem or an unlisted archive; nil when the entry passes.
  public func check() -> HarnessFailure? {
    switch subject {
    case .problem(let findings):
      return HarnessFailure(subject: description, findings: findings)
    case .unlisted(let item):
      return project.unlistedFailure(item, name: description)
    case .storeCheck:
      guard let result = project.verify(self) else {
        return HarnessFailure(subject: description, findings: ["the store check is gone"])
      }
      guard result.status != .passed else { return nil }
      return HarnessFailure(
        subject: description, findings: Findings.lines(storeCheck: result, in: project),
        notes: result.notes.map(project.relative))
    case .entry:
      guard let (_, entry) = project.lookUp(self),
        let result = project.verify(self)
      else {
        return HarnessFailure(subject: description, findings: ["the entry is gone"])
      }
      guard result.status != .passed else { return nil }
      // In process, a failing case says so: a trap there would have ended the test host.
      let containment = project.containment.isOn ? [] : [project.containment.reportLine]
      return HarnessFailure(
        subject: description, findings: Findings.lines(result, entry: entry, in: project),
        notes: result.notes.map(project.relative) + containment)
    }
  }

  /// The entry's full report: every path's outcome and every expectation.
  ///
  /// ```swift
  /// let paths = harnessCase.result()?.paths ?? []
  /// ```
  ///
  /// - Returns: The report, or nil for a case that stands for a setup problem or an unlisted
  ///   archive.
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
