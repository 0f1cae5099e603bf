@_exported import ArchiveFormat
import Foundation

/// The real archives vendored in `Tests/Fixtures/RealArchives`, with their origins and licences.
///
/// `SOURCES.tsv` there gives each folder's origin, commit and licence, `INVENTORY.tsv` the format
/// and classes of each file, and `NOTICE` and `LICENSES/` the notices those licences require.
package enum Corpus {
  /// The package's root folder: the nearest folder above this file that holds `Package.swift`.
  ///
  /// Tests find the package's files through this, never by counting folders up from their own
  /// path, so that a test file can move between folders.
  package static let packageRoot: URL = {
    let start = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    var folder = start
    while folder.path != "/" {
      let manifest = folder.appendingPathComponent("Package.swift").path
      if FileManager.default.fileExists(atPath: manifest) { return folder }
      folder.deleteLastPathComponent()
    }
    return start
  }()

  /// The corpus folder inside this repository.
  package static let directory: URL = packageRoot.appendingPathComponent(relativePath)

  /// The corpus folder relative to the package root.
  package static let relativePath = "Tests/Fixtures/RealArchives"

  /// Whether a path below the corpus folder is an archive, not an inventory or licence file.
  package static func isArchive(_ relativePath: String) -> Bool {
    relativePath.contains("/") && !relativePath.hasPrefix("LICENSES/")
      && !relativePath.hasSuffix(".tsv") && !relativePath.hasSuffix(".md")
  }

  /// Every archive in the corpus, as paths relative to it, sorted.
  package static let allFiles: [String] = {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var files: [String] = []
    let prefix = directory.standardizedFileURL.path + "/"
    for case let url as URL in enumerator {
      let path = url.standardizedFileURL.path
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
        path.hasPrefix(prefix), isArchive(String(path.dropFirst(prefix.count)))
      else { continue }
      files.append(String(path.dropFirst(prefix.count)))
    }
    return files.sorted()
  }()

  /// The archives outside `broken/` folders.
  package static var validFiles: [String] { allFiles.filter { !$0.contains("/broken/") } }

  /// The archives inside `broken/` folders.
  package static var brokenFiles: [String] { allFiles.filter { $0.contains("/broken/") } }

  /// The bytes of a corpus file.
  package static func bytes(_ relativePath: String) throws -> [UInt8] {
    try Data(contentsOf: directory.appendingPathComponent(relativePath)).withUnsafeBytes {
      Array($0)
    }
  }
}

/// The archive builder tests use; it lives in KeyedArchive so that generators can use it too.
package typealias ArchiveBuilder = KeyedArchiveBuilder
