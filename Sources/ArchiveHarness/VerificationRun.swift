import Foundation
import HarnessManifest
import HarnessVerification
import HarnessVocabulary

/// One `verify` run over a manifests folder, callable from code: what the `verify` command does.
///
/// It lists the folder's manifests, loads them once with the configuration's
/// registries, then verifies every entry (or one shard's) on one lane per
/// processor, each lane with a decode worker of its own (one lane when
/// decoding runs in process, so app code never runs on two threads at once).
/// Each case can be scanned for personal data as it finishes, and the report
/// carries the manifests' digest, the run's parameters and its containment.
///
/// ```swift
/// let run = try VerificationRun(
///   configuration: configuration,
///   options: VerificationRun.Options(manifests: "manifests", archives: "LegacyArchives"))
/// guard !run.loaded.hasErrors else { return }
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
    /// The harness's version, as the report's run parameters name it.
    public var harnessVersion: String

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
    /// - Throws: ``ManifestFolder/NotFound`` naming every folder looked in.
    public init(locatingFrom folder: URL) throws(ManifestFolder.NotFound) {
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
  /// The manifests as loaded, with every diagnostic; a run verifies only when it has no errors.
  public let loaded: Verifier.LoadedManifests
  /// The verifier, with one lane per processor.
  public let verifier: Verifier

  /// Lists and loads the manifests.
  ///
  /// - Parameters:
  ///   - configuration: The harness's registries and where decoding runs.
  ///   - options: What to verify.
  /// - Throws: ``Problem`` when the folder is missing or holds no manifest.
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
    self.options = options
    self.files = files
    self.verifier = verifier
    self.loaded = verifier.load(
      files, archivesDirectory: options.archives, schema: options.schema,
      manifestsDirectory: options.manifests)
  }

  /// The manifests' digest, which a shard merge checks every shard was run against.
  public var manifestsDigest: String { ManifestsDigest.digest(ofFiles: files) }

  /// The run's parameters, as reports record them.
  public var parameters: RunParameters {
    RunParameters(
      manifests: options.manifests, archives: options.archives,
      harnessVersion: options.harnessVersion,
      platform: ProcessInfo.processInfo.operatingSystemVersionString)
  }

  /// Verifies every selected entry, handing each case on as it finishes, in report order,
  /// scanned for personal data when ``Options/privacy`` is set; memory stays flat however many
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
    var scan = scanner()
    try verifier.verify(
      loaded.manifests, archivesDirectory: options.archives, shard: options.shard
    ) { (item: VerificationCase) throws(Failure) in
      var item = item
      scan?.scan(&item)
      try each(item)
    }
    return scan.map { [$0.summary.note] } ?? []
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

  private func scanner() -> VerificationPrivacyScan? {
    options.privacy
      ? VerificationPrivacyScan(manifests: loaded.manifests, archivesDirectory: options.archives)
      : nil
  }
}

extension HarnessConfiguration {
  /// How many entries verify at once: one per processor, each lane with a worker of its own;
  /// one when decoding runs in this process, so app code never runs on two threads at once.
  ///
  /// ```swift
  /// let runner = configuration.runner(workers: configuration.lanes)
  /// ```
  public var lanes: Int {
    worker == .inProcess ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
  }
}
