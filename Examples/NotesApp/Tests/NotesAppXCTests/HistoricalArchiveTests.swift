import ArchiveHarnessXCTest
import NotesKit
import NotesV1
import XCTest

/// The Notes app's historical archives under XCTest, as a team whose tests use XCTest writes
/// them: every manifest entry in one test method, and the merge checks.
final class HistoricalArchiveTests: XCTestCase {
  /// Made once for the class: the manifests load once and one worker pool serves every test.
  static let project = HarnessProject(
    worker: .buildProduct(named: "notes-harness"),
    configuration: HarnessConfiguration(
      modelClasses: NotesModel.classes,
      additionalRegistries: ["v1": ClassRegistry(modelClasses: NotesV1Model.classes)]),
    record: .missing)

  func testEveryArchiveEntryIsAsItsManifestSays() {
    verifyEveryArchive(of: Self.project)
  }

  func testVersion1NotesRoundTripWithTheirFields() throws {
    try Self.project.mergeChecks.roundTripKeepsFields()
  }

  func testWrongRootClassIsRejected() throws {
    try Self.project.mergeChecks.rejects(.wrongRootClass)
  }

  func testUnknownSchemaVersionIsRejected() throws {
    try Self.project.mergeChecks.rejects(.unknownSchemaVersion)
  }

  func testTruncatedArchiveIsNeverRewritten() throws {
    try Self.project.mergeChecks.rejects(.malformed)
  }
}
