import ArchiveHarnessTesting
import Foundation
import HarnessTestSupport
import Testing

@Suite("Record mode: archives no manifest lists")
struct RecordModeTests {
  /// A team package with one more archive, a copy of the valid profile, at `path`.
  private func teamWithUnlisted(_ path: String) throws -> TeamPackage {
    let team = try TeamPackage()
    let source = team.root.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/profile-valid.archive")
    let target = team.root.appendingPathComponent("LegacyArchives/" + path)
    try FileManager.default.createDirectory(
      at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: source, to: target)
    return team
  }

  @Test("An unlisted archive is a case of the manifest named after its folder")
  func unlistedArchiveIsACase() throws {
    let team = try teamWithUnlisted("ProfilesApp-1.0/profile-copy.archive")
    defer { team.remove() }
    let cases = Fixture.project(root: team.root).cases
    #expect(cases.count == 25)
    #expect(cases.last?.description == "ProfilesApp-1.0.xml › ProfilesApp-1.0/profile-copy.archive")
  }

  @Test("Under never, an unlisted archive fails saying how to record it, and nothing is written")
  func neverFailsAndWritesNothing() throws {
    let team = try teamWithUnlisted("ProfilesApp-1.0/profile-copy.archive")
    defer { team.remove() }
    let before = try team.sha256("manifests/ProfilesApp-1.0.xml")
    let unlisted = try #require(Fixture.project(root: team.root, record: .never).cases.last)
    let failure = try #require(unlisted.check())
    #expect(
      failure.findings.map(\.text) == [
        "LegacyArchives/ProfilesApp-1.0/profile-copy.archive: no manifest lists it; run the "
          + "tests with ARCHIVE_HARNESS_RECORD=missing to draft its entry into "
          + "manifests/ProfilesApp-1.0.xml"
      ])
    #expect(try team.sha256("manifests/ProfilesApp-1.0.xml") == before)
  }

  @Test("Under missing, the entry is drafted at the end of its manifest and the case fails once")
  func missingRecordsTheEntry() throws {
    let team = try teamWithUnlisted("ProfilesApp-1.0/profile-copy.archive")
    defer { team.remove() }
    let manifest = team.root.appendingPathComponent("manifests/ProfilesApp-1.0.xml")
    let unlisted = try #require(Fixture.project(root: team.root, record: .missing).cases.last)
    let failure = try #require(unlisted.check())
    let text = try String(contentsOf: manifest, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(
      lines.firstIndex { $0.contains("<archive path=\"ProfilesApp-1.0/profile-copy.archive\"") })
    let finding = try #require(failure.findings.first)
    #expect(finding.text.hasPrefix("manifests/ProfilesApp-1.0.xml:\(line + 1):"))
    #expect(finding.text.hasSuffix(": recorded: review the outcomes and commit"))
    #expect(finding.location?.line == line + 1)
    #expect(finding.location?.file == manifest.standardizedFileURL.path)
    // The same project reports the same recording; a new one finds it listed and passing.
    #expect(unlisted.check() == failure)
    let next = Fixture.project(root: team.root, record: .never)
    #expect(next.cases.count == 25)
    let recorded = try #require(
      next.cases.first { $0.archive == "ProfilesApp-1.0/profile-copy.archive" })
    #expect(recorded.check() == nil)
  }

  @Test("Under missing, an archive in a new folder gets a new manifest named after the folder")
  func missingAuthorsANewManifest() throws {
    let team = try teamWithUnlisted("ProfilesApp-2.0/profile.archive")
    defer { team.remove() }
    let unlisted = try #require(Fixture.project(root: team.root, record: .missing).cases.last)
    #expect(unlisted.manifest == "ProfilesApp-2.0.xml")
    let failure = try #require(unlisted.check())
    #expect(failure.findings.map(\.text).first?.hasPrefix("manifests/ProfilesApp-2.0.xml:") == true)
    let text = try String(
      contentsOf: team.root.appendingPathComponent("manifests/ProfilesApp-2.0.xml"),
      encoding: .utf8)
    #expect(text.contains("app=\"ProfilesApp\""))
    #expect(text.contains("version=\"2.0\""))
    let next = Fixture.project(root: team.root, record: .never)
    let recorded = try #require(next.cases.first { $0.manifest == "ProfilesApp-2.0.xml" })
    #expect(recorded.check() == nil)
  }

  @Test("A team's first swift test, with archives and no manifest yet, drafts the first manifest")
  func firstRunDraftsTheFirstManifest() throws {
    let team = try TeamPackage(copying: false)
    defer { team.remove() }
    try FileManager.default.createDirectory(
      at: team.root.appendingPathComponent("manifests"), withIntermediateDirectories: true)
    let target = team.root.appendingPathComponent("LegacyArchives/ProfilesApp-1.0/first.archive")
    try FileManager.default.createDirectory(
      at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Corpus.packageRoot.appendingPathComponent(
        "LegacyArchives/ProfilesApp-1.0/profile-valid.archive"),
      to: target)
    let cases = Fixture.project(root: team.root, record: .missing).cases
    #expect(cases.map(\.description) == ["ProfilesApp-1.0.xml › ProfilesApp-1.0/first.archive"])
    let failure = try #require(cases.first?.check())
    #expect(
      failure.findings.map(\.text).first?.hasSuffix(": recorded: review the outcomes and commit")
        == true)
    let next = Fixture.project(root: team.root, record: .never).cases
    #expect(next.count == 1)
    #expect(next.first?.check() == nil)
  }

  @Test("Under missing, an archive the privacy scan flags is not recorded")
  func personalDataIsNotRecorded() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try team.write(
      "from a device: maren.holt@posteo.de, +49 171 4839201\n",
      to: "LegacyArchives/ProfilesApp-1.0/device.archive")
    let before = try team.sha256("manifests/ProfilesApp-1.0.xml")
    let unlisted = try #require(Fixture.project(root: team.root, record: .missing).cases.last)
    let failure = try #require(unlisted.check())
    #expect(
      failure.findings.map(\.text).first?.contains("not recorded: the privacy scan found") == true)
    #expect(failure.findings.map(\.text).contains { $0.contains("[email]") })
    #expect(!failure.description.contains("maren.holt"))
    #expect(try team.sha256("manifests/ProfilesApp-1.0.xml") == before)
  }

  @Test("ARCHIVE_HARNESS_RECORD wins over the mode the code chose")
  func environmentWins() throws {
    #expect(
      try RecordMode.resolved(.missing, environment: ["ARCHIVE_HARNESS_RECORD": "never"]) == .never)
    #expect(
      try RecordMode.resolved(.never, environment: ["ARCHIVE_HARNESS_RECORD": "missing"])
        == .missing)
    #expect(try RecordMode.resolved(.never, environment: [:]) == .never)
    let team = try TeamPackage()
    defer { team.remove() }
    let project = Fixture.project(
      root: team.root, record: .missing, environment: ["ARCHIVE_HARNESS_RECORD": "never"])
    #expect(project.recordMode == .never)
  }

  @Test("An ARCHIVE_HARNESS_RECORD that is neither missing nor never is a failing setup case")
  func unknownEnvironmentValueFails() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    let cases = Fixture.project(
      root: team.root, environment: ["ARCHIVE_HARNESS_RECORD": "always"]
    ).cases
    let first = try #require(cases.first)
    #expect(first.archive == "ARCHIVE_HARNESS_RECORD")
    let failure = try #require(first.check())
    #expect(
      failure.findings.map(\.text) == ["ARCHIVE_HARNESS_RECORD=always: expected never or missing"])
  }
}
