import ArchiveHarness
import Foundation

/// The checks every team runs before merging a change to its model classes, each over the
/// manifest entries whose expected outcomes call for it.
///
/// - ``roundTripKeepsFields()``: every archive the app reads migrates with every field.
/// - ``rejects(_:)``: every archive the manifests expect refused for a reason (the wrong root
///   class, an unknown schema version, truncated or malformed bytes…) is refused on the legacy
///   and secure paths, and migration never rewrites it.
/// - ``everyHistoricalArchivePasses()``: every entry of every manifest is as it says.
///
/// The checks find their archives from the manifests, never from paths in the test: an entry
/// is checked by ``rejects(_:)`` when its `<legacy>` and `<secure>` outcomes are both
/// `rejected` with that category. No such entry is a failure that says which archive to add.
/// Each check throws ``HarnessFailure`` with every finding. Decode paths and the typed
/// migration run in the project's worker, as `verify` and `migrate` run them: a decoder that
/// traps is a finding, never the end of the test process.
///
/// ```swift
/// @Test func wrongRootClassIsRejected() throws {
///   try NotesHarness.project.mergeChecks.rejects(.wrongRootClass)
/// }
/// ```
public struct MergeChecks: Sendable {
  /// The project whose manifests and archives the checks read.
  public let project: HarnessProject

  /// Creates the checks for a project; ``HarnessProject/mergeChecks`` is the same.
  ///
  /// ```swift
  /// let checks = MergeChecks(project: project)
  /// ```
  ///
  /// - Parameter project: The team's manifests, archives, classes and worker.
  public init(project: HarnessProject) {
    self.project = project
  }

  /// The entries a check of this category looks at: those whose legacy and secure outcomes
  /// are both `rejected` with it.
  ///
  /// ```swift
  /// let truncated = project.mergeChecks.entries(rejectedAs: .truncated)
  /// ```
  ///
  /// - Parameter category: The rejection category.
  /// - Returns: The cases, in manifest then entry order.
  public func entries(rejectedAs category: RejectionCategory) -> [HarnessCase] {
    project.cases.filter { harnessCase in
      guard let (_, entry) = project.lookUp(harnessCase) else { return false }
      return [DecodePath.legacy, .secure].allSatisfy {
        entry.outcome(for: $0)?.outcome == .rejected(category)
      }
    }
  }

  /// The entries ``roundTripKeepsFields()`` looks at: those the legacy and secure paths are
  /// expected to read, with field expectations, decoded with the project's registry.
  ///
  /// ```swift
  /// let readable = project.mergeChecks.entriesThatRoundTrip()
  /// ```
  ///
  /// - Returns: The cases, in manifest then entry order.
  public func entriesThatRoundTrip() -> [HarnessCase] {
    project.cases.filter { harnessCase in
      guard let (_, entry) = project.lookUp(harnessCase) else { return false }
      let reads = [DecodePath.legacy, .secure].allSatisfy {
        entry.outcome(for: $0).map { $0.outcome == .decodes } ?? true
      }
      let registry = entry.registry ?? project.registryName
      return reads && !entry.expectations.isEmpty && registry == project.registryName
    }
  }

  /// Every archive the manifests expect to be read migrates by a verified round trip, and every
  /// field its entry expects is in the new archive, which names no archived class name the
  /// map renames.
  ///
  /// ```swift
  /// try project.mergeChecks.roundTripKeepsFields()
  /// ```
  ///
  /// - Throws: ``HarnessFailure`` with each refusal or field that differs, or saying that no
  ///   entry is to be read with field expectations.
  public func roundTripKeepsFields() throws(HarnessFailure) {
    let check = "round trip keeps fields"
    let cases = entriesThatRoundTrip()
    guard !cases.isEmpty else {
      throw missing(
        check,
        "no manifest entry is expected to decode on the legacy and secure paths with field "
          + "expectations; add an archive the app reads to the archives folder, with its "
          + "fields as expectations (record mode drafts the entry)")
    }
    try run(check, over: cases, roundTrip)
  }

