import ArchiveHarness
import Foundation
import HarnessContainment

/// A team's harness setup: its manifests and historical archives, its model classes, and the worker.
///
/// Paths resolve from the team's package: the folder holding `Package.swift`
/// above the caller's `#filePath`, or an explicit root, never this package's
/// checkout. Manifests load once, when the project is made; one decode worker
/// serves every case of the project.
///
/// ```swift
/// let project = HarnessProject(
///   manifests: "manifests", archives: "LegacyArchives",
///   configuration: HarnessConfiguration(
///     modelClasses: [Note.self], worker: .buildProduct(named: "notes-harness")))
///
/// @Test(arguments: project.cases) func entry(_ harnessCase: HarnessCase) throws {
///   try harnessCase.verify()
/// }
/// ```
///
/// With ``DecodeWorker/inProcess`` (the choice on iOS) the harness paths run in the test
/// process, the Foundation paths are not run, and ``containment`` is off: ``report()`` and
/// every failure say `containment: off (in process: a trap ends the test host)`. The
/// simulator finds the package from `#filePath` as the Mac does; on a device, give `root:`
/// a bundle's resources (see ``DecodeWorker/inProcess``).
///
/// ## Topics
///
/// - ``cases``
/// - ``checks``
/// - ``verify(_:)``
/// - ``report()``
/// - ``containment``
public final class HarnessProject: Sendable {
  /// The package's root folder; nil when no folder above the caller holds `Package.swift`.
  public let root: URL?
  /// The manifests folder.
  public let manifestsFolder: URL
  /// The historical archives folder that manifest entries' paths are relative to.
  public let archivesFolder: URL
  /// The model classes and the worker.
  public let configuration: HarnessConfiguration
  /// The worker registry entries decode with: the current classes unless another was named.
  public let registryName: String
  /// The classes of that registry, which manifests and the migration steps are checked against.
  let registry: ClassRegistry
  /// The manifest files found, sorted.
  let manifestFiles: [String]
  /// The manifests that loaded, and every diagnostic.
  let loaded: Verifier.LoadedManifests
  /// Runs entries through every path the worker can run.
  let verifier: Verifier

  /// Finds the package and loads its manifests.
  ///
  /// - Parameters:
  ///   - manifests: The manifests folder, relative to the package root (or absolute).
  ///   - archives: The archives folder, relative to the package root (or absolute).
  ///   - filePath: A file inside the team's package, normally the caller's `#filePath`.
  ///   - root: The package root, when it is not to be found from `filePath`.
  ///   - configuration: The model classes, and the worker decode paths run in (for
  ///     `swift test`, the team's harness executable: `.buildProduct(named:)`).
  ///   - registryName: Which of the configuration's ``HarnessConfiguration/workerRegistries``
  ///     to decode with, such as an earlier app version's classes; the current ones by default.
  public init(
    manifests: String = "manifests", archives: String = "LegacyArchives",
    relativeTo filePath: String = #filePath, root: URL? = nil,
    configuration: HarnessConfiguration,
    registryName: String = ClassRegistry.defaultName
  ) {
    let resolvedRoot = root?.standardizedFileURL ?? PackageRoot.containing(filePath)
    let base = resolvedRoot ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    self.root = resolvedRoot
    self.manifestsFolder = PackageRoot.resolve(manifests, in: base)
    self.archivesFolder = PackageRoot.resolve(archives, in: base)
    self.configuration = configuration
    self.registryName = registryName
    let registry = configuration.workerRegistries[registryName] ?? configuration.registry
    self.registry = registry
    // Swift Testing runs cases in parallel: one worker per core decodes them at once.
    var verifier = Verifier(
      registry: registry,
      runner: configuration.runner(
        registryName: registryName,
        workers: max(1, ProcessInfo.processInfo.activeProcessorCount)),
      paths: configuration.worker.paths)
    verifier.namedRegistries = configuration.namedRegistries(
      workers: max(1, ProcessInfo.processInfo.activeProcessorCount))
    self.verifier = verifier
    let files = resolvedRoot == nil ? [] : Verifier.manifestFiles(in: manifestsFolder.path)
    self.manifestFiles = files
    self.loaded = verifier.load(files, archivesDirectory: archivesFolder.path)
  }

  /// One case per archive entry of every manifest, in manifest then entry order.
  ///
  /// A problem that stops verification is a case too, which fails with the reason: no
  /// `Package.swift` above the caller, no manifests, or a manifest with errors (one case per
  /// such manifest, listing them). So a broken setup never passes as zero cases.
  public var cases: [HarnessCase] {
    guard root != nil else {
      return [
        HarnessCase(
          problem: "setup", archive: "Package.swift",
          findings: ["no folder above the test file holds Package.swift; pass root:"],
          project: self)
      ]
    }
    guard !manifestFiles.isEmpty else {
      return [
        HarnessCase(
          problem: relative(manifestsFolder.path), archive: "manifests",
          findings: ["\(relative(manifestsFolder.path)): no manifests in this folder"],
          project: self)
      ]
    }
    var cases: [HarnessCase] = []
    for file in manifestFiles {
      let errors = loaded.diagnostics.filter { $0.severity == .error && $0.location.file == file }
      if !errors.isEmpty {
        cases.append(
          HarnessCase(
            problem: manifestName(file), archive: "manifest",
            findings: errors.map { relative($0.description) }, project: self))
        continue
      }
      guard let manifestIndex = loaded.manifests.firstIndex(where: { $0.file == file }) else {
        continue
      }
      let manifest = loaded.manifests[manifestIndex]
      for entryIndex in manifest.archives.indices {
        cases.append(
          HarnessCase(
            manifest: manifestName(file), archive: manifest.archives[entryIndex].path,
            manifestIndex: manifestIndex, entryIndex: entryIndex, project: self))
      }
    }
    return cases
  }

  /// The five merge checks over this project's manifests and archives.
  public var checks: MergeChecks { MergeChecks(project: self) }

  /// Whether a trap while decoding is contained: off for ``DecodeWorker/inProcess``.
  public var containment: Containment { verifier.containment }

  /// Every entry of every manifest that loaded, verified into one report that records
  /// ``containment``.
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

  /// Verifies one entry through every path the worker runs.
  ///
  /// - Parameter harnessCase: A case of ``cases``.
  /// - Returns: The case's report, or nil for a case that stands for a setup problem.
  public func verify(_ harnessCase: HarnessCase) -> VerificationCase? {
    guard let (manifest, entry) = lookUp(harnessCase) else { return nil }
    return verifier.verify(entry, of: manifest, archivesDirectory: archivesFolder.path)
  }

  // MARK: - Parts

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

  /// Text with the package root's path taken off every path in it, so places read
  /// `manifests/NotesApp-1.0.xml:14:5`.
  func relative(_ text: String) -> String {
    guard let root else { return text }
    return text.replacingOccurrences(of: root.path + "/", with: "")
  }
}
