import ArchiveHarness
import Foundation
import Testing

/// A team's harness setup: its manifests and historical archives, its model classes, and the
/// worker decode paths run in; the one entry point of a team's tests.
///
/// Made once, in a `static let`, it gives the test cases (``cases``, one per manifest
/// entry) and the merge checks (``mergeChecks``): the manifests load once, when the project
/// is made, and one pool of decode workers serves every case and check. Paths resolve from
/// the team's package: the folder holding `Package.swift` above the caller's `#filePath`, or
/// an explicit root, never this package's checkout.
///
/// ```swift
/// enum NotesHarness {
///   static let project = HarnessProject(
///     worker: .buildProduct(named: "notes-harness"),
///     configuration: HarnessConfiguration(modelClasses: NotesModel.classes))
/// }
///
/// @Test(arguments: NotesHarness.project.cases)
/// func entry(_ harnessCase: HarnessCase) {
///   harnessCase.verify()
/// }
///
/// @Test func wrongRootClassIsRejected() throws {
///   try NotesHarness.project.mergeChecks.rejects(.wrongRootClass)
/// }
/// ```
///
/// The worker is a required choice: from `swift test` it is the team's harness executable,
/// ``DecodeWorker/buildProduct(named:)``; the running executable is a test runner and can
/// never be one. With ``DecodeWorker/inProcess`` (the choice on iOS) the harness paths run in
/// the test process, the Foundation paths are not run, and containment is off:
/// ``report()`` and every failure say `containment: off (in process: a trap ends the test
/// host)`. The simulator finds the package from `#filePath` as the Mac does; on a device,
/// give `root:` a bundle's resources (see ``DecodeWorker/inProcess``).
///
/// An archive in the archives folder that no manifest lists is a case too, which
/// ``recordMode`` decides about (``RecordMode``).
///
/// What Apple's platforms only log today about a secure read (`NSObject` in an allowed classes
/// list, a property-list class its list does not name, `decodeObject(forKey:)` on a secure
/// coder) is a warning in the case's result; made with `strictness: .appleFuture`, the project
/// fails each such case with the class, the key path and the list to write:
///
/// ```swift
/// static let project = HarnessProject(
///   worker: .buildProduct(named: "notes-harness"),
///   configuration: HarnessConfiguration(modelClasses: NotesModel.classes),
///   strictness: .appleFuture)
/// // manifests/Notes-1.0.xml:14:5: strictness: [unlisted-plist-class] root.tags[0]: NSString
/// // decoded although NotesKit.Note's init?(coder:) allows [NSArray] for key "tags" …
/// ```
///
/// ## Topics
///
/// - ``cases``
/// - ``mergeChecks``
/// - ``recordMode``
/// - ``strictness``
/// - ``verify(_:)``
/// - ``report()``
public final class HarnessProject: Sendable {
  /// The package's root folder; nil when no folder above the caller holds `Package.swift`.
  public let root: URL?
  /// The manifests folder.
  public let manifestsFolder: URL
  /// The historical archives folder that manifest entries' paths are relative to.
  public let archivesFolder: URL
  /// The model classes, with the worker the project was made with.
  public let configuration: HarnessConfiguration
  /// The worker registry entries decode with: the current classes unless another was named.
  public let registryName: String
  /// Whether archives no manifest lists get their entries drafted: the environment
  /// variable `ARCHIVE_HARNESS_RECORD` when set, else the `record:` the project was made with.
  public let recordMode: RecordMode
  /// How strictly secure reads are held to Apple's secure-coding rules, at least: each entry
  /// is held to the stricter of this and its manifest's `strictness`.
  public let strictness: Strictness
  /// The classes of that registry, which manifests and the migration steps are checked against.
  let registry: ClassRegistry
  /// The manifest files found, sorted.
  let manifestFiles: [String]
  /// The manifests that loaded, and every diagnostic.
  let loaded: Verifier.LoadedManifests
  /// Runs entries through every path the worker can run.
  let verifier: Verifier
  /// The archives no manifest lists, and their recording.
  let recorder: ArchiveRecorder
  /// Why the record mode could not be read from the environment, when it could not.
  let recordProblem: HarnessFailure?

