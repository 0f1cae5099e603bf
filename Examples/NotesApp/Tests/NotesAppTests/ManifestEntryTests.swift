import ArchiveHarnessTesting
import Testing

@Suite("The Notes app's historical archives")
struct ManifestEntryTests {
  @Test(
    "Each archive entry is as its manifest says",
    arguments: HarnessCases.all(
      manifests: "manifests", archives: "LegacyArchives", relativeTo: #filePath,
      configuration: NotesHarness.configuration))
  func entry(_ harnessCase: HarnessCase) throws {
    try harnessCase.verify()
  }

  @Test("Every manifest loads and every entry is a case")
  func everyEntryIsACase() {
    #expect(
      NotesHarness.project.cases.map(\.manifest) == Array(repeating: "NotesV1-1.0.xml", count: 7))
  }
}
