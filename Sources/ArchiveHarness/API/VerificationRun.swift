import ArchiveFormat
import ArchiveManifest
import Foundation

/// One `verify` run over a manifests folder, callable from code: what the `verify` command does.
///
/// It lists the folder's manifests and checks every one with the configuration's
/// registries before any entry runs, so that an error in the last manifest
/// still refuses the whole run. Then it verifies every entry (or one shard's)
/// on two lanes per processor, each lane with a decode worker of its own (one
/// lane when decoding runs in process, so app code never runs on two threads
/// at once). Memory stays flat as manifests grow: past the first 2,000
/// entries, a manifest is loaded again when its entries' turn comes and
/// dropped after them, and one that changed since the check fails the run
/// with a case that says so. Each case can be scanned for personal data as it
/// finishes, and the report carries the manifests' digest, the run's
/// parameters and its containment.
///
/// ```swift
/// let run = try VerificationRun(
///   configuration: configuration,
///   options: VerificationRun.Options(manifests: "manifests", archives: "LegacyArchives"))
/// guard !run.hasErrors else { return }
/// let report = run.report()
/// print(report.passed)
/// ```
public struct VerificationRun {
  /// What to verify, and how.
  public struct Options: Sendable {
    /// The manifests folder.
    public var manifests: String
    /// The folder archive paths are relative to.
    public var archives: String
    /// The XSD manifests are validated against.
    public var schema: ManifestSchema.Source
    /// The slice of the entries to verify, or `nil` for all of them.
    public var shard: VerificationShard?
    /// Whether each verified archive is also scanned for personal data (`verify --privacy`).
    public var privacy: Bool
    /// How strictly secure reads are held to Apple's secure-coding rules, at least
    /// (`verify --strictness`): each entry is held to the stricter of this and its manifest's.
    ///
    /// ```swift
    /// var options = VerificationRun.Options(manifests: "manifests", archives: "LegacyArchives")
    /// options.strictness = .appleFuture
    /// ```
    public var strictness: Strictness = .current
    /// The harness's version, as the report's run parameters name it.
    public var harnessVersion: String
    /// How many entries' manifests the run keeps from its check; later manifests are loaded
    /// again as the run reaches them, so memory stays flat however many entries there are.
    package var keptEntries = 2_000

    /// Creates options.
    ///
    /// ```swift
    /// var options = VerificationRun.Options(manifests: "manifests", archives: "LegacyArchives")
    /// options.shard = VerificationShard(parsing: "2/4")
    /// ```
    public init(
      manifests: String, archives: String, schema: ManifestSchema.Source = .builtIn,
      shard: VerificationShard? = nil, privacy: Bool = false,
      harnessVersion: String = "unknown"
    ) {
      self.manifests = manifests
      self.archives = archives
      self.schema = schema
      self.shard = shard
      self.privacy = privacy
      self.harnessVersion = harnessVersion
    }

    /// The options for the manifests folder found from `folder` (its `manifests/`, or the
    /// nearest one above, with `LegacyArchives/` beside it).
    ///
    /// ```swift
    /// let options = try VerificationRun.Options(
    ///   locatingFrom: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    /// ```
    ///
    /// - Throws: `ManifestFolder.NotFound` naming every folder looked in.
    package init(locatingFrom folder: URL) throws(ManifestFolder.NotFound) {
      let location = try ManifestFolder.locate(from: folder)
      self.init(manifests: location.manifests, archives: location.archives)
    }
  }

  /// Why a run cannot start: its manifests folder is missing or holds no manifest.
  public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The folder.
    public var place: Place
    /// What is wrong with it.
    public var message: String

