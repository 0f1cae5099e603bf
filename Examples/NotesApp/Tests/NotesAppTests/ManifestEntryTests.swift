import Testing
import Verification

@Suite("The Notes app's historical archives")
struct ManifestEntryTests {
  @Test("The manifests load without errors against the registered classes")
  func manifestsLoad() {
    let errors = NotesManifestCase.loaded.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(errors.map(\.description).joined(separator: "\n"))")
    #expect(NotesManifestCase.all.count == 7)
  }

  @Test("Each archive entry is as its manifest says", arguments: NotesManifestCase.all)
  func entry(_ manifestCase: NotesManifestCase) throws {
    let result = try manifestCase.run()
    #expect(
      result.status == .passed,
      "\(JUnitReportWriter().failureLines(result).joined(separator: "\n"))")
  }
}
