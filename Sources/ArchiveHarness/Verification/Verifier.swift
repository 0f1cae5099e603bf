import ArchiveCoder
import ArchiveFormat
import ArchiveManifest
import Foundation
import _ArchiveHarnessSystem

/// Runs every archive entry of a set of manifests through the structural check and every decode path.
///
/// For each entry it checks the size limit, reads the archive's structure,
/// runs the legacy, secure and Foundation paths, checks the decoded root's
/// class, evaluates the field expectations, and compares every outcome with
/// what the manifest expects. An entry expected to be rejected that decodes is
/// an ``VerificationCase/Status/unexpectedPass``: an object-substitution hole.
///
/// ```swift
/// let verifier = Verifier(registry: registry, runner: WorkerPathRunner(executable: binary))
/// let loaded = verifier.load(manifestPaths, archivesDirectory: "LegacyArchives")
/// let report = verifier.verify(loaded.manifests, archivesDirectory: "LegacyArchives")
/// ```
///
/// A long run can hand each case on as it finishes instead, so that memory
/// does not grow with the number of entries:
/// ``verify(_:archivesDirectory:shard:each:)`` with a `JSONReportStream`.
package struct Verifier: Sendable {
  /// The app's current classes, which allowed-class names are checked against.
  package var registry: ClassRegistry
  /// How decode paths are run.
  package var runner: any DecodePathRunner
  /// The paths to run, in report order.
  package var paths: [DecodePath]
  /// The bounds on reading archives.
  package var limits: ArchiveLimits
  /// Whether a trap while decoding is contained: the runner's `DecodePathRunner.containment`.
  ///
  /// Like ``VerificationReport/run``, callers record it in the report:
  /// `report.containment = verifier.containment`.
  package var containment: Containment { runner.containment }
  /// The registries an entry may name with `registry="NAME"`, such as an earlier app
  /// version's classes, each with the runner that decodes with it.
  ///
  /// ```swift
  /// verifier.namedRegistries["v1"] = Verifier.NamedRegistry(
  ///   registry: ClassRegistry(modelClasses: NotesV1Model.classes),
  ///   runner: configuration.runner(registryName: "v1"))
  /// ```
  package var namedRegistries: [String: NamedRegistry] = [:]

  /// A registry an entry may name, and the runner that decodes with it.
  package struct NamedRegistry: Sendable {
    /// The registry's classes, which the entry's class names are checked against.
    package var registry: ClassRegistry
    /// How the entry's decode paths are run.
    package var runner: any DecodePathRunner

    /// Creates a named registry.
    package init(registry: ClassRegistry, runner: any DecodePathRunner) {
      self.registry = registry
      self.runner = runner
    }
  }

  /// How strictly every entry's secure read is held to Apple's secure-coding rules, at least:
  /// an entry is held to the stricter of this and its manifest's `Manifest.strictness`.
  ///
  /// What Apple's platforms only log today is a `StrictnessFinding` of the case: a warning
  /// under ``Strictness/current``, an error that fails the case under
  /// ``Strictness/appleFuture``.
  ///
  /// ```swift
  /// var verifier = Verifier(registry: registry, runner: runner)
  /// verifier.strictness = .appleFuture
  /// ```
  package var strictness: Strictness = .current

  /// How many entries are verified at once, each on its own thread.
  ///
  /// Give a `WorkerPathRunner` (HarnessContainment) as many workers. The report keeps manifest and
  /// entry order whatever this is.
  package var concurrency: Int

  /// Creates a verifier.
  ///
  /// - Parameters:
  ///   - registry: The app's current classes.
  ///   - runner: How decode paths are run.
  ///   - paths: The paths to run, in report order.
  ///   - limits: The bounds on reading archives.
  ///   - concurrency: How many entries are verified at once (at least one); a
  ///     `WorkerPathRunner` (HarnessContainment) should have as many workers.
  package init(
    registry: ClassRegistry, runner: any DecodePathRunner,
    paths: [DecodePath] = DecodePath.allCases, limits: ArchiveLimits = .default,
    concurrency: Int = 1
  ) {
    self.registry = registry
    self.runner = runner
    self.paths = paths
    self.limits = limits
    self.concurrency = max(1, concurrency)
  }

  /// Manifests loaded and checked, with every diagnostic found.
  package struct LoadedManifests: Sendable {
    /// The manifests that loaded without errors.
    package var manifests: [Manifest]
    /// Every diagnostic, errors and warnings, in file order.
    package var diagnostics: [ManifestDiagnostic]

    /// Whether any diagnostic is an error, which makes the input unusable.
    package var hasErrors: Bool { diagnostics.containsErrors }
  }

  /// The manifest files in a folder, sorted: every `*.xml` (in any letter case) outside the
  /// `schema/` folder, but the class map files (root `classMap`), which manifests reference.
  ///
  /// The root is found past any comment, declaration and byte-order mark, in UTF-8 or UTF-16
  /// and with a namespace prefix (`XMLRootName`). A file whose root is neither `manifest` nor
  /// `classMap` is listed too, so that loading it names it as an error, never skips it.
  package static func manifestFiles(in directory: String) -> [String] {
    let manager = FileManager.default
    guard let enumerator = manager.enumerator(atPath: directory) else { return [] }
    var files: [String] = []
    for case let relative as String in enumerator
    where relative.lowercased().hasSuffix(".xml") && !relative.hasPrefix("schema/") {
      let path = (directory as NSString).appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
      else { continue }
      if let bytes = manager.contents(atPath: path),
        XMLRootName.localName(of: Array(bytes.prefix(XMLRootName.maximumScanned))) == "classMap"
      {
        continue
      }
      files.append(path)
    }
    return files.sorted()
  }

  /// Loads and checks manifests, collecting every diagnostic.
  ///
  /// - Parameters:
  ///   - paths: The manifest files.
  ///   - archivesDirectory: The folder archive paths are relative to.
  ///   - schema: The XSD; the built-in one unless told otherwise.
  ///   - manifestsDirectory: The folder `classMapFile` references must stay inside; each
  ///     manifest's own folder when nil.
  /// - Returns: The usable manifests and every diagnostic.
  package func load(
    _ paths: [String], archivesDirectory: String, schema: ManifestSchema.Source = .builtIn,
    manifestsDirectory: String? = nil
  ) -> LoadedManifests {
    var manifests: [Manifest] = []
    var diagnostics: [ManifestDiagnostic] = []
    let registered = registeredClassNames
    for path in paths {
      let file = loadFile(
        path, archivesDirectory: archivesDirectory, schema: schema,
        manifestsDirectory: manifestsDirectory, registeredClasses: registered)
      diagnostics += file.diagnostics
      if let manifest = file.manifest { manifests.append(manifest) }
    }
    return LoadedManifests(manifests: manifests, diagnostics: diagnostics)
  }

  /// One manifest file as read once: the checksum of the bytes read, the manifest loaded from
  /// them when it is usable, and every diagnostic.
  package struct LoadedFile: Sendable {
    /// The file.
    package var path: String
    /// The hex SHA-256 of the bytes loaded; `nil` when the file could not be read.
    package var checksum: String?
    /// The manifest, when it loaded without errors and names only registries this verifier
    /// serves.
    package var manifest: Manifest?
    /// Every diagnostic, errors and warnings, in file order.
    package var diagnostics: [ManifestDiagnostic]
  }

  /// Every class name the verifier's registries register: what manifests may name.
  package var registeredClassNames: Set<String> {
    var registered = Set(registry.classNames)
    for named in namedRegistries.values { registered.formUnion(named.registry.classNames) }
    return registered
  }

  /// Loads one manifest file, as ``load(_:archivesDirectory:schema:manifestsDirectory:)`` loads
  /// each, from bytes read once and checksummed, so that a caller that loads it again later
  /// can tell whether it changed meanwhile.
  ///
  /// ```swift
  /// let file = verifier.loadFile("manifests/v1.xml", archivesDirectory: "LegacyArchives")
  /// print(file.checksum ?? "unreadable", file.manifest?.archives.count ?? 0)
  /// ```
  ///
  /// - Parameters:
  ///   - path: The manifest file.
  ///   - archivesDirectory: The folder archive paths are relative to.
  ///   - schema: The XSD; the built-in one unless told otherwise.
  ///   - manifestsDirectory: The folder `classMapFile` references must stay inside; the
  ///     manifest's own folder when nil.
  ///   - registeredClasses: ``registeredClassNames``, when the caller has it already.
  /// - Returns: The checksum, the usable manifest and every diagnostic.
  package func loadFile(
    _ path: String, archivesDirectory: String, schema: ManifestSchema.Source = .builtIn,
    manifestsDirectory: String? = nil, registeredClasses: Set<String>? = nil
  ) -> LoadedFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      return LoadedFile(
        path: path, checksum: nil, manifest: nil,
        diagnostics: [
          ManifestDiagnostic(
            .error, .io, at: Place(file: path, line: 0, column: 0), "cannot read the manifest")
        ])
    }
    let bytes = [UInt8](data)
    let folder = (path as NSString).deletingLastPathComponent
    let result = ManifestLoader.load(
      bytes: bytes, file: path, baseDirectory: folder.isEmpty ? "." : folder,
      archivesDirectory: archivesDirectory, schema: schema,
      registeredClasses: registeredClasses ?? registeredClassNames,
      manifestsRoot: manifestsDirectory)
    var diagnostics = result.diagnostics
    let unknown = (result.manifest?.archives ?? []).filter {
      $0.registry.map { namedRegistries[$0] == nil } ?? false
    }
    for entry in unknown {
      let served = namedRegistries.keys.sorted().map { "'\($0)'" }
      diagnostics.append(
        ManifestDiagnostic(
          .error, .semantic, at: entry.location,
          "registry '\(entry.registry ?? "")' is not one this executable serves ("
            + (served.isEmpty
              ? "it serves only the current classes; add one with "
                + "HarnessConfiguration(additionalRegistries:)"
              : "it serves \(served.joined(separator: ", "))")
            + ")"))
    }
    let usable = result.isValid && unknown.isEmpty ? result.manifest : nil
    return LoadedFile(
      path: path, checksum: SHA256Checksum.hex(bytes), manifest: usable,
      diagnostics: diagnostics)
  }

  /// Verifies every entry of the manifests, or only those of one shard.
  ///
  /// - Parameters:
  ///   - manifests: The loaded manifests.
  ///   - archivesDirectory: The folder archive paths are relative to.
  ///   - shard: The slice of the entries to verify, or `nil` for all of them.
  /// - Returns: The report, which records the shard.
  package func verify(
    _ manifests: [Manifest], archivesDirectory: String, shard: VerificationShard? = nil
  ) -> VerificationReport {
    var cases: [VerificationCase] = []
    verify(manifests, archivesDirectory: archivesDirectory, shard: shard) { cases.append($0) }
    return VerificationReport(cases: cases, shard: shard)
  }

  /// Verifies every entry and store check of the manifests, or only those of one shard,
  /// handing each case on as it finishes, in report order (a manifest's entries, then its store
  /// checks).
  ///
  /// Entries run on ``concurrency`` threads, as in
  /// ``verify(_:archivesDirectory:shard:)``; `each` is called on the calling
  /// thread, one case at a time, in manifest order then entry order. Only the
  /// cases that finished before an earlier one are kept meanwhile (a few per
  /// thread at most: a thread does not run ahead of the slowest entry by more
  /// than that), so memory stays flat however many entries there are. When
  /// `each` throws, no further entry is started, the entries being verified
  /// finish and are dropped, and the error is rethrown.
  ///
  /// ```swift
  /// let stream = try JSONReportStream(path: "verify.json")
  /// try verifier.verify(manifests, archivesDirectory: "LegacyArchives") { item in
  ///   try stream.write(item)
  /// }
  /// try stream.finish()
  /// ```
  ///
  /// - Parameters:
  ///   - manifests: The loaded manifests.
  ///   - archivesDirectory: The folder archive paths are relative to.
  ///   - shard: The slice of the entries to verify, or `nil` for all of them.
  ///   - each: Receives every case, in report order, on the calling thread.
  /// - Throws: What `each` throws.
  package func verify<Failure: Error>(
    _ manifests: [Manifest], archivesDirectory: String, shard: VerificationShard? = nil,
    each: (VerificationCase) throws(Failure) -> Void
  ) throws(Failure) {
    var selected: [(work: VerificationWork, manifest: Manifest)] = []
    for manifest in manifests {
      for entry in manifest.archives
      where shard?.contains(manifest: manifest.file, archive: entry.path) ?? true {
        selected.append((.entry(entry), manifest))
      }
      for check in Self.storeChecks(of: manifest)
      where shard?.contains(manifest: manifest.file, archive: check.path) ?? true {
        selected.append((.store(check), manifest))
      }
    }
    let work = selected
    try OrderedLanes.run(
      work.count, lanes: concurrency,
      { index in
        switch work[index].work {
        case .entry(let entry):
          verify(entry, of: work[index].manifest, archivesDirectory: archivesDirectory)
        case .store(let check):
          timed {
            verify(check, of: work[index].manifest, archivesDirectory: archivesDirectory)
          }
        }
      }, each: each)
  }

  /// Verifies one entry, recording how long it took (``VerificationCase/duration``).
  ///
  /// ```swift
  /// let item = verifier.verify(entry, of: manifest, archivesDirectory: "LegacyArchives")
  /// print(item.status, item.duration ?? .zero)  // passed 0.024 seconds
  /// ```
  package func verify(_ entry: ArchiveEntry, of manifest: Manifest, archivesDirectory: String)
    -> VerificationCase
  {
    timed { untimedVerify(entry, of: manifest, archivesDirectory: archivesDirectory) }
  }

  /// A case with how long making it took (``VerificationCase/duration``).
  private func timed(_ make: () -> VerificationCase) -> VerificationCase {
    let start = MonotonicInstant.now
    var item = make()
    item.duration = MonotonicInstant.now - start
    return item
  }

  private func untimedVerify(
    _ entry: ArchiveEntry, of manifest: Manifest, archivesDirectory: String
  ) -> VerificationCase {
    let location = entry.location
    let filePath = (archivesDirectory as NSString).appendingPathComponent(entry.path)
    guard let data = FileManager.default.contents(atPath: filePath) else {
      return VerificationCase(
        manifest: manifest.file, archive: entry.path, location: location,
        paths: [
          PathResult(
            path: .structure, outcome: .rejected, category: .unreadable,
            message: "\(filePath): cannot read the archive", matches: false)
        ], expectations: [], producer: Self.producer(of: manifest))
    }
    return verify(
      entry, of: manifest, bytes: data.withUnsafeBytes { [UInt8]($0) },
      archivesDirectory: archivesDirectory)
  }

  /// Verifies one entry against bytes in memory, such as an archive being authored.
  ///
  /// ```swift
  /// let checked = verifier.verify(entry, of: manifest, bytes: bytes, archivesDirectory: "LegacyArchives")
  /// print(checked.status)  // passed
  /// ```
  ///
  /// - Parameters:
  ///   - entry: The entry, of `manifest`.
  ///   - manifest: The manifest that lists it.
  ///   - bytes: The archive's bytes, in place of the file the entry names.
  ///   - archivesDirectory: The archives folder, for expectations on an archive that does not read.
  /// - Returns: The case, as ``verify(_:of:archivesDirectory:)`` gives it.
  package func verify(
    _ entry: ArchiveEntry, of manifest: Manifest, bytes: [UInt8], archivesDirectory: String
  ) -> VerificationCase {
    let location = entry.location
    if let name = entry.registry, namedRegistries[name] == nil {
      // Loading refuses such an entry; one verified directly did not run.
      return VerificationCase(
        manifest: manifest.file, archive: entry.path, location: location,
        paths: paths.map {
          PathResult(
            path: .decode($0), outcome: .notRun, category: .workerUnavailable,
            message: "registry '\(name)' is not one this executable serves",
            expected: expectedOutcome(for: $0, entry: entry), matches: false)
        }, expectations: [], producer: Self.producer(of: manifest))
    }
    let runner = entry.registry.flatMap { namedRegistries[$0]?.runner } ?? self.runner
    let classMap = Self.classMap(of: manifest)
    let allowed = manifest.allowedClasses(for: entry)?.map(\.name) ?? []
    var notes: [String] = []
    var deviations: [DecodePath: LinuxFoundationDeviation] = [:]

    // The structure first: size, property list, archive. A failure here is every path's outcome.
    let structural = structuralRejection(bytes, entry: entry)
    var archive: KeyedArchive? = nil
    if structural == nil {
      archive = try? KeyedArchive(bytes: bytes, limits: limits)
    }

    var results: [PathResult] = []
    var outcomes: [DecodePath: DecodeOutcome] = [:]
    var strictnessFindings: [StrictnessFinding] = []
    let severity = max(strictness, manifest.strictness).findingSeverity
    // Every path of the entry in one call: a worker runner sends them in few requests.
    let ran =
      structural == nil
      ? runner.pathOutcomes(
        bytes, paths: paths, allowedClasses: allowed, classMap: classMap,
        topKeys: entry.decodeKeys) : []
    for (index, path) in paths.enumerated() {
      let outcome: DecodeOutcome
      if let structural {
        outcome = .rejected(structural)
      } else {
        switch ran.indices.contains(index) ? ran[index] : .failure(Self.noAnswer(path)) {
        case .success(let decoded):
          outcome = checkRoot(
            decoded.outcome, expected: manifest.rootClass(for: entry)?.name, path: path,
            topKey: entry.topKey, decodeKeys: entry.decodeKeys)
          // Only reads that require secure coding are held to its rules; of a refused read,
          // only the untyped decode calls, as the coder gives them.
          if path == .secure {
            strictnessFindings += decoded.strictnessFindings.filter {
              outcome.decodedValue != nil || $0.rule == .untypedDecode
            }.map {
              var finding = $0
              finding.severity = severity
              return finding
            }
          }
        case .failure(let error):
          results.append(notRun(path, entry: entry, because: error))
          continue
        }
      }
      outcomes[path] = outcome
      results.append(result(for: outcome, path: path, entry: entry))
    }

    if let legacy = outcomes[.legacy], let secure = outcomes[.secure], legacy.decodedValue != nil,
      secure.rejection != nil
    {
      // The advice runs the app's decoders again, with other class lists: in the runner.
      do {
        notes.append(try runner.advice(bytes, allowedClasses: allowed, classMap: classMap))
      } catch {
        notes.append("no allowedClasses advice: \(error)")
      }
    }
    let nilKeys = HarnessDecoder.nilKeys(
      in: outcomes.values.compactMap(\.decodedValue), keys: entry.decodeKeys)
    if !nilKeys.isEmpty { notes.append(HarnessDecoder.nilNote(nilKeys)) }
    for (harnessPath, foundationPath) in [
      (DecodePath.legacy, DecodePath.foundationLegacy), (.secure, .foundationSecure),
    ] {
      guard let ours = outcomes[harnessPath], let theirs = outcomes[foundationPath],
        ours.kind != theirs.kind
      else { continue }
      if let deviation = LinuxFoundationDeviation.recognize(
        harness: ours, foundation: theirs, archive: archive)
      {
        notes.append(deviation.note(path: foundationPath, harness: ours, foundation: theirs))
        deviations[foundationPath] = deviation
        continue
      }
      notes.append(
        "\(harnessPath) and \(foundationPath) disagree: harness \(Self.summary(ours)); Foundation \(Self.summary(theirs))"
      )
    }

    var expectations: [ExpectationResult] = []
    if !entry.expectations.isEmpty {
      let engine = ExpectationEngine(manifest: manifest, limits: limits)
      let findings: [ExpectationFinding]
      if let archive {
        findings = engine.evaluate(entry, in: archive)
      } else {
        findings = engine.evaluate(entry, archivesDirectory: archivesDirectory)
      }
      expectations = findings.map {
        ExpectationResult(
          keyPath: $0.keyPath, passed: $0.passed, expected: $0.expected, actual: $0.actual,
          location: $0.location)
      }
      // The same expectations against the object the secure path decoded: a field the
      // archive holds but the app's decoder drops or changes fails here.
      if let decoded = outcomes[.secure]?.decodedValue {
        let onObject = engine.evaluate(
          entry, in: DecodedTopLevelSubject(decoded, keys: entry.decodeKeys))
        // A key path the archive lacks but the decoded object has names a field a stand-in
        // gives (`tint.red` of a UIColor archived as UIRed): the decoded object decides it.
        for (index, finding) in onObject.enumerated()
        where index < findings.count && finding.passed && !findings[index].passed
          && findings[index].actual == .absent
        {
          expectations[index] = ExpectationResult(
            keyPath: finding.keyPath, passed: true, expected: finding.expected,
            actual: finding.actual, location: finding.location)
        }
        for finding in onObject where !finding.passed {
          expectations.append(
            ExpectationResult(
              keyPath: "secure-decoded " + finding.keyPath, passed: false,
              expected: finding.expected, actual: finding.actual,
              location: finding.location))
        }
      }
    }
    var checked = VerificationCase(
      manifest: manifest.file, archive: entry.path, location: location, paths: results,
      expectations: expectations, notes: notes, producer: Self.producer(of: manifest),
      strictnessFindings: strictnessFindings)
    checked.deviations = deviations
    return checked
  }

  /// The producer as reports name it: `app version`.
  static func producer(of manifest: Manifest) -> String {
    "\(manifest.producer.app) \(manifest.producer.version)"
  }

  // MARK: - Parts

  /// The class map a manifest declares, as the decoders take it: its class mappings, and the
  /// field changes its `<migration>` declares, which conservation accepts.
  package static func classMap(of manifest: Manifest) -> ClassNameMap {
    var entries: [String: String] = [:]
    for mapping in manifest.classMappings {
      entries[mapping.archivedName] = mapping.currentName
    }
    return ClassNameMap(entries: entries, fieldChanges: manifest.migration.fieldChanges)
  }

  /// The error of a path a runner gave no result for.
  static func noAnswer(_ path: DecodePath) -> WorkerProtocolError {
    WorkerProtocolError("the runner gave no result for the \(path) path", kind: .unavailable)
  }

  /// The rejection every path gets when the bytes are not a readable archive, or nil.
  func structuralRejection(_ bytes: [UInt8], entry: ArchiveEntry) -> DecodeRejection? {
    if let maximum = entry.maxSize, bytes.count > maximum {
      return DecodeRejection(
        category: .limitExceeded, keyPath: "$archive",
        message: "archive of \(bytes.count) bytes exceeds the entry's maxSize of \(maximum) bytes")
    }
    do {
      _ = try KeyedArchive(bytes: bytes, limits: limits)
      return nil
    } catch {
      return DecodeRejection(
        category: Self.structuralCategory(error),
        keyPath: error.place.description,
        message: error.description)
    }
  }

  /// The category of a structural error: `truncated`, `unknown-schema-version`, `limit-exceeded` or `malformed`.
  static func structuralCategory(_ error: KeyedArchiveError) -> RejectionCategory {
    RejectionCategory(structural: error)
  }

  /// Turns a decoded root of the wrong class into the `wrong-root-class` rejection the app's cast gives.
  ///
  /// When several top keys were read, the object under `topKey` is the one checked.
  func checkRoot(
    _ outcome: DecodeOutcome, expected: String?, path: DecodePath, topKey: String = "root",
    decodeKeys: [String] = ["root"]
  ) -> DecodeOutcome {
    guard let expected, var value = outcome.decodedValue else { return outcome }
    if let fields = value.topLevelFields {
      guard let field = fields.first(where: { $0.key == topKey }) else { return outcome }
      value = field.value
    }
    let actual = value.className
    guard actual != expected,
      !(registry.registeredClass(named: actual)?.isKind(of: expected) ?? false)
    else { return outcome }
    let checkedKey = decodeKeys.count > 1 ? topKey : decodeKeys.first ?? "root"
    let keyPath = HarnessDecoder.keyPath(ofTopKey: checkedKey)
    let decoded = value == .noObject ? "nil (the key holds $null)" : "a '\(actual)'"
    return .rejected(
      DecodeRejection(
        category: .wrongRootClass, keyPath: keyPath,
        message:
          "\(path.harnessPath): \(keyPath): decoded \(decoded) where the app expects '\(expected)'"
      ))
  }

  private func result(for outcome: DecodeOutcome, path: DecodePath, entry: ArchiveEntry)
    -> PathResult
  {
    let expected = expectedOutcome(for: path, entry: entry)
    var category: PathResult.Category? = nil
    var message: String? = nil
    switch outcome {
    case .decoded:
      break
    case .rejected(let rejection):
      category = .rejection(rejection.category)
      message = rejection.message
    case .crashed(let crash):
      category = .crash(crash.cause)
      // The worker's last words (Swift's `Fatal error:` line) say which decoder trapped.
      message = crash.summary
    }
    let matches: Bool
    switch (expected, outcome) {
    case (nil, .rejected(let rejection)) where rejection.category == .notConserved:
      // The archive is the reference: a path that loses what it holds fails whether or not the
      // manifest says anything of the path.
      matches = false
    case (nil, _): matches = true
    case (.decodes?, _): matches = outcome.decodedValue != nil
    case (.rejected?, .decoded): matches = false
    case (.rejected(let wanted)?, .rejected(let rejection)): matches = rejection.category == wanted
    case (.rejected(let wanted)?, .crashed): matches = wanted == .crashed
    }
    return PathResult(
      path: .decode(path), outcome: outcome.kind, category: category, message: message,
      expected: expected, matches: matches, object: outcome.decodedValue)
  }

  /// A path that did not run: never a match, with the reason as its message.
  private func notRun(_ path: DecodePath, entry: ArchiveEntry, because error: WorkerProtocolError)
    -> PathResult
  {
    PathResult(
      path: .decode(path), outcome: .notRun,
      category: error.kind == .unavailable ? .workerUnavailable : .workerFailed,
      message: error.description, expected: expectedOutcome(for: path, entry: entry),
      matches: false)
  }

  /// What the manifest expects of a path; the harness paths default to `decodes`.
  private func expectedOutcome(for path: DecodePath, entry: ArchiveEntry) -> OutcomeExpectation
    .Outcome?
  {
    let stated = entry.outcome(for: path)?.outcome
    return path.isFoundation ? stated : stated ?? .decodes
  }

  static func summary(_ outcome: DecodeOutcome) -> String {
    switch outcome {
    case .decoded(let value): return "\(outcome.kind) \(value.className)"
    case .rejected(let rejection): return "\(outcome.kind) [\(rejection.category)]"
    case .crashed(let crash): return "\(outcome.kind) (\(crash.cause))"
    }
  }
}

/// One case's work: an archive entry, or a store check.
private enum VerificationWork {
  case entry(ArchiveEntry)
  case store(Verifier.StoreCheck)
}
