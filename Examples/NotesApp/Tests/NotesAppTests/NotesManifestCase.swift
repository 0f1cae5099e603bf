import Decoding
import Foundation
import Manifest
import NotesKit
import Testing
import Verification

/// One archive entry of one of the example's manifests, as a test argument named by both.
///
/// Everything is found from this file's path, inside the example: `manifests/` and
/// `LegacyArchives/`. When the `ArchiveHarnessTesting` product exists, this file becomes
/// its one-line equivalent.
struct NotesManifestCase: Sendable, CustomTestStringConvertible, Encodable {
  let manifest: String
  let archive: String

  var testDescription: String { "\(manifest) › \(archive)" }

  /// The example package's folder.
  static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()
  static let archives = root + "/LegacyArchives"
  static let registry = ClassRegistry(modelClasses: NotesModel.classes)

  /// The harness paths, run in this process: the model code is the app's own and trusted here.
  static let verifier = Verifier(
    registry: registry, runner: InProcessPathRunner(registry: registry), paths: [.legacy, .secure])

  /// The example's manifests, loaded and checked once against the registered classes.
  static let loaded = verifier.load(
    Verifier.manifestFiles(in: root + "/manifests"), archivesDirectory: archives)

  /// Every entry of every manifest.
  static let all: [NotesManifestCase] = loaded.manifests.flatMap { manifest in
    manifest.archives.map {
      NotesManifestCase(
        manifest: (manifest.file as NSString).lastPathComponent, archive: $0.path)
    }
  }

  /// Verifies the entry on the legacy and secure paths.
  func run() throws -> VerificationCase {
    let manifest = try #require(
      Self.loaded.manifests.first { ($0.file as NSString).lastPathComponent == self.manifest })
    let entry = try #require(manifest.archives.first { $0.path == archive })
    return Self.verifier.verify(entry, of: manifest, archivesDirectory: Self.archives)
  }

  /// The bytes of an archive below `LegacyArchives/`.
  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: archives + "/" + path)))
  }
}
