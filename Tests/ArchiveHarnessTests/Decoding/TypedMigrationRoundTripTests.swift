import ArchiveCoder
import ArchiveHarness
import HarnessTestSupport
import ProfileKit
import Testing

/// A typed migration's settings are its round trip's: one configuration, not two copies.
@Suite("Typed migration holds its round trip")
struct TypedMigrationRoundTripTests {
  static let allowed = ["ProfileKit.UserProfile", "ProfileKit.Address"]

  @Test("A migration made from a round trip migrates a v1 profile as the one made from settings")
  func roundTripInitMatchesSettingsInit() throws {
    let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
    let registry = ClassRegistry(modelClasses: ProfileModel.classes)
    let trip = RoundTrip(registry: registry, classMap: map, allowedClasses: Self.allowed)
    let fromTrip = TypedMigration(roundTrip: trip)
    let fromSettings = TypedMigration(
      registry: registry, classMap: map, allowedClasses: Self.allowed)
    let archive = SampleArchives.profileArchive()
    let result = fromTrip.migrate(archive)
    #expect(result == fromSettings.migrate(archive))
    guard case .rewritten(_, let className) = result else {
      Issue.record("the v1 profile was not rewritten: \(result)")
      return
    }
    #expect(className == "ProfileKit.UserProfile")
  }

  @Test("Changing a migration's allowed classes changes its round trip's")
  func settingsWriteThroughToRoundTrip() throws {
    var migration = TypedMigration(
      registry: ClassRegistry(modelClasses: ProfileModel.classes), classMap: ClassNameMap(),
      allowedClasses: Self.allowed)
    migration.allowedClasses = ["ProfileKit.Memo"]
    #expect(migration.roundTrip.allowedClasses == ["ProfileKit.Memo"])
    #expect(migration.roundTrip.classMap == migration.classMap)
  }
}
