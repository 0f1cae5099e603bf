import ArchiveHarness
import ArchiveHarnessTesting
import Foundation
import Testing

/// `HarnessProject(strictness:)`: a team's `swift test` held to Apple's future secure-coding
/// rules fails a case for what Apple only logs today, at the entry's line.
@Suite("HarnessProject strictness")
struct StrictnessTests {
  static let manifest = "manifests/ProfilesApp-1.1.xml"
  static let archive = "ProfilesApp-1.1/profile-valid.archive"

  /// A team package whose 1.1 manifest lists `NSObject` among its allowed classes.
  private static func team() throws -> TeamPackage {
    let team = try TeamPackage()
    try team.replace(
      "    <class name=\"NSArray\"/>\n",
      with: "    <class name=\"NSArray\"/>\n    <class name=\"NSObject\"/>\n", in: manifest)
    return team
  }

  private static func project(_ team: TeamPackage, strictness: Strictness) -> HarnessProject {
    HarnessProject(
      worker: Fixture.worker, configuration: Fixture.configuration, root: team.root,
      record: .never, environment: [:], strictness: strictness)
  }

  @Test("strictness: .appleFuture fails a case whose read lists NSObject, at its <archive> line")
  func appleFutureFailsTheCase() throws {
    let team = try Self.team()
    defer { team.remove() }
    let project = Self.project(team, strictness: .appleFuture)
    #expect(project.strictness == .appleFuture)
    let harnessCase = try #require(project.cases.first { $0.archive == Self.archive })
    let failure = try #require(harnessCase.check())
    let text = try String(
      contentsOf: team.root.appendingPathComponent(Self.manifest), encoding: .utf8)
    let line =
      try #require(
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
          $0.contains("<archive path=\"\(Self.archive)\"")
        }) + 1
    let finding = try #require(failure.findings.first { $0.text.contains("strictness:") })
    #expect(finding.location?.line == line)
    #expect(
      finding.text.hasPrefix(
        "\(Self.manifest):\(line):3: strictness: [nsobject-allowed] root: the read's allowed "
          + "classes [ProfileKit.UserProfile, ProfileKit.Address, ProfileKit.Memo, NSArray, "
          + "NSObject] name NSObject"), "\(finding.text)")
    #expect(
      finding.text.hasSuffix(
        "write allowedClasses: [ProfileKit.UserProfile.self, ProfileKit.Address.self, "
          + "ProfileKit.Memo.self, NSArray.self]"))
  }

  @Test("The default strictness keeps the same finding a warning, and the case passes")
  func currentPassesWithAWarning() throws {
    let team = try Self.team()
    defer { team.remove() }
    let project = Self.project(team, strictness: .current)
    let harnessCase = try #require(project.cases.first { $0.archive == Self.archive })
    #expect(harnessCase.check() == nil)
    let findings = try #require(harnessCase.result()).strictnessFindings
    #expect(findings.map(\.rule) == [.nsObjectAllowed])
    #expect(findings.map(\.severity) == [.warning])
  }
}
