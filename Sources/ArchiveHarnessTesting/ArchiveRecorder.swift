import ArchiveHarness
import Foundation
import _ArchiveHarnessSystem

/// Drafts manifest entries for the archives no manifest lists, under ``RecordMode/missing``.
///
/// An archive below `LegacyArchives/Set/` goes into `manifests/Set.xml` (an archive at the
/// top of the folder, into the manifest named after the folder): added to it with
/// ``ManifestAuthor/update(existingText:file:with:schema:)`` when it exists, else authored
/// whole. All the unlisted archives of one manifest are drafted in one write, under a lock,
/// since Swift Testing runs their cases at once; each case then reports its own archive.
final class ArchiveRecorder: Sendable {
  /// An archive no manifest lists, and the manifest its entry goes into.
  struct Unlisted: Sendable, Hashable {
    /// The archive's path relative to the archives folder.
    let archive: String
    /// The manifest's absolute path.
    let manifest: String
  }

  /// The archives no manifest lists, sorted.
  let unlisted: [Unlisted]
  /// What each recorded archive's case reports, by archive path, once its manifest is drafted.
  private let outcomes = Locked<[String: HarnessFailure]>([:])

  init(unlisted: [Unlisted]) {
    self.unlisted = unlisted
  }

  /// The files below the archives folder that no manifest lists: every regular file but
  /// hidden ones and notes beside the archives (`README`, `*.md`, `*.txt`, `*.tsv`).
  ///
  /// - Parameters:
  ///   - archivesFolder: The archives folder.
  ///   - manifestsFolder: The manifests folder, where new entries go.
  ///   - listed: The archive paths the manifests list.
  /// - Returns: The unlisted archives, sorted by path.
  static func unlisted(archivesFolder: URL, manifestsFolder: URL, listed: Set<String>)
    -> [Unlisted]
  {
    ArchiveFolder.unlisted(
      archives: archivesFolder.path, manifests: manifestsFolder.path, listed: listed
    ).map { path in
      let components = path.split(separator: "/")
      let set = components.count > 1 ? String(components[0]) : archivesFolder.lastPathComponent
      return Unlisted(
        archive: path, manifest: manifestsFolder.appendingPathComponent(set + ".xml").path)
    }
  }

  /// Drafts the entry of an unlisted archive, with the others of its manifest, once.
  ///
  /// - Parameters:
  ///   - item: The archive.
  ///   - name: The case's name, the failure's subject.
  ///   - project: The project, whose verifier records what each path does.
  /// - Returns: The case's failure: `recorded: review the outcomes and commit` at the new
  ///   entry, or why nothing was recorded.
  func record(_ item: Unlisted, name: String, in project: HarnessProject) -> HarnessFailure {
    outcomes.withLock { outcomes in
      if let outcome = outcomes[item.archive] { return outcome }
      let group = unlisted.filter { $0.manifest == item.manifest }
      for (archive, outcome) in draft(group, into: item.manifest, in: project) {
        outcomes[archive] = outcome
      }
      return outcomes[item.archive]
        ?? HarnessFailure(
          subject: name,
          findings: [project.finding("nothing was recorded", at: Place(file: item.archive))])
    }
  }

  /// Scans each archive, then drafts the entries of those the scan passes in one write.
  private func draft(_ group: [Unlisted], into manifest: String, in project: HarnessProject)
    -> [String: HarnessFailure]
  {
    let manifestName = project.manifestName(manifest)
    var outcomes: [String: HarnessFailure] = [:]
    var inputs: [ManifestAuthor.Input] = []
    let scanner = PrivacyScanner()
    for item in group {
      let subject = "\(manifestName) › \(item.archive)"
      let file = project.archivesFolder.appendingPathComponent(item.archive)
      guard let bytes = FileManager.default.contents(atPath: file.path).map({ [UInt8]($0) })
      else {
        outcomes[item.archive] = HarnessFailure(
          subject: subject,
          findings: [project.finding("cannot read the archive", at: Place(file: file.path))])
        continue
      }
      let found = scanner.scan(bytes, file: project.relative(file.path))
      guard found.isEmpty else {
        outcomes[item.archive] = HarnessFailure(
          subject: subject,
          findings: [
            project.finding(
              "not recorded: the privacy scan found personal data; anonymize the archive "
                + "(`anonymize`), then run again", at: Place(file: file.path))
          ] + found.map { HarnessFinding($0.description) })
        continue
      }
      inputs.append(ManifestAuthor.Input(path: item.archive, bytes: bytes))
    }
    guard !inputs.isEmpty else { return outcomes }
    let result = author(inputs, into: manifest, in: project)
    let errors = result.diagnostics.filter { $0.severity == .error }
    var written: String?
    if !result.text.isEmpty, errors.isEmpty {
      do {
        try SafeFileWriter.write(result.text, to: manifest)
        written = manifest
      } catch {
        for input in inputs {
          outcomes[input.path] = HarnessFailure(
            subject: "\(manifestName) › \(input.path)",
            findings: [project.finding("not recorded: \(error)", at: Place(file: manifest))])
        }
        return outcomes
      }
    }
    guard let written else {
      for input in inputs {
        outcomes[input.path] = HarnessFailure(
          subject: "\(manifestName) › \(input.path)",
          findings: [project.finding("not recorded", at: Place(file: manifest))]
            + errors.map { HarnessFinding(project.relative($0.description), at: $0.location) })
      }
      return outcomes
    }
    // The new entries' lines, from the manifest as written.
    let reloaded = project.verifier.load([written], archivesDirectory: project.archivesFolder.path)
    let entries = reloaded.manifests.first?.archives ?? []
    for input in inputs {
      let location =
        entries.first { $0.path == input.path }?.location
        ?? Place(file: written, line: 1, column: 1)
      outcomes[input.path] = HarnessFailure(
        subject: "\(manifestName) › \(input.path)",
        findings: [
          HarnessFinding(
            "\(project.relative(location.description)): recorded: review the outcomes and commit",
            at: location)
        ],
        notes: result.diagnostics.filter { $0.severity != .note }.map {
          project.relative($0.description)
        })
    }
    return outcomes
  }

  /// The manifest text with the archives' entries: added to the manifest, or a new one.
  private func author(
    _ inputs: [ManifestAuthor.Input], into manifest: String, in project: HarnessProject
  ) -> ManifestAuthor.Result {
    var options = ManifestAuthor.Options()
    options.archivesDirectory = project.archivesFolder.path
    if project.registryName != ClassRegistry.defaultName {
      options.registry = project.registryName
    }
    // `NotesV1-1.0.xml` names the app `NotesV1` and its version `1.0`.
    let set = ((manifest as NSString).lastPathComponent as NSString).deletingPathExtension
    if let dash = set.lastIndex(of: "-"), set[set.index(after: dash)...].first?.isNumber == true {
      options.app = String(set[..<dash])
      options.version = String(set[set.index(after: dash)...])
    } else {
      options.app = set
    }
    let author = ManifestAuthor(
      options: options, registeredClasses: Set(project.registry.classNames),
      verifier: project.verifier)
    if let data = FileManager.default.contents(atPath: manifest) {
      return author.update(
        existingText: String(decoding: data, as: UTF8.self), file: manifest, with: inputs)
    }
    return author.author(inputs, file: manifest)
  }
}
