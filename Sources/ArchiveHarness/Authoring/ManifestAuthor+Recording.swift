import ArchiveFormat
import ArchiveManifest

extension ManifestAuthor {
  /// One archive entry as authoring writes it: the survey's findings, then what every decode
  /// path did with the archive.
  struct EntryDraft {
    /// The archive and its survey.
    var item: Surveyed
    /// The entry's `allowedClasses`, by current name, sorted.
    var allowedClasses: [String]
    /// Where ``allowedClasses`` came from, as a comment above it.
    var allowedComment: String
    /// The entry's `rootClass`, by current name, if it has one.
    var rootClass: String?
    /// The expectations to write, in the survey's order.
    var expectations: [ArchiveSurvey.Expectation]
    /// The outcome each path gave, by element name (`legacy`, `secure`, `foundation`), in
    /// schema order; empty until recorded.
    var outcomes: [(element: String, outcome: OutcomeExpectation.Outcome)] = []
    /// Comments written after the outcomes: notes from the run, paths not recorded.
    var comments: [String] = []
    /// Why each expectation left out was left out, by its index in ``expectations``.
    var dropped: [Int: String] = [:]
    /// What each path's current code does not keep of the archive (conservation), by element
    /// name: never recorded as expected, reported as an error.
    var losses: [(element: String, message: String)] = []
  }

  /// The drafts for surveyed archives: their allowed classes from the app's reads (or the
  /// narrowest set each needs), root classes and expectations under current class names.
  func drafts(_ surveyed: [Surveyed], plan: ClassPlan) -> [EntryDraft] {
    surveyed.map { item in
      let archivedRoot = item.survey.rootClassName
      let root = options.rootClass ?? archivedRoot.flatMap(plan.root)
      let needed = Set(item.survey.reachableClasses.compactMap { plan.current[$0] })
      let allowed: [String]
      let comment: String
      if let root, let read = options.reads[root] {
        allowed = read
        comment = "allowedClasses: the app's read of a '\(root)' root, as --read states it."
      } else {
        allowed = needed.sorted()
        comment =
          "allowedClasses: REVIEW. The narrowest set this archive needs, not the app's own read: "
          + "name the read with the read option, \(root ?? "ROOT")=CLASS,CLASS,…"
      }
      return EntryDraft(
        item: item, allowedClasses: allowed, allowedComment: comment, rootClass: root,
        expectations: item.survey.expectations)
    }
  }

  /// Runs every decode path on each draft, as `verify` will, and records what happened: each
  /// path's outcome, and which expectations do not hold (left out, with the reason).
  ///
  /// - Parameters:
  ///   - drafts: The entries to record; each must be listed in `text`.
  ///   - text: A manifest listing the drafts as they are now.
  ///   - file: The manifest's path, for diagnostics.
  ///   - baseDirectory: The folder `classMapFile` references are relative to.
  ///   - diagnostics: Receives a diagnostic when the draft cannot be loaded.
  func record(
    _ drafts: inout [EntryDraft], in text: String, file: String, baseDirectory: String,
    diagnostics: inout [ManifestDiagnostic]
  ) {
    guard let verifier, !drafts.isEmpty else { return }
    guard
      let manifest = loadedDraft(
        text, file: file, baseDirectory: baseDirectory, diagnostics: &diagnostics)
    else { return }
    var entries: [String: ArchiveEntry] = [:]
    for entry in manifest.archives {
      let key = Self.entryKey(path: entry.path, keychainItem: entry.keychainItem)
      if entries[key] == nil { entries[key] = entry }
    }
    for index in drafts.indices {
      guard let entry = entries[drafts[index].item.input.entryKey] else { continue }
      let checked = verifier.verify(entry, of: manifest, bytes: drafts[index].item.input.bytes)
      drafts[index].observe(checked, entry: entry)
      for loss in drafts[index].losses {
        diagnostics.append(
          ManifestDiagnostic(
            .error, .semantic, at: entry.location,
            "\(entry.caseName): \(loss.element): \(loss.message); fix the decoder, or declare the "
              + "change in the manifest's <migration>"))
      }
    }
  }

