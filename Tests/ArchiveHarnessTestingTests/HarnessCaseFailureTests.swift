import ArchiveHarness
import ArchiveHarnessTesting
import Foundation
import Testing

@Suite("What a failing case says")
struct HarnessCaseFailureTests {
  /// The failure of one case of a team package, by archive path.
  private func failure(
    _ archive: String, in project: HarnessProject,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> HarnessFailure {
    let harnessCase = try #require(
      project.cases.first { $0.archive == archive }, sourceLocation: sourceLocation)
    return try #require(harnessCase.check(), sourceLocation: sourceLocation)
  }

  /// The 1-based line of the first line of a file holding some text.
  private func line(of text: String, in file: URL) throws -> Int {
    let lines = try String(contentsOf: file, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    return try #require(lines.firstIndex { $0.contains(text) }) + 1
  }

  @Test("A field that differs is listed with its manifest:LINE:COL")
  func fieldFindingHasPlace() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try team.replace(
      "<string key=\"address.city\">Walldorf</string>",
      with: "<string key=\"address.city\">Berlin</string>", in: "manifests/ProfilesApp-1.0.xml")
    let project = Fixture.project(root: team.root)
    let error = try failure("ProfilesApp-1.0/profile-valid.archive", in: project)
    let line = try line(
      of: "address.city\">Berlin",
      in: team.root.appendingPathComponent("manifests/ProfilesApp-1.0.xml"))
    let finding = try #require(error.findings.map(\.text).first { $0.contains("address.city") })
    #expect(finding.hasPrefix("manifests/ProfilesApp-1.0.xml:\(line):"))
    #expect(finding.contains("Berlin"))
    #expect(
      error.description.hasPrefix(
        "ProfilesApp-1.0.xml › ProfilesApp-1.0/profile-valid.archive failed:\n"))
  }

  @Test("An outcome that differs is listed at its <outcome> element")
  func outcomeFindingHasPlace() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    let manifest = "manifests/ProfilesApp-1.0.xml"
    try team.replace(
      "<secure outcome=\"rejected\" category=\"type-mismatch\"/>",
      with: "<secure outcome=\"decodes\"/>", in: manifest)
    let project = Fixture.project(root: team.root)
    let error = try failure(
      "ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive", in: project)
    let line = try line(
      of: "<secure outcome=\"decodes\"/>", in: team.root.appendingPathComponent(manifest))
    #expect(
      error.findings.map(\.text).contains {
        $0.hasPrefix("\(manifest):\(line):") && $0.contains("secure: expected decodes")
      })
  }

  @Test("No Package.swift above the caller is one failing case saying so")
  func noPackageIsOneFailingCase() throws {
    let cases = HarnessProject(
      worker: Fixture.worker, configuration: Fixture.configuration,
      relativeTo: "/nonexistent-\(UUID().uuidString)/Tests/X.swift"
    ).cases
    #expect(cases.count == 1)
    let error = try #require(cases[0].check())
    #expect(error.findings.map(\.text).first?.contains("Package.swift") == true)
  }

  @Test("No manifests is one failing case naming the folder")
  func noManifestsIsOneFailingCase() throws {
    let team = try TeamPackage(copying: false)
    defer { team.remove() }
    try team.write("", to: "manifests/README")
    let cases = Fixture.project(root: team.root).cases
    #expect(cases.count == 1)
    let error = try #require(cases[0].check())
    #expect(
      error.findings.map(\.text) == [
        "manifests: no manifests in this folder, and no archives in LegacyArchives to record"
      ])
  }

  @Test("A missing manifests folder is one failing case naming it")
  func missingManifestsFolderIsOneFailingCase() throws {
    let team = try TeamPackage(copying: false)
    defer { team.remove() }
    let cases = Fixture.project(root: team.root, manifests: "Manifests").cases
    #expect(cases.count == 1)
    let error = try #require(cases[0].check())
    #expect(
      error.findings.map(\.text) == [
        "Manifests: no manifests in this folder, and no archives in LegacyArchives to record"
      ])
  }

  @Test("An invalid manifest is one failing case listing its errors with LINE:COL")
  func invalidManifestIsOneFailingCase() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try team.replace(
      "<rootClass name=\"ProfileKit.Memo\"/>", with: "<rootClass nam=\"ProfileKit.Memo\"/>",
      in: "manifests/ProfilesApp-1.1.xml")
    let cases = Fixture.project(root: team.root).cases
    let invalid = try #require(cases.first { $0.manifest == "ProfilesApp-1.1.xml" })
    #expect(invalid.archive == "manifest")
    #expect(cases.filter { $0.manifest == "ProfilesApp-1.1.xml" }.count == 1)
    let error = try #require(invalid.check())
    let first = try #require(error.findings.map(\.text).first)
    #expect(first.hasPrefix("manifests/ProfilesApp-1.1.xml:"))
    #expect(first.contains("nam"))
    let located = try #require(error.findings.first?.location)
    #expect(located.file?.hasSuffix("manifests/ProfilesApp-1.1.xml") == true)
    #expect(located.line > 0)
  }
}

@Suite("Each finding of a failing case is its own issue at its manifest line")
struct HarnessCaseIssueTests {
  @Test("A failing case records one issue per finding, each at its element's line")
  func findingsAreIssuesAtTheirLines() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    let manifest = "manifests/ProfilesApp-1.0.xml"
    try team.replace(
      "<string key=\"address.city\">Walldorf</string>",
      with: "<string key=\"address.city\">Berlin</string>", in: manifest)
    try team.replace(
      "<string key=\"name\">Avery Example</string>", with: "<string key=\"name\">Avery</string>",
      in: manifest)
    let text = try String(
      contentsOf: team.root.appendingPathComponent(manifest), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let expected = Set(
      ["address.city\">Berlin", "name\">Avery<"].compactMap { needle in
        lines.firstIndex { $0.contains(needle) }.map { $0 + 1 }
      })
    #expect(expected.count == 2)
    let project = Fixture.project(root: team.root)
    let harnessCase = try #require(
      project.cases.first { $0.archive == "ProfilesApp-1.0/profile-valid.archive" })
    let failure = try #require(harnessCase.check())
    // Each expectation holds on the archive and on the object the secure path decodes: two
    // findings per changed element, each at the element.
    #expect(failure.findings.count == 4)
    #expect(Set(failure.findings.compactMap { $0.location?.line }) == expected)
    let fileID = "\(team.root.lastPathComponent)/\(manifest)"
    withKnownIssue {
      harnessCase.verify()
    } matching: { issue in
      guard let location = issue.sourceLocation else { return false }
      return location.fileID == fileID && expected.contains(location.line)
        && issue.comments.contains {
          $0.rawValue.hasPrefix("ProfilesApp-1.0.xml › ProfilesApp-1.0/profile-valid.archive: ")
        }
    }
  }

  @Test("A passing case records no issue")
  func passingCaseRecordsNothing() throws {
    let harnessCase = try #require(
      Fixture.project.cases.first { $0.archive == "ProfilesApp-1.0/profile-valid.archive" })
    #expect(harnessCase.check() == nil)
    harnessCase.verify()
  }

  @Test("A finding about no manifest line is recorded at the caller")
  func setupProblemIsAtTheCaller() throws {
    let team = try TeamPackage(copying: false)
    defer { team.remove() }
    let cases = Fixture.project(root: team.root).cases
    let here = #_sourceLocation
    withKnownIssue {
      cases[0].verify(sourceLocation: here)
    } matching: { issue in
      issue.sourceLocation == here
    }
  }
}
