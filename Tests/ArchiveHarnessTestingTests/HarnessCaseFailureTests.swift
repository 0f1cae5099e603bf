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
    return try #require(throws: HarnessFailure.self, sourceLocation: sourceLocation) {
      try harnessCase.verify()
    }
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
    let project = HarnessProject(root: team.root, configuration: Fixture.configuration)
    let error = try failure("ProfilesApp-1.0/profile-valid.archive", in: project)
    let line = try line(
      of: "address.city\">Berlin",
      in: team.root.appendingPathComponent("manifests/ProfilesApp-1.0.xml"))
    let finding = try #require(error.findings.first { $0.contains("address.city") })
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
    let project = HarnessProject(root: team.root, configuration: Fixture.configuration)
    let error = try failure(
      "ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive", in: project)
    let line = try line(
      of: "<secure outcome=\"decodes\"/>", in: team.root.appendingPathComponent(manifest))
    #expect(
      error.findings.contains {
        $0.hasPrefix("\(manifest):\(line):") && $0.contains("secure: expected decodes")
      })
  }

  @Test("No Package.swift above the caller is one failing case saying so")
  func noPackageIsOneFailingCase() throws {
    let cases = HarnessCases.all(
      relativeTo: "/nonexistent-\(UUID().uuidString)/Tests/X.swift",
      configuration: Fixture.configuration)
    #expect(cases.count == 1)
    let error = try #require(throws: HarnessFailure.self) { try cases[0].verify() }
    #expect(error.findings.first?.contains("Package.swift") == true)
  }

  @Test("No manifests is one failing case naming the folder")
  func noManifestsIsOneFailingCase() throws {
    let team = try TeamPackage(copying: false)
    defer { team.remove() }
    try team.write("", to: "manifests/README")
    let cases = HarnessCases.all(root: team.root, configuration: Fixture.configuration)
    #expect(cases.count == 1)
    let error = try #require(throws: HarnessFailure.self) { try cases[0].verify() }
    #expect(error.findings == ["manifests: no manifests in this folder"])
  }

  @Test("A missing manifests folder is one failing case naming it")
  func missingManifestsFolderIsOneFailingCase() throws {
    let team = try TeamPackage(copying: false)
    defer { team.remove() }
    let cases = HarnessCases.all(
      manifests: "Manifests", root: team.root, configuration: Fixture.configuration)
    #expect(cases.count == 1)
    let error = try #require(throws: HarnessFailure.self) { try cases[0].verify() }
    #expect(error.findings == ["Manifests: no manifests in this folder"])
  }

  @Test("An invalid manifest is one failing case listing its errors with LINE:COL")
  func invalidManifestIsOneFailingCase() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try team.replace(
      "<rootClass name=\"ProfileKit.Memo\"/>", with: "<rootClass nam=\"ProfileKit.Memo\"/>",
      in: "manifests/ProfilesApp-1.1.xml")
    let cases = HarnessCases.all(root: team.root, configuration: Fixture.configuration)
    let invalid = try #require(cases.first { $0.manifest == "ProfilesApp-1.1.xml" })
    #expect(invalid.archive == "manifest")
    #expect(cases.filter { $0.manifest == "ProfilesApp-1.1.xml" }.count == 1)
    let error = try #require(throws: HarnessFailure.self) { try invalid.verify() }
    let first = try #require(error.findings.first)
    #expect(first.hasPrefix("manifests/ProfilesApp-1.1.xml:"))
    #expect(first.contains("nam"))
  }
}
