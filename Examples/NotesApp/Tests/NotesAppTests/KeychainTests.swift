import ArchiveHarnessTesting
import Foundation
import Testing

/// The sync session version 1.0 archived into the Keychain: version 2's queries must still
/// find it, and it must still read.
@Suite("The Keychain items version 1.0 left")
struct KeychainTests {
  private static let manifest = "NotesV1-1.0-keychain.xml"
  private static let snapshot = "Keychain/notes-1.0-keychain.json"
  private static let session = #"genericPassword."com.example.notes.sync".notes-sync"#

  @Test("The snapshot is a case, and so is the session's entry, and both pass")
  func snapshotAndSessionAreCases() throws {
    let cases = NotesHarness.project.cases.filter { $0.manifest == Self.manifest }
    #expect(
      Set(cases.map(\.archive)) == [Self.snapshot, "\(Self.snapshot):\(Self.session)"])
    for harnessCase in cases {
      #expect(harnessCase.check() == nil, "\(harnessCase)")
    }
    let session = try #require(cases.first { $0.archive.hasSuffix(Self.session) }?.result())
    #expect(session.paths.contains { $0.path == .decode(.secure) && $0.outcome == .decoded })
  }

  @Test("A sync service version 2 renamed would sign the user out: verify names the item")
  func renamedServiceLosesTheSession() throws {
    let root = try #require(NotesHarness.project.root)
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("notes-keychain-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let text = try String(
      contentsOf: root.appendingPathComponent("manifests/\(Self.manifest)"), encoding: .utf8)
    let renamed = text.replacingOccurrences(
      of: #"service="com.example.notes.sync""#, with: #"service="com.example.notes.account""#)
    #expect(renamed != text)
    try renamed.write(
      to: folder.appendingPathComponent(Self.manifest), atomically: true, encoding: .utf8)
    let run = try Executable(name: "notes-harness").run([
      "verify", "--manifests", folder.path, "--archives",
      root.appendingPathComponent("LegacyArchives").path,
    ])
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(
      run.stdout.contains(
        "\(Self.snapshot):\(Self.session): no Keychain query of the manifest finds this item"),
      "\(run.stdout)")
    #expect(!run.stdout.contains("placeholder-token"))
  }
}
