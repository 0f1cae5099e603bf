import ArchiveHarnessTesting
import Testing

@Suite("The Notes app's historical archives")
struct ManifestEntryTests {
  @Test("Each archive entry is as its manifest says", arguments: NotesHarness.project.cases)
  func entry(_ harnessCase: HarnessCase) {
    harnessCase.verify()
  }

  @Test("Every manifest loads and every entry is a case")
  func everyEntryIsACase() {
    // Version 2's reading of 1.0's archives, and 1.0's own (registry="v1").
    let counts = Dictionary(grouping: NotesHarness.project.cases, by: \.manifest).mapValues(\.count)
    #expect(
      counts == [
        "NotesV1-1.0.xml": 7, "NotesV1-1.0-own-code.xml": 3, "NotesV1-1.0-keychain.xml": 2,
      ])
  }
}
