import ArchiveCoder
import ArchiveManifest
import Foundation
import HarnessTestSupport
import ProfileKit
import Testing

@testable import ArchiveHarness

/// One archive entry of one shipped manifest, as a test argument named by manifest and file.
struct ManifestCase: Sendable, CustomTestStringConvertible, Encodable {
  let manifest: String
  let archive: String

  var testDescription: String { "\(manifest) › \(archive)" }

  static let root = Corpus.packageRoot.path
  static let archives = root + "/LegacyArchives"
  static let schema = root + "/" + ManifestSchema.relativePath
  static let registry = ClassRegistry(modelClasses: ProfileModel.classes)

  /// The shipped manifests, loaded once.
  static let loaded: Verifier.LoadedManifests = {
    let verifier = Verifier(registry: registry, runner: InProcessPathRunner(registry: registry))
    return verifier.load(
      Verifier.manifestFiles(in: root + "/manifests"), archivesDirectory: archives)
  }()

  /// Every entry of every shipped manifest.
  static let all: [ManifestCase] = loaded.manifests.flatMap { manifest in
    manifest.archives.map {
      ManifestCase(manifest: (manifest.file as NSString).lastPathComponent, archive: $0.path)
    }
  }

  /// The verifier the tests use: every path in a worker when the binary is built, else in process.
  static let verifier: Verifier = {
    if let binary = CommandRunner.executable {
      return Verifier(registry: registry, runner: WorkerPathRunner(executable: binary))
    }
    return Verifier(
      registry: registry, runner: InProcessPathRunner(registry: registry),
      paths: [.legacy, .secure])
  }()

  func run() throws -> VerificationCase {
    let manifest = try #require(
      Self.loaded.manifests.first { ($0.file as NSString).lastPathComponent == self.manifest })
    let entry = try #require(manifest.archives.first { $0.path == archive })
    return Self.verifier.verify(entry, of: manifest, archivesDirectory: Self.archives)
  }
}
