import ArchiveHarnessTesting
import Foundation
import HarnessTestSupport
import ProfileKit
import ProfilesApp

/// This repository as a team's package would set it up: ProfileKit's classes, the built
/// `archive-harness` as the worker (it serves v1's classes as `ProfilesApp-1` too).
enum Fixture {
  /// The built `archive-harness`, the worker of this repository's tests.
  static let worker = DecodeWorker.buildProduct(named: "profiles-harness")

  /// The sample app's classes, v1's served as `ProfilesApp-1`.
  static let configuration = HarnessConfiguration(
    modelClasses: ProfileModel.classes,
    additionalRegistries: ["ProfilesApp-1": ClassRegistry(modelClasses: ProfilesAppModel.classes)])

  /// This repository's manifests and archives, read through the built worker.
  static let project = HarnessProject(worker: worker, configuration: configuration)

  /// A project of a team package's folder, read through the built worker unless told.
  static func project(
    root: URL, worker: DecodeWorker = worker, manifests: String = "manifests",
    registryName: String = ClassRegistry.defaultName, record: RecordMode = .never,
    environment: [String: String] = [:]
  ) -> HarnessProject {
    HarnessProject(
      worker: worker, configuration: configuration, manifests: manifests, root: root,
      registryName: registryName, record: record, environment: environment)
  }
}

/// A package folder in a temporary directory, laid out as a team's: `Package.swift`,
/// `manifests/` and `LegacyArchives/`, copied from this repository.
struct TeamPackage {
  /// The package's root folder.
  let root: URL

  /// Copies this repository's manifests and archives into a fresh package folder.
  ///
  /// - Parameter copying: Whether to copy `manifests/` and `LegacyArchives/`.
  /// - Throws: When the folder cannot be written.
  init(copying: Bool = true) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "team-package-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try write("// swift-tools-version: 6.0\n", to: "Package.swift")
    guard copying else { return }
    for folder in ["manifests", "LegacyArchives"] {
      try FileManager.default.copyItem(
        at: Corpus.packageRoot.appendingPathComponent(folder),
        to: root.appendingPathComponent(folder))
    }
  }

  /// Writes text to a file in the package, making its folder.
  ///
  /// - Parameters:
  ///   - text: The file's contents.
  ///   - relativePath: The file's path from the package root.
  /// - Throws: When the file cannot be written.
  func write(_ text: String, to relativePath: String) throws {
    let url = root.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  /// Replaces text in a file of the package.
  ///
  /// - Parameters:
  ///   - old: The text to replace; it must occur.
  ///   - new: Its replacement.
  ///   - relativePath: The file's path from the package root.
  /// - Throws: When the file cannot be read or written, or does not hold `old`.
  func replace(_ old: String, with new: String, in relativePath: String) throws {
    let url = root.appendingPathComponent(relativePath)
    let text = try String(contentsOf: url, encoding: .utf8)
    guard text.contains(old) else { throw CocoaError(.fileReadCorruptFile) }
    try write(text.replacingOccurrences(of: old, with: new), to: relativePath)
  }

  /// The SHA-256 of a file in the package, in hexadecimal.
  ///
  /// - Parameter relativePath: The file's path from the package root.
  /// - Returns: The digest.
  /// - Throws: When the file cannot be read.
  func sha256(_ relativePath: String) throws -> String {
    let data = try Data(contentsOf: root.appendingPathComponent(relativePath))
    return SHA256Checksum.hash([UInt8](data)).hexadecimal
  }

  /// Deletes the package folder.
  func remove() {
    try? FileManager.default.removeItem(at: root)
  }
}

extension TeamPackage {
  /// A team package whose one manifest reads v1's trapping archive with v1's own classes.
  ///
  /// - Parameter legacyOutcome: The attributes of the manifest's `<legacy>` element.
  /// - Returns: The package.
  /// - Throws: When it cannot be written.
  static func version1(legacyOutcome: String) throws -> TeamPackage {
    let team = try TeamPackage()
    let archive = "ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive"
    let manifest = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="ProfilesApp" version="1.0" platform="iOS 15.4" produced="2022-03-01"/>
        <allowedClasses>
          <class name="ProfilesApp.UserProfile"/>
          <class name="ProfilesApp.Address"/>
        </allowedClasses>
        <archive path="\(archive)" sha256="\(try team.sha256("LegacyArchives/" + archive))">
          <legacy \(legacyOutcome)/>
          <secure outcome="rejected" category="not-secure-coding"/>
        </archive>
      </manifest>

      """
    try FileManager.default.removeItem(at: team.root.appendingPathComponent("manifests"))
    try team.write(manifest, to: "manifests/ProfilesApp-1.0-v1-classes.xml")
    return team
  }

  /// The project of a ``version1(legacyOutcome:)`` package, decoding with v1's classes.
  func version1Project() -> HarnessProject {
    Fixture.project(root: root, registryName: "ProfilesApp-1")
  }
}