  /// Finds the package, loads its manifests, and finds the archives no manifest lists.
  ///
  /// ```swift
  /// static let project = HarnessProject(
  ///   worker: .buildProduct(named: "notes-harness"),
  ///   configuration: HarnessConfiguration(
  ///     modelClasses: NotesModel.classes,
  ///     additionalRegistries: ["v1": ClassRegistry(modelClasses: NotesV1Model.classes)]),
  ///   record: .missing)
  /// ```
  ///
  /// - Parameters:
  ///   - worker: Where decode paths run; it replaces the configuration's. From `swift test`,
  ///     the team's harness executable, `.buildProduct(named:)`; on iOS, `.inProcess`.
  ///   - configuration: The model classes and further registries.
  ///   - manifests: The manifests folder, relative to the package root (or absolute).
  ///   - archives: The archives folder, relative to the package root (or absolute).
  ///   - filePath: A file inside the team's package, normally the caller's `#filePath`.
  ///   - root: The package root, when it is not to be found from `filePath`.
  ///   - registryName: Which of the configuration's ``HarnessConfiguration/workerRegistries``
  ///     to decode with, such as an earlier app version's classes; the current ones by default.
  ///   - record: What to do with archives no manifest lists; `ARCHIVE_HARNESS_RECORD` wins.
  ///   - environment: The environment the record mode is read from; the process's own.
  ///   - strictness: How strictly secure reads are held to Apple's secure-coding rules, at
  ///     least: ``Strictness/appleFuture`` fails a case for what Apple only logs today.
  public init(
    worker: DecodeWorker, configuration: HarnessConfiguration,
    manifests: String = "manifests", archives: String = "LegacyArchives",
    relativeTo filePath: String = #filePath, root: URL? = nil,
    registryName: String = ClassRegistry.defaultName,
    record: RecordMode = .missing,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    strictness: Strictness = .current
  ) {
    let resolvedRoot = root?.standardizedFileURL ?? PackageRoot.containing(filePath)
    let base = resolvedRoot ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    self.root = resolvedRoot
    self.manifestsFolder = PackageRoot.resolve(manifests, in: base)
    self.archivesFolder = PackageRoot.resolve(archives, in: base)
    var configuration = configuration
    configuration.worker = worker
    self.configuration = configuration
    self.registryName = registryName
    self.strictness = strictness
    do {
      self.recordMode = try RecordMode.resolved(record, environment: environment)
      self.recordProblem = nil
    } catch {
      self.recordMode = .never
      self.recordProblem = error
    }
    let registry = configuration.workerRegistries[registryName] ?? configuration.registry
    self.registry = registry
    // Swift Testing runs cases in parallel: one worker per lane decodes them at once.
    var verifier = Verifier(
      registry: registry,
      runner: configuration.runner(registryName: registryName, workers: configuration.lanes),
      paths: worker.paths)
    verifier.namedRegistries = configuration.namedRegistries(workers: configuration.lanes)
    verifier.strictness = strictness
    self.verifier = verifier
    let files = resolvedRoot == nil ? [] : Verifier.manifestFiles(in: manifestsFolder.path)
    self.manifestFiles = files
    let loaded = verifier.load(files, archivesDirectory: archivesFolder.path)
    self.loaded = loaded
    // Archives count as unlisted only when every manifest loaded: a manifest with errors
    // lists archives that did not load. With no manifest yet, every archive is unlisted: a
    // team's first `swift test` drafts its first manifest.
    let usable = resolvedRoot != nil && !loaded.diagnostics.contains { $0.severity == .error }
    let listed = Set(loaded.manifests.flatMap(\.listedPaths))
    self.recorder = ArchiveRecorder(
      unlisted: usable
        ? ArchiveRecorder.unlisted(
          archivesFolder: archivesFolder, manifestsFolder: manifestsFolder, listed: listed)
        : [])
  }

  /// One case per archive entry of every manifest, in manifest then entry order, then one per
  /// archive no manifest lists.
  ///
  /// A problem that stops verification is a case too, which fails with the reason: no
  /// `Package.swift` above the caller, no manifests, a manifest with errors (one case per
  /// such manifest, listing them), an `ARCHIVE_HARNESS_RECORD` that is neither `missing` nor
  /// `never`. So a broken setup never passes as zero cases.
  ///
  /// ```swift
  /// @Test(arguments: NotesHarness.project.cases)
  /// func entry(_ harnessCase: HarnessCase) {
  ///   harnessCase.verify()
  /// }
  /// ```
  public var cases: [HarnessCase] {
    guard root != nil else {
      return [
        HarnessCase(
          problem: "setup", archive: "Package.swift",
          findings: ["no folder above the test file holds Package.swift; pass root:"],
          project: self)
      ]
    }
    guard !manifestFiles.isEmpty || !recorder.unlisted.isEmpty else {
      return [
        HarnessCase(
          problem: relative(manifestsFolder.path), archive: "manifests",
          findings: [
            finding(
              "no manifests in this folder, and no archives in \(relative(archivesFolder.path)) "
                + "to record", at: Place(file: manifestsFolder.path))
          ],
          project: self)
      ]
    }
    var cases: [HarnessCase] = []
    if let recordProblem {
      cases.append(
        HarnessCase(
          problem: "setup", archive: RecordMode.environmentVariable,
          findings: recordProblem.findings, project: self))
    }
    for file in manifestFiles {
      let errors = loaded.diagnostics.filter { $0.severity == .error && $0.location.file == file }
      if !errors.isEmpty {
        cases.append(
          HarnessCase(
            problem: manifestName(file), archive: "manifest",
            findings: errors.map { HarnessFinding(relative($0.description), at: $0.location) },
            project: self))
        continue
      }
      guard let manifestIndex = loaded.manifests.firstIndex(where: { $0.file == file }) else {
        continue
      }
      let manifest = loaded.manifests[manifestIndex]
      for entryIndex in manifest.archives.indices {
        cases.append(
          HarnessCase(
            manifest: manifestName(file), archive: manifest.archives[entryIndex].caseName,
            manifestIndex: manifestIndex, entryIndex: entryIndex, project: self))
      }
      for (checkIndex, check) in Verifier.storeChecks(of: manifest).enumerated() {
        cases.append(
          HarnessCase(
            manifest: manifestName(file), store: check.path, manifestIndex: manifestIndex,
            checkIndex: checkIndex, project: self))
      }
    }
    for item in recorder.unlisted {
      cases.append(
        HarnessCase(unlisted: item, manifest: manifestName(item.manifest), project: self))
    }
    return cases
  }

