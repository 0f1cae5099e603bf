import ArchiveHarnessTesting
import Foundation
import Testing

@Suite("The merge checks, on the sample app's historical archives, found by expected outcome")
struct MergeChecksTests {
  private let checks = Fixture.project.mergeChecks

  @Test("Every entry both paths read, with fields, round-trips with every field it expects")
  func roundTripKeepsFields() throws {
    let archives = checks.entriesThatRoundTrip().map(\.archive)
    #expect(archives.contains("ProfilesApp-1.0/profile-valid.archive"))
    #expect(archives.contains("ProfilesApp-1.1/profile-valid.archive"))
    #expect(!archives.contains("ProfilesApp-1.0/memo-truncated.archive"))
    try checks.roundTripKeepsFields()
  }

  @Test("The memos whose root is not the class read are rejected, in both manifests")
  func wrongRootClassIsRejected() throws {
    let cases = checks.entries(rejectedAs: .wrongRootClass)
    #expect(
      cases.map(\.archive) == [
        "ProfilesApp-1.0/memo-wrong-root.archive", "ProfilesApp-1.1/memo-wrong-root.archive",
      ])
    try checks.rejects(.wrongRootClass)
  }

  @Test("The memos whose init?(coder:) fails are rejected and never rewritten")
  func initFailedIsRejected() throws {
    #expect(checks.entries(rejectedAs: .initFailed).count == 4)
    try checks.rejects(.initFailed)
  }

  @Test("The truncated memos are rejected and never rewritten")
  func truncatedArchiveIsNeverRewritten() throws {
    #expect(checks.entries(rejectedAs: .truncated).count == 2)
    try checks.rejects(.truncated)
  }

  @Test("Every historical archive passes")
  func everyHistoricalArchivePasses() throws {
    try checks.everyHistoricalArchivePasses()
  }
}

@Suite("What a failing merge check says")
struct MergeCheckFailureTests {
  private let memoValidOutcomes = """
    <rootClass name="ProfileKit.Memo"/>
        <integer key="schema">1</integer>
        <string key="text">Remember
    """

  /// A team package whose valid memo (1.0) is said to be rejected as `category`.
  private func memoValidClaimed(_ category: String) throws -> TeamPackage {
    let team = try TeamPackage()
    try team.replace(
      memoValidOutcomes,
      with: """
        <rootClass name="ProfileKit.Memo"/>
            <legacy outcome="rejected" category="\(category)"/>
            <secure outcome="rejected" category="\(category)"/>
            <integer key="schema">1</integer>
            <string key="text">Remember
        """, in: "manifests/ProfilesApp-1.0.xml")
    return team
  }

