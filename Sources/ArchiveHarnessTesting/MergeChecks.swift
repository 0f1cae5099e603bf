import ArchiveHarness
import Foundation

/// The five checks every team runs before merging a change to its model classes.
///
/// 1. ``roundTripKeepsFields(_:manifest:)``: a historical archive migrates with every field.
/// 2. ``wrongRootClassIsRejected(_:manifest:)``: an archive of another class is refused.
/// 3. ``unknownVersionIsRejected(_:manifest:)``: an archive from an unknown schema version is
///    refused and never rewritten.
/// 4. ``truncatedArchiveIsNeverRewritten(_:manifest:)``: a cut-short archive is never rewritten.
/// 5. ``everyHistoricalArchivePasses()``: every entry of every manifest is as it says.
///
/// Each names an archive entry by its path in the manifest, and throws ``HarnessFailure``
/// with every finding. Decode paths and the typed migration (the round trip of check 1, the
/// migration plan of checks 3 and 4) run in the project's worker, as `verify` and `migrate`
/// run them: a decoder that traps is a finding, never the end of the test process.
///
/// ```swift
/// @Test func validNoteRoundTrips() throws {
///   try project.checks.roundTripKeepsFields("NotesApp-1.0/note-valid.archive")
/// }
/// ```
public struct MergeChecks: Sendable {
  /// The project whose manifests and archives the checks read.
  public let project: HarnessProject

  /// Creates the checks for a project.
  ///
  /// - Parameter project: The team's manifests, archives, classes and worker.
  public init(project: HarnessProject) {
    self.project = project
  }

