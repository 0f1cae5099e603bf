import ArchiveManifest
import Foundation

/// The privacy scan of each verified archive, reported as the `privacy` part of its case:
/// what `verify --privacy` runs.
///
/// It is `privacy-scan`'s scanner and review rule (``PrivacyScanner/apply(_:to:)``)
/// over the archives the run verified, each with its own manifest entry's
/// `<reviewed/>` values. A finding no review covers adds a failing `privacy`
/// part (`rejected [personal-data]`, the findings masked in its message), so
/// the case fails and verify exits 1; a review that covers nothing is a note.
///
/// ```swift
/// var scan = VerificationPrivacyScan(manifests: loaded.manifests, archivesDirectory: "LegacyArchives")
/// var checked = verifier.verify(entry, of: manifest, archivesDirectory: "LegacyArchives")
/// scan.scan(&checked)
/// print(scan.summary.note)  // privacy scan: 1 archive, 0 findings, 0 reviewed
/// ```
package struct VerificationPrivacyScan {
  /// What the scan covered, for the report's note.
  package struct Summary: Sendable {
    /// Archives scanned.
    package var archives = 0
    /// Findings no review covers.
    package var findings = 0
    /// Findings a review covers.
    package var reviewed = 0

    /// The report's note: `privacy scan: 7 archives, 0 findings, 1 reviewed`.
    package var note: String {
      let found = findings == 1 ? "1 finding" : "\(findings) findings"
      let scanned = archives == 1 ? "1 archive" : "\(archives) archives"
      return "privacy scan: \(scanned), \(found), \(reviewed) reviewed"
    }
  }

  /// The reviews of each entry that has any, by manifest and case name.
  private var reviews: [String: [ReviewedValue]]
  /// The entries whose archive is a Keychain item's data, by manifest and case name.
  private var keychainItems: [String: ArchiveEntry] = [:]
  private let archivesDirectory: String
  private let scanner: PrivacyScanner
  /// What the scan covered so far.
  package private(set) var summary = Summary()

  /// Prepares a scan of the cases of a run.
  ///
  /// - Parameters:
  ///   - manifests: The manifests the run verifies, for each entry's reviews.
  ///   - archivesDirectory: The folder archive paths are relative to.
  ///   - scanner: The scanner.
  package init(
    manifests: [Manifest], archivesDirectory: String, scanner: PrivacyScanner = PrivacyScanner()
  ) {
    self.reviews = [:]
    self.archivesDirectory = archivesDirectory
    self.scanner = scanner
    for manifest in manifests { add(manifest) }
  }

  /// Adds a manifest's reviews, for a run that loads its manifests as it goes.
  ///
  /// ```swift
  /// var scan = VerificationPrivacyScan(manifests: [], archivesDirectory: "LegacyArchives")
  /// scan.add(manifest)
  /// ```
  ///
  /// - Parameter manifest: A manifest whose cases the scan will see.
  package mutating func add(_ manifest: Manifest) {
    for entry in manifest.archives {
      if !entry.reviewed.isEmpty {
        reviews[Self.key(manifest.file, entry.caseName), default: []] += entry.reviewed
      }
      if entry.keychainItem != nil {
        keychainItems[Self.key(manifest.file, entry.caseName)] = entry
      }
    }
  }

  /// Scans the archive of one case: a finding no review covers adds a failing `privacy` part,
  /// a review that covers nothing a note; ``summary`` counts what was found.
  ///
  /// - Parameter item: The case, as the verifier gave it.
  package mutating func scan(_ item: inout VerificationCase) {
    // A store check's case has no archive of its own.
    guard !item.paths.isEmpty, let bytes = archiveBytes(of: item) else { return }
    summary.archives += 1
    let applied = PrivacyScanner.apply(
      reviews[Self.key(item.manifest, item.archive)] ?? [],
      to: scanner.scan(bytes, file: item.archive))
    summary.reviewed += applied.reviewed.count
    for stale in applied.stale {
      item.notes.append(
        "privacy: the review of '\(stale.keyPathText)' (\(stale.location)) covers no finding; remove it"
      )
    }
    guard !applied.open.isEmpty else { return }
    summary.findings += applied.open.count
    let count = applied.open.count
    let lines = applied.open.map { finding in
      "\(finding.place): [\(finding.kind.rawValue)] \(finding.kind.summary) "
        + "in a \(finding.holder.rawValue): \(finding.masked)"
    }
    item.paths.append(
      PathResult(
        path: .privacy, outcome: .rejected, category: .personalData,
        message: (count == 1 ? "1 value looks" : "\(count) values look")
          + " like personal data: " + lines.joined(separator: "; "),
        matches: false))
  }

  /// The bytes a case verified: a Keychain item's data, or the archive file's; nil when they
  /// cannot be read or are over the reader's limit, which already fails the structure part.
  private func archiveBytes(of item: VerificationCase) -> [UInt8]? {
    let limit = scanner.limits.propertyList.maximumInputSize
    if let entry = keychainItems[Self.key(item.manifest, item.archive)],
      let name = entry.keychainItem
    {
      guard
        case .success(let data) = Verifier.keychainItemData(
          entry, item: name, archivesDirectory: archivesDirectory), data.count <= limit
      else { return nil }
      return data
    }
    return Self.read(
      (archivesDirectory as NSString).appendingPathComponent(item.archive), limit: limit)
  }

  /// A regular file's bytes, when it is at most `limit` bytes long; a link is followed, as the
  /// verifier follows it to read the archive.
  private static func read(_ path: String, limit: Int) -> [UInt8]? {
    let path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      attributes[.type] as? FileAttributeType == .typeRegular,
      let size = attributes[.size] as? NSNumber, size.intValue <= limit,
      let data = FileManager.default.contents(atPath: path), data.count <= limit
    else { return nil }
    return [UInt8](data)
  }

  private static func key(_ manifest: String, _ archive: String) -> String {
    manifest + "\u{0}" + archive
  }
}