  /// Every archive the manifests expect refused for a category is refused on the legacy and
  /// secure paths, is as its manifest says, and migration would never rewrite it.
  ///
  /// The entries checked are those whose `<legacy>` and `<secure>` outcomes are both
  /// `rejected` with `category` (``entries(rejectedAs:)``). For ``RejectionCategory/wrongRootClass``
  /// the entry must name its `rootClass`; for ``RejectionCategory/truncated`` and
  /// ``RejectionCategory/malformed`` every path that runs must reject it.
  ///
  /// ```swift
  /// try project.mergeChecks.rejects(.wrongRootClass)
  /// try project.mergeChecks.rejects(.unknownSchemaVersion)
  /// try project.mergeChecks.rejects(.truncated)
  /// ```
  ///
  /// - Parameter category: Why the archives must be refused.
  /// - Throws: ``HarnessFailure`` naming each path that decoded an archive, each rewrite
  ///   planned, or the archive to add when no entry expects the category.
  public func rejects(_ category: RejectionCategory) throws(HarnessFailure) {
    let check = "rejects [\(category)]"
    let cases = entries(rejectedAs: category)
    guard !cases.isEmpty else {
      throw missing(
        check,
        "no manifest entry expects legacy and secure to be rejected [\(category)]; add "
          + Self.example(of: category) + " to the archives folder, with an entry whose "
          + "<legacy> and <secure> say outcome=\"rejected\" category=\"\(category)\"")
    }
    switch category {
    case .wrongRootClass:
      try run(check, over: cases, wrongRootClassIsRejected)
    case .truncated, .malformed:
      try run(check, over: cases, truncatedArchiveIsNeverRewritten)
    default:
      try run(check, over: cases, refusedAndNeverRewritten)
    }
  }

  /// Every entry of every manifest is as its manifest says, on every path.
  ///
  /// ```swift
  /// try project.mergeChecks.everyHistoricalArchivePasses()
  /// ```
  ///
  /// - Throws: ``HarnessFailure`` with every failing case's findings, and every setup problem.
  public func everyHistoricalArchivePasses() throws(HarnessFailure) {
    var findings: [HarnessFinding] = []
    let cases = project.cases
    for harnessCase in cases {
      guard let failure = harnessCase.check() else { continue }
      findings.append(HarnessFinding("\(harnessCase):"))
      findings += failure.findings.map { HarnessFinding("  " + $0.text, at: $0.location) }
    }
    guard findings.isEmpty else {
      throw HarnessFailure(
        subject: "every historical archive passes (\(cases.count) cases)", findings: findings)
    }
  }

  // MARK: - Parts

  /// What to add for a category, as a failure says it.
  private static func example(of category: RejectionCategory) -> String {
    switch category {
    case .wrongRootClass: "an archive whose root object is of another class"
    case .unknownSchemaVersion: "an archive of a version the app does not know"
    case .truncated: "an archive cut short"
    case .malformed: "an archive whose bytes are not a keyed archive"
    default: "an archive the app must refuse as \(category)"
    }
  }

  /// The failure of a check that found no entry to look at.
  private func missing(_ check: String, _ finding: String) -> HarnessFailure {
    HarnessFailure(
      subject: check,
      findings: [project.finding(finding, at: Place(file: project.manifestsFolder.path))])
  }

  /// Runs a check over each case: one failure lists every failing entry's findings.
  private func run(
    _ check: String, over cases: [HarnessCase],
    _ body: (CheckSubject) throws(HarnessFailure) -> Void
  ) throws(HarnessFailure) {
    var failures: [HarnessFailure] = []
    for harnessCase in cases {
      do {
        try body(try subject(harnessCase, check: check))
      } catch {
        failures.append(error)
      }
    }
    guard failures.count > 1 else {
      if let failure = failures.first { throw failure }
      return
    }
    throw HarnessFailure(
      subject: "\(check) (\(failures.count) of \(cases.count) entries)",
      findings: failures.flatMap { [HarnessFinding("\($0.subject):")] + $0.findings },
      notes: failures.flatMap(\.notes))
  }

