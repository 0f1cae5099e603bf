import Foundation
import Testing

/// `notes-harness manifest author` on the example's own archives, in an empty folder as a new
/// team member would run it: it reports the one change 2.0 made on purpose until the manifest
/// declares it, and what it then writes passes `notes-harness verify` at once.
@Suite("Authoring the example's archives")
struct AuthoringTests {
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test("Every archive of LegacyArchives, authored into an empty folder, then verify passes")
    func authoredManifestPasses() throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "notes-authoring-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      for made in ["manifests", "LegacyArchives"] {
        try FileManager.default.createDirectory(
          at: folder.appendingPathComponent(made), withIntermediateDirectories: true)
      }
      // The notes' archives; the Keychain snapshot has its own manifest (KeychainTests).
      try FileManager.default.copyItem(
        at: NotesHarness.project.archivesFolder.appendingPathComponent("NotesV1-1.0"),
        to: folder.appendingPathComponent("LegacyArchives/NotesV1-1.0"))
      let archives = try FileManager.default.contentsOfDirectory(
        atPath: folder.appendingPathComponent("LegacyArchives/NotesV1-1.0").path
      ).filter { $0.hasSuffix(".archive") }.sorted().map { "NotesV1-1.0/\($0)" }
      #expect(archives.count >= 5)

      let harness = Executable(name: "notes-harness")
      let manifest = folder.appendingPathComponent("manifests/Notes-1.0.xml")
      // 1. Authored afresh, the archives show the one change 2.0 made on purpose: a note's
      //    priority, text in 1.0, is the Priority enum's integer in 2.0. The archive is the
      //    reference, so authoring reports it and exits 1 rather than recording the change.
      let first = try harness.run(
        [
          "manifest", "author", "--app", "Notes", "--version", "1.0", "-o",
          "manifests/Notes-1.0.xml",
        ] + archives, in: folder)
      #expect(first.status == 1, "\(first.stderr)")
      #expect(
        first.stderr.contains(
          "priority: the archive holds \"low\" (string); the current code writes 0 (integer)"),
        "\(first.stderr)")
      // 2. The team declares the change, keeps the manifest's head (its class map), and
      //    authors the entries again into it.
      let authoredText = try String(contentsOf: manifest, encoding: .utf8)
      let head = try #require(authoredText.range(of: "\n  <archive ")).lowerBound
      let declared: String =
        String(authoredText[..<head]) + "\n  <migration>\n"
        + "    <convertedField class=\"NotesKit.Note\" key=\"priority\" reason=\"2.0 stores the enum's raw value\"/>\n"
        + "  </migration>\n</manifest>\n"
      try declared.write(to: manifest, atomically: true, encoding: .utf8)
      let authored = try harness.run(
        ["manifest", "author", "--update", "manifests/Notes-1.0.xml"] + archives, in: folder)
      #expect(authored.status == 0, "\(authored.stderr)")
      let verified = try harness.run(["verify"], in: folder)
      #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
      #expect(
        verified.stdout.contains(
          "\(archives.count) archive entries: \(archives.count) passed, 0 failed"))
    }
  #endif
}