  /// The merge checks over this project's manifests and archives.
  ///
  /// ```swift
  /// try project.mergeChecks.rejects(.truncated)
  /// ```
  public var mergeChecks: MergeChecks { MergeChecks(project: self) }

  /// Whether a trap while decoding is contained: off for ``DecodeWorker/inProcess``.
  package var containment: Containment { verifier.containment }

  /// Every entry of every manifest that loaded, verified into one report that records
  /// containment.
  ///
  /// ```swift
  /// let report = project.report()
  /// print(TextReportWriter().render(report))
  /// // … containment: off (in process: a trap ends the test host)
  /// ```
  ///
  /// - Returns: The report, in manifest then entry order.
  public func report() -> VerificationReport {
    var report = verifier.verify(loaded.manifests, archivesDirectory: archivesFolder.path)
    report.containment = containment
    return report
  }

  /// Verifies one entry through every path the worker runs, or runs one store check.
  ///
  /// - Parameter harnessCase: A case of ``cases``.
  /// - Returns: The case's report, or nil for a case that stands for a setup problem.
  public func verify(_ harnessCase: HarnessCase) -> VerificationCase? {
    if case .storeCheck(let manifestIndex, let checkIndex) = harnessCase.subject {
      guard loaded.manifests.indices.contains(manifestIndex) else { return nil }
      let manifest = loaded.manifests[manifestIndex]
      let checks = Verifier.storeChecks(of: manifest)
      guard checks.indices.contains(checkIndex) else { return nil }
      return verifier.verify(
        checks[checkIndex], of: manifest, archivesDirectory: archivesFolder.path)
    }
    guard let (manifest, entry) = lookUp(harnessCase) else { return nil }
    return verifier.verify(entry, of: manifest, archivesDirectory: archivesFolder.path)
  }

  // MARK: - Parts

  /// The case of an archive no manifest lists: recorded under ``RecordMode/missing``, a
  /// failure saying how to record it under ``RecordMode/never``.
  func unlistedFailure(_ item: ArchiveRecorder.Unlisted, name: String) -> HarnessFailure {
    switch recordMode {
    case .missing:
      return recorder.record(item, name: name, in: self)
    case .never:
      return HarnessFailure(
        subject: name,
        findings: [
          finding(
            "no manifest lists it; run the tests with \(RecordMode.environmentVariable)=missing "
              + "to draft its entry into \(relative(item.manifest))",
            at: Place(file: archivesFolder.appendingPathComponent(item.archive).path))
        ])
    }
  }

  func lookUp(_ harnessCase: HarnessCase) -> (Manifest, ArchiveEntry)? {
    guard case .entry(let manifestIndex, let entryIndex) = harnessCase.subject,
      loaded.manifests.indices.contains(manifestIndex),
      loaded.manifests[manifestIndex].archives.indices.contains(entryIndex)
    else { return nil }
    let manifest = loaded.manifests[manifestIndex]
    return (manifest, manifest.archives[entryIndex])
  }

  /// A manifest's path below the manifests folder, such as `NotesApp-1.0.xml`.
  func manifestName(_ file: String) -> String {
    let prefix = manifestsFolder.path + "/"
    return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
  }

  /// Where Swift Testing records an issue about a manifest element: its file and line.
  func sourceLocation(_ location: Place) -> SourceLocation {
    let package = root?.lastPathComponent ?? "manifests"
    let file = location.file ?? manifestsFolder.path
    return SourceLocation(
      fileID: "\(package)/\(relative(file))", filePath: file,
      line: max(1, location.line), column: max(1, location.column))
  }

  /// A finding at a place, printed with the package root taken off its file.
  ///
  /// It reads `manifests/NotesApp-1.0.xml:14:5: message`. Only a place with a line is an
  /// element a test navigator can point at; a file or folder as a whole is reported at the
  /// test's call.
  func finding(_ message: String, at location: Place) -> HarnessFinding {
    HarnessFinding(
      "\(relative(location.description)): \(message)", at: location.line > 0 ? location : nil)
  }

  /// Text with the package root's path taken off every path in it, so places read
  /// `manifests/NotesApp-1.0.xml:14:5`.
  func relative(_ text: String) -> String {
    guard let root else { return text }
    return text.replacingOccurrences(of: root.path + "/", with: "")
  }
}
