import ArchiveHarnessTesting
import Foundation
import Testing

@Suite("The five merge checks, on the sample app's historical archives")
struct MergeChecksTests {
  private let checks = Fixture.project.checks

  @Test("1. The valid profile round-trips with every field the manifest expects")
  func roundTripKeepsFields() throws {
    try checks.roundTripKeepsFields("ProfilesApp-1.0/profile-valid.archive")
    try checks.roundTripKeepsFields("ProfilesApp-1.1/profile-valid.archive")
  }

  @Test("2. A memo where a profile is expected is rejected")
  func wrongRootClassIsRejected() throws {
    try checks.wrongRootClassIsRejected("ProfilesApp-1.0/memo-wrong-root.archive")
  }

  @Test("3. A memo of schema 2 is rejected and never rewritten")
  func unknownVersionIsRejected() throws {
    try checks.unknownVersionIsRejected("ProfilesApp-1.0/memo-unknown-schema.archive")
  }

  @Test("4. A truncated memo is rejected and never rewritten")
  func truncatedArchiveIsNeverRewritten() throws {
    try checks.truncatedArchiveIsNeverRewritten("ProfilesApp-1.0/memo-truncated.archive")
  }

  @Test("5. Every historical archive passes")
  func everyHistoricalArchivePasses() throws {
    try checks.everyHistoricalArchivePasses()
  }
}

@Suite("What a failing merge check says")
struct MergeCheckFailureTests {
  private let checks = Fixture.project.checks

  @Test("Check 1 fails on a truncated archive: the round trip refuses it at the read")
  func roundTripOfTruncatedFails() throws {
    let error = try #require(throws: HarnessFailure.self) {
      try checks.roundTripKeepsFields("ProfilesApp-1.0/memo-truncated.archive")
    }
    #expect(error.findings.contains { $0.contains("the round trip refused it at read") })
    #expect(error.findings.contains { $0.contains("declares no field expectations") })
    #expect(error.findings.allSatisfy { $0.hasPrefix("manifests/ProfilesApp-1.0.xml:") })
  }

  @Test("Check 1 on an archive whose decoder traps: the crash is a finding; the test goes on")
  func roundTripOfTrappingArchiveIsContained() throws {
    let team = try TeamPackage.version1(legacyOutcome: "outcome=\"rejected\" category=\"crashed\"")
    defer { team.remove() }
    let error = try #require(throws: HarnessFailure.self) {
      try team.version1Project().checks.roundTripKeepsFields(
        "ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive")
    }
    #expect(
      error.findings.contains { $0.contains("the worker crashed decoding it (legacy [SIGABRT]") })
    #expect(
      error.findings.contains {
        $0.contains("the round trip refused it at [decode] [crashed]")
          && $0.contains("Could not cast value")
      })
  }

  @Test("Check 2 fails on a valid archive: both harness paths decode it")
  func wrongRootOfValidFails() throws {
    let error = try #require(throws: HarnessFailure.self) {
      try checks.wrongRootClassIsRejected("ProfilesApp-1.0/memo-valid.archive")
    }
    #expect(error.findings.filter { $0.contains("where the read must refuse it") }.count == 2)
  }

  @Test("Check 3 fails on a valid archive: it decodes, and migration would rewrite it")
  func unknownVersionOfValidFails() throws {
    let error = try #require(throws: HarnessFailure.self) {
      try checks.unknownVersionIsRejected("ProfilesApp-1.0/memo-valid.archive")
    }
    #expect(error.findings.contains { $0.contains("legacy: decoded") })
    #expect(error.findings.contains { $0.contains("migration would rewrite it") })
  }

  @Test("Check 4 fails on a valid archive: it decodes, and migration would rewrite it")
  func truncatedOfValidFails() throws {
    let error = try #require(throws: HarnessFailure.self) {
      try checks.truncatedArchiveIsNeverRewritten("ProfilesApp-1.0/memo-valid.archive")
    }
    #expect(error.findings.contains { $0.contains("where a truncated archive must be rejected") })
    #expect(error.findings.contains { $0.contains("migration would rewrite it") })
  }

  @Test("Check 5 fails when one expectation differs, listing that case's finding")
  func everyPassesFailsOnOneDifference() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try team.replace(
      "<string key=\"name\">Avery Example</string>", with: "<string key=\"name\">Avery</string>",
      in: "manifests/ProfilesApp-1.0.xml")
    let project = HarnessProject(root: team.root, configuration: Fixture.configuration)
    let error = try #require(throws: HarnessFailure.self) {
      try project.checks.everyHistoricalArchivePasses()
    }
    #expect(
      error.findings.first == "ProfilesApp-1.0.xml › ProfilesApp-1.0/profile-valid.archive:")
    #expect(
      error.findings.contains {
        $0.contains("manifests/ProfilesApp-1.0.xml:") && $0.contains("name")
      })
  }

  @Test("An archive no manifest lists is a failure naming the manifests folder")
  func unlistedArchiveFails() throws {
    let error = try #require(throws: HarnessFailure.self) {
      try checks.roundTripKeepsFields("ProfilesApp-9.9/nothing.archive")
    }
    #expect(error.findings == ["no manifest in manifests lists it"])
  }

  @Test("An archive two manifests list needs the manifest named")
  func ambiguousArchiveFails() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try FileManager.default.copyItem(
      at: team.root.appendingPathComponent("manifests/ProfilesApp-1.0.xml"),
      to: team.root.appendingPathComponent("manifests/ProfilesApp-1.0-copy.xml"))
    let project = HarnessProject(root: team.root, configuration: Fixture.configuration)
    let archive = "ProfilesApp-1.0/profile-valid.archive"
    let error = try #require(throws: HarnessFailure.self) {
      try project.checks.roundTripKeepsFields(archive)
    }
    #expect(error.findings.first?.contains("several manifests list it") == true)
    try project.checks.roundTripKeepsFields(archive, manifest: "ProfilesApp-1.0-copy.xml")
  }

  @Test("A check whose worker is not built says which paths did not run and why")
  func checkWithoutWorkerSaysNotRun() throws {
    let project = HarnessProject(configuration: Fixture.missingWorker)
    let error = try #require(throws: HarnessFailure.self) {
      try project.checks.wrongRootClassIsRejected("ProfilesApp-1.0/memo-wrong-root.archive")
    }
    #expect(error.findings.count == 2)
    #expect(error.findings.allSatisfy { $0.contains("did not run: worker unavailable") })
  }
}
