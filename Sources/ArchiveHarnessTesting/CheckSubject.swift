import ArchiveHarness

/// One archive entry a merge check looks at: its manifest, its bytes, and its verification.
struct CheckSubject {
  /// The check and the entry, as failures name them.
  let name: String
  let harnessCase: HarnessCase
  let manifest: Manifest
  let entry: ArchiveEntry
  /// The entry verified through the project's worker.
  let result: VerificationCase
  let bytes: [UInt8]
  let project: HarnessProject

  /// The harness paths: the app's own read, legacy and secure.
  static let harnessPaths: Set<CheckedPath> = [.decode(.legacy), .decode(.secure)]

  /// A finding at the entry's `<archive>` element, or at the element that says what `path`
  /// must do: `manifests/NotesApp-1.0.xml:14:3: message`.
  func finding(_ message: String, at path: CheckedPath? = nil) -> HarnessFinding {
    let location = path.map { Findings.location(of: $0, in: entry) } ?? entry.location
    return project.finding(message, at: location)
  }

  /// The manifest's class map, as the decoders take it.
  var classMap: ClassNameMap { Verifier.classMap(of: manifest) }

  /// The entry's archive as a migration record: by its path, or a Keychain item's by the
  /// snapshot's path and the item's key path.
  var recordID: RecordID {
    if let keyPath = entry.keychainItem.flatMap(PropertyListKeyPath.init(parsing:)) {
      return .propertyListValue(
        file: project.archivesFolder.appendingPathComponent(entry.path).path, keyPath: keyPath)
    }
    return .file(
      path: project.archivesFolder.appendingPathComponent(entry.path).path,
      relativePath: entry.path)
  }

  /// The classes the app's secure read of this entry declares.
  var allowedClasses: [String] { manifest.allowedClasses(for: entry)?.map(\.name) ?? [] }

  /// Stops the check when a harness path did not run: nothing can be concluded without it.
  func requireHarnessPathsRan() throws(HarnessFailure) {
    let notRun = result.paths.filter { Self.harnessPaths.contains($0.path) && !$0.ran }
    guard notRun.isEmpty else {
      throw failure(
        notRun.map { finding("\($0.path) did not run: \($0.message ?? "")", at: $0.path) })
    }
  }

  /// A finding when the worker crashed on a harness path.
  func crashFinding() -> HarnessFinding? {
    let crashed = result.paths.filter {
      Self.harnessPaths.contains($0.path) && $0.outcome == .crashed
    }
    guard !crashed.isEmpty else { return nil }
    let which = crashed.map {
      "\($0.path) [\($0.category?.description ?? "")] \($0.message ?? "")"
    }
    .joined(separator: "; ")
    return finding("the worker crashed decoding it (\(which))")
  }

  /// A finding for each harness path that decoded the archive.
  func decodedHarnessPaths() -> [HarnessFinding] {
    result.paths.filter { Self.harnessPaths.contains($0.path) && $0.outcome == .decoded }.map {
      finding(
        "\($0.path): decoded \($0.object?.description ?? "an object"), where the read must "
          + "refuse it", at: $0.path)
    }
  }

  /// The entry's findings against its own manifest, when it does not pass.
  func manifestFindings() -> [HarnessFinding] {
    result.status == .passed ? [] : Findings.lines(result, entry: entry, in: project)
  }

  /// The failure of this check with these findings.
  func failure(_ findings: [HarnessFinding]) -> HarnessFailure {
    HarnessFailure(subject: name, findings: findings, notes: result.notes.map(project.relative))
  }
}
