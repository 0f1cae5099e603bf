import ArchiveManifest
import Foundation

/// Paths and helpers the manifest tests share, in ArchiveManifestTests and ArchiveHarnessTests.
///
/// ```swift
/// let result = try ManifestTestSupport.load(ManifestTestSupport.manifest("<archive …/>"))
/// #expect(ManifestTestSupport.lines(result) == [])
/// ```
package enum ManifestTestSupport {
  /// The package root.
  package static let packageRoot = Corpus.packageRoot.path

  /// The manifest XSD in this checkout.
  package static let schemaPath = packageRoot + "/" + ManifestSchema.relativePath

  /// The real archives vendored in this repository.
  package static let corpusPath = Corpus.directory.path

  /// A 64-digit placeholder checksum.
  package static let zeroSHA = String(repeating: "0", count: 64)

  /// Creates a fresh temporary folder.
  package static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "manifest-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Loads manifest text with an empty archives folder unless one is given.
  package static func load(
    _ text: String, archivesDirectory: String? = nil, registeredClasses: Set<String> = [],
    baseDirectory: String? = nil
  ) throws -> ManifestLoadResult {
    // An empty archives folder made for this load is removed after it.
    let made = archivesDirectory == nil ? try temporaryDirectory() : nil
    defer { made.map { try? FileManager.default.removeItem(atPath: $0) } }
    let archives = archivesDirectory ?? made ?? ""
    return ManifestLoader.load(
      bytes: Array(text.utf8), file: "manifest.xml", baseDirectory: baseDirectory ?? archives,
      archivesDirectory: archives, registeredClasses: registeredClasses)
  }

  /// Returns a manifest whose archive section is `body`, starting on line 4.
  ///
  /// Line 1 is the XML declaration, line 2 the manifest start tag, line 3 the
  /// producer; `body` lines follow from line 4.
  package static func manifest(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
      <producer app="ProfilesApp" version="1.2" platform="iOS 14.4" produced="2021-03-04"/>
    \(body)
    </manifest>
    """
  }

  /// The diagnostics as `line:col: message` lines, for compact assertions.
  package static func lines(_ result: ManifestLoadResult) -> [String] {
    result.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
  }
}
