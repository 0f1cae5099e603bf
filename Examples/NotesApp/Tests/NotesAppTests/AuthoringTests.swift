import Foundation
import Testing

/// `notes-harness manifest author` on the example's own archives, in an empty folder as a new
/// team member would run it: what it writes passes `notes-harness verify` at once.
@Suite("Authoring the example's archives")
struct AuthoringTests {
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test("Every archive of LegacyArchives, authored into an empty folder, then verify passes")
    func authoredManifestPasses() throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "notes-authoring-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("manifests"), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: NotesHarness.project.archivesFolder,
        to: folder.appendingPathComponent("LegacyArchives"))
      let archives = try FileManager.default.contentsOfDirectory(
        atPath: folder.appendingPathComponent("LegacyArchives/NotesV1-1.0").path
      ).filter { $0.hasSuffix(".archive") }.sorted().map { "NotesV1-1.0/\($0)" }
      #expect(archives.count >= 5)

      let harness = Executable(name: "notes-harness")
      let authored = try harness.run(
        [
          "manifest", "author", "--app", "Notes", "--version", "1.0", "-o",
          "manifests/Notes-1.0.xml",
        ] + archives, in: folder)
      #expect(authored.status == 0, "\(authored.stderr)")
      let verified = try harness.run(["verify"], in: folder)
      #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
      #expect(
        verified.stdout.contains(
          "\(archives.count) archive entries: \(archives.count) passed, 0 failed"))
    }
  #endif
}
