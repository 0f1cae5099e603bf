import ArchiveHarnessTesting
import Foundation
import NotesKit

/// The Notes app's harness setup for `swift test`: NotesKit's classes, decoded in the
/// `notes-harness` build product, so that a decoder that traps fails one case, not the run.
enum NotesHarness {
  /// NotesKit's classes, with `notes-harness` as the decode worker.
  static let configuration = HarnessConfiguration(
    modelClasses: NotesModel.classes, worker: .buildProduct(named: "notes-harness"))

  /// `manifests/` and `LegacyArchives/` of this package, found from this file's path.
  static let project = HarnessProject(configuration: configuration)

  /// The bytes of an archive below `LegacyArchives/`.
  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: project.archivesFolder.appendingPathComponent(path)))
  }
}
