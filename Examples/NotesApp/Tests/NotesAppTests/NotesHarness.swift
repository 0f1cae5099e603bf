import ArchiveHarnessTesting
import Foundation
import NotesKit
import NotesV1

/// The Notes app's harness setup for `swift test`, made once: NotesKit's classes, decoded in
/// the `notes-harness` build product, so that a decoder that traps fails one case, not the run.
enum NotesHarness {
  /// Where decoding runs: `notes-harness`; on iOS, which starts no child processes, the test
  /// process (containment off: a trap ends the test host).
  #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    static let worker = DecodeWorker.inProcess
  #else
    static let worker = DecodeWorker.buildProduct(named: "notes-harness")
  #endif

  /// The cases and the merge checks of this package's `manifests/` and `LegacyArchives/`.
  ///
  /// The folders are found from this file's path. An archive put in `LegacyArchives/` that no
  /// manifest lists gets its entry drafted (`record: .missing`; `ARCHIVE_HARNESS_RECORD=never`
  /// in CI).
  ///
  /// Version 1's classes are the registry "v1", as in `notes-harness`: an entry with
  /// `registry="v1"` pins what 1.0's own code does with its archive.
  static let project = HarnessProject(
    worker: worker,
    configuration: HarnessConfiguration(
      modelClasses: NotesModel.classes,
      additionalRegistries: ["v1": ClassRegistry(modelClasses: NotesV1Model.classes)]),
    record: .missing)

  /// The bytes of an archive below `LegacyArchives/`.
  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: project.archivesFolder.appendingPathComponent(path)))
  }
}
