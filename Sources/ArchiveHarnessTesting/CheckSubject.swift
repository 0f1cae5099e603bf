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

  /// The entry's place in its manifest, such as `manifests/NotesApp-1.0.xml:14:3`.
  var place: String { project.relative(entry.location.description) }

  /// Where the manifest says what a path must do.
  func place(of path: CheckedPath) -> String {
    project.relative(Findings.location(of: path, in: entry).description)
  }

  /// The manifest's class map, as the decoders take it.
  var classMap: ClassNameMap { Verifier.classMap(of: manifest) }

  /// The entry's archive as a migration record, by its path.
  var recordID: RecordID {
    .file(
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
        notRun.map { "\(place(of: $0.path)): \($0.path) did not run: \($0.message ?? "")" })
    }
  }

  /// A finding when the worker crashed on a harness path.
  func crashFinding() -> String? {
    let crashed = result.paths.filter {
      Self.harnessPaths.contains($0.path) && $0.outcome == .crashed
    }
    guard !crashed.isEmpty else { return nil }
    let which = crashed.map {
      "\($0.path) [\($0.category?.description ?? "")] \($0.message ?? "")"
    }
    .joined(separator: "; ")
    return "\(place): the worker crashed decoding it (\(which))"
  }

  /// A finding for each harness path that decoded the archive.
  func decodedHarnessPaths() -> [String] {
    result.paths.filter { Self.harnessPaths.contains($0.path) && $0.outcome == .decoded }.map {
      "\(place(of: $0.path)): \($0.path): decoded \($0.object?.description ?? "an object"), "
        + "where the read must refuse it"
    }
  }

  /// The entry's findings against its own manifest, when it does not pass.
  func manifestFindings() -> [String] {
    result.status == .passed ? [] : Findings.lines(result, entry: entry, in: project).map(\.text)
  }

  /// The failure of this check with these findings.
  func failure(_ findings: [String]) -> HarnessFailure {
    HarnessFailure(subject: name, findings: findings, notes: result.notes.map(project.relative))
  }
}
