import ArchiveHarnessTesting
import Foundation
import NotesKit
import Testing

@Suite("The merge checks: what version 2 must keep and what it must refuse")
struct NegativeCaseTests {
  private let checks = NotesHarness.project.mergeChecks
  /// The manifest of what version 2 makes of 1.0's archives; NotesV1-1.0-own-code.xml lists
  /// some of them too, read by 1.0's own classes.
  private static let version2 = "NotesV1-1.0.xml"

  /// Version 1's class names mapped to version 2's, as the manifest maps them.
  private let roundTrip = RoundTrip(
    registry: ClassRegistry(modelClasses: NotesModel.classes),
    classMap: ClassNameMap(
      entries: ["NotesV1.Attachment": "NotesKit.FileAttachment"],
      moduleRenames: ["NotesV1": "NotesKit"],
      // As NotesV1-1.0.xml's <migration> declares: 2.0 keeps the priority as an integer.
      fieldChanges: [DeclaredChange(className: "NotesKit.Note", key: "priority", .converted)]),
    allowedClasses: ["NotesKit.Note", "NotesKit.Notebook", "NSArray"])

  private func harnessPaths(_ archive: String) throws -> [PathResult] {
    let harnessCase = try #require(
      NotesHarness.project.cases.first { $0.archive == archive && $0.manifest == Self.version2 })
    let result = try #require(harnessCase.result())
    return result.paths.filter { $0.path == .decode(.legacy) || $0.path == .decode(.secure) }
  }

  @Test(
    "An Attachment at the root, where the app reads a Note, is rejected as the wrong root class")
  func wrongRootClassIsRejected() throws {
    try checks.rejects(.wrongRootClass)
    #expect(
      checks.entries(rejectedAs: .wrongRootClass).map(\.description) == [
        "NotesV1-1.0.xml › NotesV1-1.0/note-wrong-root.archive"
      ])
    let paths = try harnessPaths("NotesV1-1.0/note-wrong-root.archive")
    #expect(paths.count == 2)
    for path in paths {
      #expect(path.outcome == .rejected)
      #expect(path.category == .rejection(.wrongRootClass))
    }
  }

  @Test("A truncated archive is refused as malformed at the read step and never rewritten")
  func truncatedArchiveIsNeverRewritten() throws {
    try checks.rejects(.malformed)
    #expect(
      checks.entries(rejectedAs: .malformed).map(\.archive) == [
        "NotesV1-1.0/note-truncated.archive"
      ])
    let bytes = try NotesHarness.bytes("NotesV1-1.0/note-truncated.archive")
    guard case .failure(let refusal) = roundTrip.run(bytes) else {
      Issue.record("the truncated archive was migrated")
      return
    }
    #expect(refusal.step == .read)
    let paths = try harnessPaths("NotesV1-1.0/note-truncated.archive")
    #expect(paths.count == 2)
    for path in paths {
      #expect(path.outcome == .rejected)
      #expect(path.category == .rejection(.malformed))
    }
  }

  @Test("An archive of an unknown $version is rejected on every path")
  func unknownVersionIsRejected() throws {
    try checks.rejects(.unknownSchemaVersion)
    let paths = try harnessPaths("NotesV1-1.0/note-unknown-version.archive")
    #expect(paths.count == 2)
    for path in paths {
      #expect(path.outcome == .rejected)
      #expect(path.category == .rejection(.unknownSchemaVersion))
    }
    let bytes = try NotesHarness.bytes("NotesV1-1.0/note-unknown-version.archive")
    #expect(throws: KeyedArchiveError.self) { try KeyedArchive(bytes: bytes) }
  }

  @Test("Version 1's notes migrate to version 2 with their fields, the changed priority included")
  func fullNoteRoundTrips() throws {
    try checks.roundTripKeepsFields()
    #expect(
      checks.entriesThatRoundTrip().map(\.description).contains(
        "NotesV1-1.0.xml › NotesV1-1.0/note-full.archive"))
    let bytes = try NotesHarness.bytes("NotesV1-1.0/note-full.archive")
    let migrated = try roundTrip.run(bytes).get()
    #expect(migrated.before == migrated.after)
    #expect(migrated.after.className == "NotesKit.Note")
    #expect(migrated.after[field: "priority"] == .integer(Int64(Priority.high.rawValue)))
    #expect(migrated.after[field: "attachment"]?.className == "NotesKit.FileAttachment")
    // Foundation's own unarchiver reads the rewritten note into version 2's classes.
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(migrated.bytes))
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    let note =
      unarchiver.decodeObject(
        of: NotesModel.allowedClasses, forKey: NSKeyedArchiveRootObjectKey) as? Note
    #expect(note?.priority == .high, "\(String(describing: unarchiver.error))")
    // The archive's file name (a pseudonym), as version 1 read it.
    let fileName = migrated.before[field: "attachment"]?[field: "fileName"]
    #expect(fileName.map { .string(note?.attachment?.fileName ?? "") == $0 } == true)
  }

  @Test("Every historical archive passes, on every path")
  func everyHistoricalArchivePasses() throws {
    try checks.everyHistoricalArchivePasses()
  }
}
