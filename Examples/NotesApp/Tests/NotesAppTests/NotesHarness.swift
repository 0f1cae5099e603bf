import ArchiveHarnessTesting
import Foundation
import NotesKit
import NotesV1

/// The Notes app's harness setup for `swift test`: NotesKit's classes, decoded in the
/// `notes-harness` build product, so that a decoder that traps fails one case, not the run.
enum NotesHarness {
  /// NotesKit's classes, with `notes-harness` as the decode worker; on iOS, which starts no
  /// child processes, in the test process (containment off: a trap ends the test host).
  ///
  /// Version 1's classes are the registry "v1", as in `notes-harness`: an entry with
  /// `registry="v1"` pins what 1.0's own code does with its archive.
  static let configuration = HarnessConfiguration(
    modelClasses: NotesModel.classes,
    additionalRegistries: ["v1": ClassRegistry(modelClasses: NotesV1Model.classes)],
    worker: worker)

  #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    static let worker = DecodeWorker.inProcess
  #else
    static let worker = DecodeWorker.buildProduct(named: "notes-harness")
  #endif

  /// `manifests/` and `LegacyArchives/` of this package, found from this file's path.
  static let project = HarnessProject(configuration: configuration)

  /// The bytes of an archive below `LegacyArchives/`.
  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: project.archivesFolder.appendingPathComponent(path)))
  }
}