  /// Round trip: the archive migrates and keeps every expected field.
  private func roundTrip(_ subject: CheckSubject) throws(HarnessFailure) {
    try subject.requireHarnessPathsRan()
    var findings = subject.crashFinding().map { [$0] } ?? []
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: subject.bytes)
    } catch {
      throw subject.failure(
        findings + [subject.finding("the round trip refused it at read: \(error)")])
    }
    let transform = try typedTransform(subject)
    let input = TransformInput(id: subject.recordID, bytes: subject.bytes, archive: archive)
    switch transform.transform(input) {
    case .refused(let refusal):
      findings.append(subject.finding("the round trip refused it at \(refusal)"))
    case .rewritten(let bytes, _, _):
      findings += newArchiveFindings(bytes, subject: subject)
    case .unchanged:
      // The app's own read takes it as stored: its fields are the stored ones.
      findings += newArchiveFindings(subject.bytes, subject: subject)
    }
    guard findings.isEmpty else { throw subject.failure(findings) }
  }

  /// Wrong root class: the app's read refuses it on the legacy and secure paths, and the entry
  /// names the root class it expects and is as its manifest says.
  private func wrongRootClassIsRejected(_ subject: CheckSubject) throws(HarnessFailure) {
    try subject.requireHarnessPathsRan()
    var findings: [HarnessFinding] = []
    if subject.manifest.rootClass(for: subject.entry) == nil {
      findings.append(
        subject.finding(
          "the manifest names no rootClass for the entry, so no read can refuse its root"))
    }
    findings += subject.decodedHarnessPaths()
    findings += subject.manifestFindings()
    guard findings.isEmpty else { throw subject.failure(findings) }
  }

  /// Any other refusal: refused on the legacy and secure paths, as its manifest says, and
  /// migration would not rewrite it.
  private func refusedAndNeverRewritten(_ subject: CheckSubject) throws(HarnessFailure) {
    try subject.requireHarnessPathsRan()
    var findings = subject.crashFinding().map { [$0] } ?? []
    findings += subject.decodedHarnessPaths()
    findings += subject.manifestFindings()
    findings += try rewriteFindings(subject)
    guard findings.isEmpty else { throw subject.failure(findings) }
  }

  /// Truncated or malformed: refused on every path that runs, and never rewritten: the plan
  /// refuses it (or skips it as no archive), never replaces it.
  private func truncatedArchiveIsNeverRewritten(_ subject: CheckSubject) throws(HarnessFailure) {
    try subject.requireHarnessPathsRan()
    var findings: [HarnessFinding] = []
    for path in subject.result.paths where path.ran && path.outcome != .rejected {
      findings.append(
        subject.finding(
          "\(path.path): \(path.outcome), where a truncated archive must be rejected",
          at: path.path))
    }
    if let crash = subject.crashFinding() { findings.append(crash) }
    findings += try rewriteFindings(subject)
    guard findings.isEmpty else { throw subject.failure(findings) }
  }

  /// The entry of a case, verified through the worker, with its bytes.
  private func subject(_ harnessCase: HarnessCase, check: String)
    throws(HarnessFailure) -> CheckSubject
  {
    let name = "\(check): \(harnessCase)"
    guard let (manifest, entry) = project.lookUp(harnessCase),
      let result = project.verify(harnessCase)
    else {
      throw HarnessFailure(subject: name, findings: ["the entry is gone"])
    }
    let file = project.archivesFolder.appendingPathComponent(entry.path)
    let bytes: [UInt8]
    if let item = entry.keychainItem {
      // A Keychain item's data, read as verify reads it.
      switch Verifier.keychainItemData(
        entry, item: item, archivesDirectory: project.archivesFolder.path)
      {
      case .success(let data): bytes = data
      case .failure(let failure):
        throw HarnessFailure(
          subject: name, findings: [project.finding(failure.message, at: Place(file: file.path))])
      }
    } else if let data = FileManager.default.contents(atPath: file.path) {
      bytes = [UInt8](data)
    } else {
      throw HarnessFailure(
        subject: name,
        findings: [project.finding("cannot read the archive", at: Place(file: file.path))])
    }
    return CheckSubject(
      name: name, harnessCase: harnessCase, manifest: manifest, entry: entry, result: result,
      bytes: bytes, project: project)
  }

  /// The field expectations, evaluated on the migrated archive, and archived names left in it.
  private func newArchiveFindings(_ bytes: [UInt8], subject: CheckSubject) -> [HarnessFinding] {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes)
    } catch {
      return [subject.finding("the new archive does not read: \(error)")]
    }
    var findings: [HarnessFinding] = []
    let engine = ExpectationEngine(manifest: subject.manifest)
    for finding in engine.evaluate(subject.entry, in: archive) where !finding.passed {
      findings.append(
        project.finding(
          "\(finding.keyPath): expected \(finding.expected) after the round trip, got "
            + "\(finding.actual)", at: finding.location))
    }
    let renamed = Set(subject.classMap.entries.keys)
    for object in archive.objects {
      guard case .classDescription(let description) = object, renamed.contains(description.name)
      else { continue }
      findings.append(
        subject.finding(
          "the new archive still names '\(description.name)', which the class map renames"))
    }
    return findings
  }

  /// A finding when the typed migration would rewrite or call current what must be refused.
  private func rewriteFindings(_ subject: CheckSubject) throws(HarnessFailure) -> [HarnessFinding] {
    let record = StoreRecord(id: subject.recordID, content: .bytes(subject.bytes))
    let plan = RecordMigrator(transform: try typedTransform(subject)).plan(record)
    switch plan.outcome {
    case .refused, .skipped, .accepted, .categoryChanged:
      return []
    case .willRewrite(let summary), .rewritten(let summary):
      return [subject.finding("migration would rewrite it (\(summary)), where it must refuse")]
    case .alreadyCurrent:
      return [subject.finding("migration calls it already current, where it must refuse")]
    }
  }

  /// The typed migration with the entry's class map and allowed classes, in the project's worker.
  private func typedTransform(_ subject: CheckSubject) throws(HarnessFailure) -> TypedTransform {
    do {
      return try project.configuration.typedTransform(
        classMap: subject.classMap, allowedClasses: subject.allowedClasses,
        registryName: project.registryName, workers: 1)
    } catch {
      throw subject.failure([subject.finding("the typed migration did not run: \(error)")])
    }
  }
}