    /// `manifests: no manifests in this folder`.
    public var description: String { "\(place): \(message)" }
  }

  /// The options.
  public let options: Options
  /// The manifest files, in the order they are verified.
  public let files: [String]
  /// Every manifest's diagnostics, errors and warnings, in file order.
  public let diagnostics: [ManifestDiagnostic]
  /// Whether any manifest has an error: such a run must not verify.
  public var hasErrors: Bool { diagnostics.containsErrors }
  /// The usable manifests, in file order: each one's checksum, entry count, and the manifest
  /// itself while within `Options.keptEntries`.
  private let plans: [Plan]
  /// The archives no manifest lists and the ignore file does not name.
  private let unlisted: [String]
  /// The class names the verifier's registries register, as the check gave them to the loader.
  private let registered: Set<String>
  /// The manifests' digest, from the checksums of the bytes the check read.
  public let manifestsDigest: String
  /// The verifier, with ``HarnessConfiguration/lanes`` lanes.
  package let verifier: Verifier

  /// Lists and loads the manifests.
  ///
  /// - Parameters:
  ///   - configuration: The harness's registries and where decoding runs.
  ///   - options: What to verify.
  /// - Throws: `Problem` when the folder is missing or holds no manifest.
  public init(configuration: HarnessConfiguration, options: Options) throws(Problem) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: options.manifests, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw Problem(place: Place(file: options.manifests), message: "no such manifests folder")
    }
    let files = Verifier.manifestFiles(in: options.manifests)
    guard !files.isEmpty else {
      throw Problem(place: Place(file: options.manifests), message: "no manifests in this folder")
    }
    let lanes = configuration.lanes
    var verifier = Verifier(
      registry: configuration.registry, runner: configuration.runner(workers: lanes),
      paths: configuration.worker.paths, concurrency: lanes)
    verifier.namedRegistries = configuration.namedRegistries(workers: lanes)
    verifier.strictness = options.strictness
    self.options = options
    self.files = files
    self.verifier = verifier
    // The check: every manifest once, keeping the first ones and each one's checksum.
    let registered = verifier.registeredClassNames
    var diagnostics: [ManifestDiagnostic] = []
    var plans: [Plan] = []
    var checksums: [(path: String, checksum: String)] = []
    var kept = 0
    var listed: Set<String> = []
    for path in files {
      let file = verifier.loadFile(
        path, archivesDirectory: options.archives, schema: options.schema,
        manifestsDirectory: options.manifests, registeredClasses: registered)
      diagnostics += file.diagnostics
      checksums.append((path, file.checksum ?? SHA256Checksum.hex([])))
      guard let manifest = file.manifest, let checksum = file.checksum else { continue }
      listed.formUnion(manifest.listedPaths)
      let keep = kept + manifest.archives.count <= options.keptEntries
      if keep { kept += manifest.archives.count }
      plans.append(
        Plan(
          path: path, checksum: checksum, entries: manifest.archives.count,
          kept: keep ? manifest : nil))
    }
    self.diagnostics = diagnostics
    self.plans = plans
    // Archives count as unlisted only when every manifest loaded: a manifest with errors lists
    // archives that did not load.
    self.unlisted =
      diagnostics.containsErrors
      ? []
      : ArchiveFolder.unlisted(
        archives: options.archives, manifests: options.manifests, listed: listed)
    self.registered = registered
    self.manifestsDigest = ManifestsDigest.digest(ofChecksums: checksums)
  }

  /// A usable manifest as the check found it.
  private struct Plan {
    var path: String
    var checksum: String
    var entries: Int
    var kept: Manifest?
  }

  /// The manifests loaded again, all at once, with every diagnostic: what the run checked,
  /// held in memory together.
  @available(*, deprecated, message: "use diagnostics and hasErrors; a run keeps few manifests")
  package var loaded: Verifier.LoadedManifests {
    verifier.load(
      files, archivesDirectory: options.archives, schema: options.schema,
      manifestsDirectory: options.manifests)
  }

  /// How many entries a lane group holds at least: the run verifies manifests a group at a time.
  static let groupEntries = 256

  /// The run's parameters, as reports record them.
  package var parameters: RunParameters {
    RunParameters(
      manifests: options.manifests, archives: options.archives,
      harnessVersion: options.harnessVersion,
      platform: ProcessInfo.processInfo.operatingSystemVersionString)
  }

  /// Verifies every selected entry, handing each case on as it finishes, in report order,
  /// scanned for personal data when `Options.privacy` is set; memory stays flat however many
  /// entries there are.
  ///
  /// ```swift
  /// let notes = try run.verify { item in try stream.write(item) }
  /// try stream.finish(notes: notes)
  /// ```
  ///
  /// - Parameter each: Receives every case on the calling thread.
  /// - Returns: The report's notes: the privacy scan's summary, when it ran.
  /// - Throws: What `each` throws; no further entry starts after it.
  public func verify<Failure: Error>(each: (VerificationCase) throws(Failure) -> Void)
    throws(Failure) -> [String]
  {
    var scan: VerificationPrivacyScan? =
      options.privacy
      ? VerificationPrivacyScan(manifests: [], archivesDirectory: options.archives) : nil
    var next = 0
    while next < plans.count {
      // A group of manifests, loaded (or kept) together and verified on every lane.
      var group: [Manifest] = []
      var entries = 0
      var changed: VerificationCase? = nil
      while next < plans.count, group.isEmpty || entries < Self.groupEntries {
        let plan = plans[next]
        next += 1
        guard let manifest = plan.kept ?? reload(plan) else {
          changed = Self.changedCase(plan.path)
          break
        }
        scan?.add(manifest)
        group.append(manifest)
        entries += plan.entries
      }
      try verifier.verify(group, archivesDirectory: options.archives, shard: options.shard) {
        (item: VerificationCase) throws(Failure) in
        var item = item
        scan?.scan(&item)
        try each(item)
      }
      if let changed { try each(changed) }
    }
    // An archive no manifest lists fails, as in `swift test`; a shard reports them in shard 1.
    if options.shard.map({ $0.index == 1 }) ?? true {
      for archive in unlisted { try each(Self.unlistedCase(archive, options: options)) }
    }
    return scan.map { [$0.summary.note] } ?? []
  }

  /// A manifest the check did not keep, loaded again; `nil` when its bytes changed since the
  /// check or it no longer loads.
  private func reload(_ plan: Plan) -> Manifest? {
    let file = verifier.loadFile(
      plan.path, archivesDirectory: options.archives, schema: options.schema,
      manifestsDirectory: options.manifests, registeredClasses: registered)
    guard file.checksum == plan.checksum else { return nil }
    return file.manifest
  }

  /// The failing case of an archive that no manifest lists.
  static func unlistedCase(_ archive: String, options: Options) -> VerificationCase {
    let path = (options.archives as NSString).appendingPathComponent(archive)
    return VerificationCase(
      manifest: "(no manifest)", archive: archive, location: Place(file: path),
      paths: [
        PathResult(
          path: .structure, outcome: .rejected, category: .unlisted,
          message:
            "no manifest lists it; add its entry (manifest author --update), or name it in "
            + "\((options.manifests as NSString).appendingPathComponent(ArchiveFolder.ignoreFileName)) "
            + "to keep it without one", matches: false)
      ], expectations: [])
  }

  /// The failing case of a manifest that changed between the check and its verification.
  static func changedCase(_ path: String) -> VerificationCase {
    VerificationCase(
      manifest: path, archive: "", location: Place(file: path),
      paths: [
        PathResult(
          path: .structure, outcome: .rejected, category: .unreadable,
          message:
            "the manifest changed after the run checked it, so its entries were not verified; "
            + "run verify again", matches: false)
      ], expectations: [])
  }

  /// Verifies every selected entry into one report, with the digest, the run's parameters,
  /// the containment and the privacy scan's note.
  ///
  /// ```swift
  /// let report = run.report()
  /// print(TextReportWriter().render(report))
  /// ```
  public func report() -> VerificationReport {
    var cases: [VerificationCase] = []
    let notes = verify { cases.append($0) }
    var report = VerificationReport(cases: cases, shard: options.shard)
    report.notes += notes
    report.manifestsDigest = manifestsDigest
    report.run = parameters
    report.containment = verifier.containment
    return report
  }

}

extension HarnessConfiguration {
  /// How many entries verify at once: two per processor, each lane with a worker of its own;
  /// one when decoding runs in this process, so app code never runs on two threads at once.
  ///
  /// A lane's entry goes back and forth between this process (reading, comparing, reporting)
  /// and its worker (decoding, and after a crash a fresh fork), so one lane keeps a processor
  /// only partly busy; two per processor keep them busy. On 2 cores, `scripts/bench-verify`'s
  /// 10,008 entries took 16.6 s on two lanes and 13.5 s on four; six were no faster than four.
  ///
  /// ```swift
  /// let runner = configuration.runner(workers: configuration.lanes)
  /// ```
  public var lanes: Int {
    worker == .inProcess ? 1 : 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)
  }
}
