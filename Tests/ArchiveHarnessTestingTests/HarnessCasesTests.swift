import ArchiveHarness
import ArchiveHarnessTesting
import Foundation
import HarnessTestSupport
import Testing

@Suite("One Swift Testing case per manifest entry")
struct HarnessCasesTests {
  // The one line of setup a team writes, over this repository's own manifests and archives.
  @Test(
    "Each shipped archive entry is as its manifest says",
    arguments: Fixture.project.cases)
  func entry(_ harnessCase: HarnessCase) {
    harnessCase.verify()
  }

  @Test("Cases are named by manifest and archive, in manifest then entry order")
  func casesAreNamed() throws {
    let cases = Fixture.project.cases
    #expect(cases.count == 24)
    let first = try #require(cases.first)
    #expect(first.testDescription == "ProfilesApp-1.0.xml › ProfilesApp-1.0/memo-valid.archive")
    #expect(first.manifest == "ProfilesApp-1.0.xml")
    #expect(cases.last?.manifest == "ProfilesApp-1.1.xml")
  }

  @Test("A case encodes as its manifest and archive, so one case can be re-run")
  func caseEncodesItsName() throws {
    let first = try #require(Fixture.project.cases.first)
    let json = String(decoding: try JSONEncoder().encode(first), as: UTF8.self)
    #expect(json.contains(#""manifest":"ProfilesApp-1.0.xml""#))
    #expect(json.contains(#""archive":"ProfilesApp-1.0\/memo-valid.archive""#))
  }

  @Test("Every path runs in the worker: Foundation's paths are in each result")
  func everyPathRuns() throws {
    let first = try #require(Fixture.project.cases.first)
    let result = try #require(first.result())
    #expect(result.paths.map(\.path) == DecodePath.allCases.map { CheckedPath.decode($0) })
    #expect(result.paths.allSatisfy { $0.ran })
  }

  @Test("Paths resolve from the package holding the caller's file, not from this checkout")
  func pathsResolveFromCallersPackage() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    let caller = team.root.appendingPathComponent("Tests/NotesTests/HarnessTests.swift").path
    let project = HarnessProject(
      worker: Fixture.worker, configuration: Fixture.configuration, relativeTo: caller)
    #expect(project.root?.path == team.root.standardizedFileURL.path)
    #expect(project.manifestsFolder.path == team.root.appendingPathComponent("manifests").path)
    #expect(project.cases.count == 24)
  }

  @Test("An explicit root is used instead of the caller's package")
  func explicitRootWins() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    let project = Fixture.project(root: team.root)
    #expect(project.archivesFolder.path == team.root.appendingPathComponent("LegacyArchives").path)
  }
}