  @Test("A category no entry expects fails, saying which archive and entry to add")
  func missingCategoryNamesWhatToAdd() throws {
    let error = try #require(throws: HarnessFailure.self) {
      try Fixture.project.mergeChecks.rejects(.unknownSchemaVersion)
    }
    #expect(
      error.findings.map(\.text) == [
        "manifests: no manifest entry expects legacy and secure to be rejected "
          + "[unknown-schema-version]; add an archive of a version the app does not know to the "
          + "archives folder, with an entry whose <legacy> and <secure> say outcome=\"rejected\" "
          + "category=\"unknown-schema-version\""
      ])
  }

  @Test("The round trip with no entry to read fails, saying to add one")
  func roundTripWithoutEntriesFails() throws {
    let team = try TeamPackage.version1(legacyOutcome: "outcome=\"rejected\" category=\"crashed\"")
    defer { team.remove() }
    let error = try #require(throws: HarnessFailure.self) {
      try team.version1Project().mergeChecks.roundTripKeepsFields()
    }
    #expect(
      error.findings.map(\.text).first?.contains("no manifest entry is expected to decode") == true)
  }

  @Test("The round trip of a truncated archive said to decode is refused at the read")
  func roundTripOfTruncatedFails() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try team.replace(
      """
      <legacy outcome="rejected" category="truncated"/>
          <secure outcome="rejected" category="truncated"/>
      """,
      with: """
        <legacy outcome="decodes"/>
            <secure outcome="decodes"/>
            <integer key="schema">1</integer>
        """, in: "manifests/ProfilesApp-1.0.xml")
    let error = try #require(throws: HarnessFailure.self) {
      try Fixture.project(root: team.root).mergeChecks.roundTripKeepsFields()
    }
    #expect(error.subject.contains("ProfilesApp-1.0/memo-truncated.archive"))
    #expect(
      error.findings.map(\.text).contains { $0.contains("the round trip refused it at read") })
    #expect(
      error.findings.map(\.text).allSatisfy { $0.hasPrefix("manifests/ProfilesApp-1.0.xml:") })
  }

  @Test(
    "The round trip of an archive whose decoder traps: the crash is a finding; the test goes on")
  func roundTripOfTrappingArchiveIsContained() throws {
    let team = try TeamPackage.version1(legacyOutcome: "outcome=\"decodes\"")
    defer { team.remove() }
    try team.replace(
      "<secure outcome=\"rejected\" category=\"not-secure-coding\"/>",
      with: "<secure outcome=\"decodes\"/>\n    <string key=\"address\">303 Mock Road</string>",
      in: "manifests/ProfilesApp-1.0-v1-classes.xml")
    let error = try #require(throws: HarnessFailure.self) {
      try team.version1Project().mergeChecks.roundTripKeepsFields()
    }
    #expect(
      error.findings.map(\.text).contains {
        $0.contains("the worker crashed decoding it (legacy [SIGABRT]")
      })
    #expect(
      error.findings.map(\.text).contains {
        $0.contains("the round trip refused it at [decode] [crashed]")
          && $0.contains("Could not cast value")
      })
  }

  @Test("Wrong root class fails on a valid memo said to be rejected: both paths decode it")
  func wrongRootOfValidFails() throws {
    let team = try memoValidClaimed("wrong-root-class")
    defer { team.remove() }
    let error = try #require(throws: HarnessFailure.self) {
      try Fixture.project(root: team.root).mergeChecks.rejects(.wrongRootClass)
    }
    #expect(error.subject.contains("ProfilesApp-1.0/memo-valid.archive"))
    #expect(
      error.findings.map(\.text).filter { $0.contains("where the read must refuse it") }.count == 2)
  }

  @Test(
    "Another refusal fails on a valid memo said to be rejected: it decodes and would be rewritten")
  func refusalOfValidFails() throws {
    let team = try memoValidClaimed("init-failed")
    defer { team.remove() }
    let error = try #require(throws: HarnessFailure.self) {
      try Fixture.project(root: team.root).mergeChecks.rejects(.initFailed)
    }
    #expect(error.findings.map(\.text).contains { $0.contains("legacy: decoded") })
    #expect(error.findings.map(\.text).contains { $0.contains("migration would rewrite it") })
  }

  @Test("Truncated fails on a valid memo said to be truncated: it decodes and would be rewritten")
  func truncatedOfValidFails() throws {
    let team = try memoValidClaimed("truncated")
    defer { team.remove() }
    let error = try #require(throws: HarnessFailure.self) {
      try Fixture.project(root: team.root).mergeChecks.rejects(.truncated)
    }
    #expect(
      error.findings.map(\.text).contains {
        $0.contains("where a truncated archive must be rejected")
      })
    #expect(error.findings.map(\.text).contains { $0.contains("migration would rewrite it") })
  }

  @Test("Every historical archive fails when one expectation differs, listing that case's finding")
  func everyPassesFailsOnOneDifference() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try team.replace(
      "<string key=\"name\">Avery Example</string>", with: "<string key=\"name\">Avery</string>",
      in: "manifests/ProfilesApp-1.0.xml")
    let error = try #require(throws: HarnessFailure.self) {
      try Fixture.project(root: team.root).mergeChecks.everyHistoricalArchivePasses()
    }
    #expect(
      error.findings.map(\.text).first
        == "ProfilesApp-1.0.xml › ProfilesApp-1.0/profile-valid.archive:")
    #expect(
      error.findings.map(\.text).contains {
        $0.contains("manifests/ProfilesApp-1.0.xml:") && $0.contains("name")
      })
  }

  @Test("A check whose worker is not built lists, for each entry, the paths that did not run")
  func checkWithoutWorkerSaysNotRun() throws {
    let project = HarnessProject(
      worker: .buildProduct(named: "no-such-harness"), configuration: Fixture.configuration)
    let error = try #require(throws: HarnessFailure.self) {
      try project.mergeChecks.rejects(.wrongRootClass)
    }
    #expect(error.subject == "rejects [wrong-root-class] (2 of 2 entries)")
    #expect(
      error.findings.map(\.text).filter { $0.contains("did not run: worker unavailable") }.count
        == 4)
  }
}
