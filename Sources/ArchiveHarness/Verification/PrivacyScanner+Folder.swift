import ArchiveFormat
import ArchiveManifest
import Foundation

// The privacy scan of an archives folder. It lives beside verify's own privacy scan rather than
// in Anonymization/, whose byte and archive scanner the fuzz targets compile alone: a folder
// holds stores too (a Keychain snapshot, read item by item), which Migration/ reads.

extension PrivacyScanner {
  /// Scans every file in a folder and its subfolders, and applies the manifests' reviews.
  ///
  /// A Keychain snapshot is scanned item by item, each item's data and attributes named
  /// `FILE:CLASS.SERVICE.ACCOUNT`, never as JSON text. Hidden files and folders (names
  /// starting with `.`) are skipped, and
  /// symbolic links are not followed; a link, or a file over the input size
  /// limit, is reported as unreadable.
  ///
  /// ```swift
  /// let report = PrivacyScanner().scan(folder: "LegacyArchives")
  /// #expect(report.findings.isEmpty)
  /// ```
  ///
  /// - Parameter folder: The archives folder.
  /// - Returns: The findings, and the files that could not be read.
  public func scan(folder: String) -> PrivacyScanReport {
    scan(folder: folder, reviews: [:])
  }

  /// Scans every file in a folder, applying the manifests' reviewed values: `reviews` gives
  /// each manifest entry's, by archive path relative to `folder`.
  package func scan(folder: String, reviews: [String: [ReviewedValue]]) -> PrivacyScanReport {
    var report = PrivacyScanReport()
    var reviewsByPath: [String: [ReviewedValue]] = [:]
    for (path, values) in reviews { reviewsByPath[Self.normalized(path), default: []] += values }
    var scanned: Set<String> = []
    let listing = ArchiveFolderListing.listing(of: folder)
    for link in listing.links {
      report.unreadable.append(
        .init(file: Self.join(folder, link), message: "a symbolic link; not followed"))
    }
    for relative in listing.files {
      let path = Self.join(folder, relative)
      let key = Self.normalized(relative)
      scanned.insert(key)
      let limit = limits.propertyList.maximumInputSize
      let size =
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)??.intValue
        ?? 0
      guard size <= limit else {
        report.unreadable.append(
          .init(file: path, message: "file of \(size) bytes exceeds the limit of \(limit) bytes"))
        continue
      }
      guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
        report.unreadable.append(.init(file: path, message: "cannot read the file"))
        continue
      }
      report.filesScanned += 1
      guard KeychainSnapshot.looksLikeSnapshot(bytes) else {
        let applied = Self.apply(reviewsByPath[key] ?? [], to: scan(bytes, file: path))
        report.findings += applied.open
        report.reviewedFindings += applied.reviewed
        report.staleReviews += applied.stale.map { .init(archivePath: relative, review: $0) }
        continue
      }
      scanned.formUnion(
        scanSnapshot(bytes, path: path, relative: relative, reviews: reviewsByPath, into: &report))
    }
    for (path, values) in reviewsByPath.sorted(by: { $0.key < $1.key })
    where !scanned.contains(path) {
      report.staleReviews += values.map { .init(archivePath: path, review: $0) }
    }
    return report
  }

  /// Scans a Keychain snapshot item by item, never its JSON text, whose base64 reads as tokens.
  ///
  /// Each item's data is its own input (an archive as an archive, other data by its printable
  /// bytes), named `FILE:CLASS.SERVICE.ACCOUNT`, and so are its account, service and access
  /// group, which can hold an email. An item's reviews are its `<archive keychainItem>`
  /// entry's.
  ///
  /// - Returns: The review keys the items answer to, written either way an entry names an item.
  private func scanSnapshot(
    _ bytes: [UInt8], path: String, relative: String, reviews: [String: [ReviewedValue]],
    into report: inout PrivacyScanReport
  ) -> Set<String> {
    let snapshot: KeychainSnapshot
    do throws(MigrationError) {
      snapshot = try KeychainSnapshot(parsing: bytes, file: path)
    } catch {
      report.unreadable.append(.init(file: path, message: error.description))
      return []
    }
    var keys: Set<String> = []
    for item in snapshot.items {
      let name = "\(Self.normalized(relative)):\(item.keyPath)"
      let dotted = "\(Self.normalized(relative)):\(item.dottedName)"
      keys.formUnion([name, dotted])
      let place = "\(path):\(item.keyPath)"
      var findings = scan(item.data, file: place)
      for attribute in [item.account, item.service, item.accessGroup ?? ""] where !attribute.isEmpty
      {
        findings += scan(Array(attribute.utf8), file: place)
      }
      let applied = Self.apply((reviews[name] ?? []) + (reviews[dotted] ?? []), to: findings)
      report.findings += applied.open
      report.reviewedFindings += applied.reviewed
      report.staleReviews += applied.stale.map { .init(archivePath: name, review: $0) }
    }
    return keys
  }

  private static func join(_ folder: String, _ relative: String) -> String {
    folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
  }

  private static func normalized(_ path: String) -> String {
    path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
  }
}