  /// Verifies entries a manifest already lists against their archives' bytes now, and reports
  /// each path or expectation that no longer holds, without writing over it.
  ///
  /// - Parameters:
  ///   - inputs: The archives, by the path the manifest lists.
  ///   - text: The manifest.
  ///   - file: The manifest's path, for diagnostics.
  ///   - baseDirectory: The folder `classMapFile` references are relative to.
  ///   - diagnostics: Receives one warning for each entry whose outcome changed.
  /// - Returns: The paths of the archives whose entries no longer hold.
  func reportChanges(
    _ inputs: [Input], in text: String, file: String, baseDirectory: String,
    diagnostics: inout [ManifestDiagnostic]
  ) -> [String] {
    guard let verifier, !inputs.isEmpty,
      let manifest = loadedDraft(
        text, file: file, baseDirectory: baseDirectory, diagnostics: &diagnostics)
    else { return [] }
    var changed: [String] = []
    for input in inputs {
      guard
        let entry = manifest.archives.first(where: {
          Self.normalized($0.path) == Self.normalized(input.path)
        })
      else { continue }
      let checked = verifier.verify(entry, of: manifest, bytes: input.bytes)
      var changes: [String] = []
      for result in checked.paths where !result.matches {
        let expected = result.expected.map { "\($0)" } ?? "nothing"
        let observed = result.category.map { "\(result.outcome) [\($0)]" } ?? "\(result.outcome)"
        changes.append("\(result.path): expected \(expected), now \(observed)")
      }
      for expectation in checked.expectations where !expectation.passed {
        let place = expectation.keyPath.isEmpty ? "root" : expectation.keyPath
        changes.append("\(place): expected \(expectation.expected), now \(expectation.actual)")
      }
      guard !changes.isEmpty else { continue }
      changed.append(input.path)
      diagnostics.append(
        ManifestDiagnostic(
          .warning, .semantic, at: entry.location,
          "archive '\(input.path)' no longer gives what its entry records (\(changes.joined(separator: "; "))); "
            + "the entry is left as it is: review it, or remove it and author it again"))
    }
    return changed
  }

  /// The draft manifest as a model, or nil (with a diagnostic) when it does not load.
  private func loadedDraft(
    _ text: String, file: String, baseDirectory: String, diagnostics: inout [ManifestDiagnostic]
  ) -> Manifest? {
    let loaded = ManifestLoader.load(
      bytes: Array(text.utf8), file: file, baseDirectory: baseDirectory,
      archivesDirectory: options.archivesDirectory)
    guard let manifest = loaded.manifest else {
      let reasons = loaded.diagnostics.filter { $0.severity == .error }.map(\.description)
      diagnostics.append(
        ManifestDiagnostic(
          .error, .semantic, at: Place(file: file, line: 0, column: 0),
          "the manifest being written does not load, so no decode path was run: "
            + reasons.joined(separator: "; ")))
      return nil
    }
    return manifest
  }
}

extension ManifestAuthor.EntryDraft {
  /// Records what one verification of the draft's entry observed.
  mutating func observe(_ checked: VerificationCase, entry: ArchiveEntry) {
    // A Keychain item's values are secrets: what a decode found or lost is not written.
    let masked = item.input.keychainItem != nil
    for path in DecodePath.manifestPaths {
      guard let element = path.manifestElementName,
        let result = checked.paths.first(where: { $0.path == .decode(path) })
      else { continue }
      if let deviation = checked.deviations[path] {
        comments.append(
          "\(element): not recorded, a Linux Foundation deviation [\(deviation.rawValue)] that "
            + "Apple's Foundation does not share")
        continue
      }
      if path.isFoundation, result.outcome == .crashed,
        LinuxFoundationDeviation.foundationIsCorelibs,
        checked.paths.first(where: { $0.path == .decode(.secure) })?.outcome == .rejected
      {
        // corelibs traps on reads that Apple's Foundation refuses with an error under
        // .setErrorAndReturn; pinning the trap would fail the same manifest on a Mac.
        comments.append(
          "\(element): not recorded. swift-corelibs-foundation crashed "
            + "(\(result.category.map { "\($0)" } ?? "a signal")) where the harness rejects; "
            + "Apple's Foundation refuses such a read with an error instead")
        continue
      }
      switch (result.outcome, result.category) {
      case (.rejected, .rejection(.notConserved)?):
        // The archive is the reference: a loss is a finding to fix or declare, never an
        // outcome to expect.
        losses.append(
          (
            element,
            masked
              ? "the current code does not keep what the item's archive holds (the values are "
                + "not shown, since the item's data is secret)"
              : result.message ?? "the current code does not keep the archive"
          ))
        comments.append(
          "\(element): not recorded, the current code does not keep what the archive holds")
      case (.decoded, _):
        outcomes.append((element, .decodes))
      case (.rejected, .rejection(let category)?):
        outcomes.append((element, .rejected(category)))
      case (.crashed, _):
        outcomes.append((element, .rejected(.crashed)))
      default:
        comments.append(
          "\(element): not recorded, \(result.outcome): \(result.message ?? "no reason given")")
      }
    }
    comments += checked.notes

    // The first results are the entry's expectations, in order, checked against the archive;
    // failures on the decoded object follow, each at its expectation's place.
    guard checked.expectations.count >= entry.expectations.count,
      entry.expectations.count == expectations.count
    else { return }
    for (index, result) in checked.expectations.prefix(entry.expectations.count).enumerated()
    where !result.passed {
      dropped[index] =
        masked ? "the archive holds another value" : "the archive holds \(result.actual)"
    }
    var byPlace: [Place: Int] = [:]
    for (index, expectation) in entry.expectations.enumerated()
    where byPlace[expectation.location] == nil {
      byPlace[expectation.location] = index
    }
    for result in checked.expectations.dropFirst(entry.expectations.count) where !result.passed {
      guard let index = byPlace[result.location], dropped[index] == nil else { continue }
      dropped[index] =
        masked
        ? "the object the secure path decodes has another value"
        : "the object the secure path decodes has \(result.actual)"
    }
  }
}
