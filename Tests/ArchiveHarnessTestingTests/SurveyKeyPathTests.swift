import Testing

@testable import ArchiveHarness

/// `survey --author` names an array's archives as one place, `[*]`, so that a device with more
/// elements than the surveyed file has every one of them migrated.
@Suite("survey --author's property-list key paths")
struct SurveyKeyPathTests {
  @Test("Each array index becomes [*]; keys stay as they are")
  func indicesBecomeWildcards() {
    #expect(ManifestAuthor.StoreFindings.everyElement("recent[2]") == "recent[*]")
    #expect(ManifestAuthor.StoreFindings.everyElement("a[0].b[11].c") == "a[*].b[*].c")
    #expect(ManifestAuthor.StoreFindings.everyElement("profile.current") == "profile.current")
    #expect(ManifestAuthor.StoreFindings.everyElement("\"a.b\"[3]") == "\"a.b\"[*]")
  }
}