  /// Check 1: the archive migrates by a verified round trip, and every field the manifest
  /// expects is in the new archive, which names no archived class name the map renames.
  ///
  /// - Parameters:
  ///   - archive: The entry's path, as its manifest names it.
  ///   - manifest: The manifest, below the manifests folder; needed only when several list it.
  /// - Throws: ``HarnessFailure`` with the refusal, or each field that differs.
  public func roundTripKeepsFields(_ archive: String, manifest: String? = nil)
    throws(HarnessFailure)
  {
    let subject = try self.subject(archive, manifest: manifest, check: "round trip keeps fields")
    try subject.requireHarnessPathsRan()
    var findings = subject.crashFinding().map { [$0] } ?? []
    if subject.entry.expectations.isEmpty {
      findings.append(
        "\(subject.place): the entry declares no field expectations, so nothing says which "
          + "fields must survive")
    }
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: subject.bytes)
    } catch {
      throw subject.failure(
        findings + ["\(subject.place): the round trip refused it at read: \(error)"])
    }
    let transform = try typedTransform(subject)
    let input = TransformInput(id: subject.recordID, bytes: subject.bytes, archive: archive)
    switch transform.transform(input) {
    case .refused(let refusal):
      findings.append("\(subject.place): the round trip refused it at \(refusal)")
    case .rewritten(let bytes, _, _):
      findings += newArchiveFindings(bytes, subject: subject)
    case .unchanged:
      // The app's own read takes it as stored: its fields are the stored ones.
      findings += newArchiveFindings(subject.bytes, subject: subject)
    }
    guard findings.isEmpty else { throw subject.failure(findings) }
  }

  /// Check 2: the app's read refuses the archive on the legacy and secure paths, since its root
  /// is not the class the manifest expects, and the entry is as its manifest says.
  ///
  /// - Parameters:
  ///   - archive: The entry's path, as its manifest names it.
  ///   - manifest: The manifest, below the manifests folder; needed only when several list it.
  /// - Throws: ``HarnessFailure`` naming each path that decoded it, or the missing `rootClass`.
  public func wrongRootClassIsRejected(_ archive: String, manifest: String? = nil)
    throws(HarnessFailure)
  {
    let subject = try self.subject(archive, manifest: manifest, check: "wrong root class rejected")
    try subject.requireHarnessPathsRan()
    var findings: [String] = []
    if subject.manifest.rootClass(for: subject.entry) == nil {
      findings.append(
        "\(subject.place): the manifest names no rootClass for the entry, so no read can "
          + "refuse its root")
    }
    findings += subject.decodedHarnessPaths()
    findings += subject.manifestFindings()
    guard findings.isEmpty else { throw subject.failure(findings) }
  }

  /// Check 3: the app's read refuses an archive of an unknown schema version on the legacy and
  /// secure paths, the entry is as its manifest says, and migration would not rewrite it.
  ///
  /// - Parameters:
  ///   - archive: The entry's path, as its manifest names it.
  ///   - manifest: The manifest, below the manifests folder; needed only when several list it.
  /// - Throws: ``HarnessFailure`` naming each path that decoded it, or the rewrite planned.
  public func unknownVersionIsRejected(_ archive: String, manifest: String? = nil)
    throws(HarnessFailure)
  {
    let subject = try self.subject(archive, manifest: manifest, check: "unknown version rejected")
    try subject.requireHarnessPathsRan()
    var findings = subject.crashFinding().map { [$0] } ?? []
    findings += subject.decodedHarnessPaths()
    findings += subject.manifestFindings()
    findings += try rewriteFindings(subject)
    guard findings.isEmpty else { throw subject.failure(findings) }
  }

  /// Check 4: a truncated archive is refused on every path that runs, and migration would never
  /// rewrite it: the plan refuses it (or skips it as no archive), never replaces it.
  ///
  /// - Parameters:
  ///   - archive: The entry's path, as its manifest names it.
  ///   - manifest: The manifest, below the manifests folder; needed only when several list it.
  /// - Throws: ``HarnessFailure`` naming each path that decoded it, or the rewrite planned.
  public func truncatedArchiveIsNeverRewritten(_ archive: String, manifest: String? = nil)
    throws(HarnessFailure)
  {
    let subject = try self.subject(archive, manifest: manifest, check: "truncated never rewritten")
    try subject.requireHarnessPathsRan()
    var findings: [String] = []
    for path in subject.result.paths where path.ran && path.outcome != .rejected {
      findings.append(
        "\(subject.place(of: path.path)): \(path.path): \(path.outcome), where a truncated "
          + "archive must be rejected")
    }
    if let crash = subject.crashFinding() { findings.append(crash) }
    findings += try rewriteFindings(subject)
    guard findings.isEmpty else { throw subject.failure(findings) }
  }

  /// Check 5: every entry of every manifest is as its manifest says, on every path.
  ///
  /// - Throws: ``HarnessFailure`` with every failing case's findings, and every setup problem.
  public func everyHistoricalArchivePasses() throws(HarnessFailure) {
    var findings: [String] = []
    let cases = project.cases
    for harnessCase in cases {
      do {
        try harnessCase.verify()
      } catch {
        findings.append("\(harnessCase):")
        findings += error.findings.map { "  " + $0 }
      }
    }
    guard findings.isEmpty else {
      throw HarnessFailure(
        subject: "every historical archive passes (\(cases.count) cases)", findings: findings)
    }
  }

  // MARK: - Parts

  /// The entry named by archive path, verified through the worker.
  private func subject(_ archive: String, manifest: String?, check: String)
    throws(HarnessFailure) -> CheckSubject
  {
    let name = "\(check): \(manifest.map { "\($0) › " } ?? "")\(archive)"
    let matches = project.cases.filter {
      $0.archive == archive && (manifest == nil || $0.manifest == manifest)
        && project.lookUp($0) != nil
    }
    guard let harnessCase = matches.first else {
      let problems = project.cases.filter { project.lookUp($0) == nil }
      let reasons = problems.flatMap { problem -> [String] in
        if case .problem(let findings) = problem.subject { return findings }
        return []
      }
      throw HarnessFailure(
        subject: name,
        findings: ["no manifest in \(project.relative(project.manifestsFolder.path)) lists it"]
          + reasons)
    }
    guard matches.count == 1 else {
      throw HarnessFailure(
        subject: name,
        findings: [
          "several manifests list it (\(matches.map(\.manifest).joined(separator: ", "))); "
            + "pass manifest:"
        ])
    }
    guard let (manifest, entry) = project.lookUp(harnessCase),
      let result = project.verify(harnessCase)
    else {
      throw HarnessFailure(subject: name, findings: ["the entry is gone"])
    }
    let file = project.archivesFolder.appendingPathComponent(entry.path)
    guard let data = FileManager.default.contents(atPath: file.path) else {
      throw HarnessFailure(
        subject: name, findings: ["\(project.relative(file.path)): cannot read the archive"])
    }
    return CheckSubject(
      name: name, harnessCase: harnessCase, manifest: manifest, entry: entry, result: result,
      bytes: [UInt8](data), project: project)
  }

  /// The field expectations, evaluated on the migrated archive, and archived names left in it.
  private func newArchiveFindings(_ bytes: [UInt8], subject: CheckSubject) -> [String] {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes)
    } catch {
      return ["\(subject.place): the new archive does not read: \(error)"]
    }
    var findings: [String] = []
    let engine = ExpectationEngine(manifest: subject.manifest)
    for finding in engine.evaluate(subject.entry, in: archive) where !finding.passed {
      findings.append(
        "\(project.relative(finding.location.description)): \(finding.keyPath): expected "
          + "\(finding.expected) after the round trip, got \(finding.actual)")
    }
    let renamed = Set(subject.classMap.entries.keys)
    for object in archive.objects {
      guard case .classDescription(let description) = object, renamed.contains(description.name)
      else { continue }
      findings.append(
        "\(subject.place): the new archive still names '\(description.name)', which the class "
          + "map renames")
    }
    return findings
  }

  /// A finding when the typed migration would rewrite or call current what must be refused.
  private func rewriteFindings(_ subject: CheckSubject) throws(HarnessFailure) -> [String] {
    let record = StoreRecord(id: subject.recordID, content: .bytes(subject.bytes))
    let plan = RecordMigrator(transform: try typedTransform(subject)).plan(record)
    switch plan.outcome {
    case .refused, .skipped, .accepted, .categoryChanged:
      return []
    case .willRewrite(let summary), .rewritten(let summary):
      return ["\(subject.place): migration would rewrite it (\(summary)), where it must refuse"]
    case .alreadyCurrent:
      return ["\(subject.place): migration calls it already current, where it must refuse"]
    }
  }

  /// The typed migration with the entry's class map and allowed classes, in the project's worker.
  private func typedTransform(_ subject: CheckSubject) throws(HarnessFailure) -> TypedTransform {
    do {
      return try project.configuration.typedTransform(
        classMap: subject.classMap, allowedClasses: subject.allowedClasses,
        registryName: project.registryName, workers: 1)
    } catch {
      throw subject.failure(["\(subject.place): the typed migration did not run: \(error)"])
    }
  }
}
