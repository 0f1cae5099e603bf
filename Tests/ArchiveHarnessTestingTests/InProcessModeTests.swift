import ArchiveHarness
import ArchiveHarnessTesting
import Foundation
import HarnessTestSupport
import Testing

/// The iOS mode, chosen on Linux: this repository's manifests and archives with
/// `DecodeWorker.inProcess`, where no worker process contains a trap.
@Suite("In process, as on iOS")
struct InProcessModeTests {
  /// This repository's manifests and archives, read in process.
  static let project = HarnessProject(worker: .inProcess, configuration: Fixture.configuration)

  /// The sample app's classes with the harness paths run in the test process.
  static let configuration = project.configuration

  @Test("In process, legacy and secure run for every entry and Foundation's paths do not")
  func harnessPathsRunFoundationPathsDoNot() throws {
    let report = Self.project.report()
    #expect(report.cases.count == 24)
    for item in report.cases {
      let ran = item.paths.filter(\.ran).map(\.path)
      #expect(ran.contains(.decode(.legacy)), "\(item.name)")
      #expect(ran.contains(.decode(.secure)), "\(item.name)")
      #expect(!ran.contains(.decode(.foundationLegacy)), "\(item.name)")
      #expect(!ran.contains(.decode(.foundationSecure)), "\(item.name)")
    }
    #expect(report.passed)
  }

  @Test("Asked for Foundation's paths, the in-process runner reports them not run")
  func foundationPathsAreNotRun() throws {
    let project = Self.project
    let first = try #require(project.cases.first)
    let verifier = Verifier(
      registry: Self.configuration.registry, runner: Self.configuration.runner())
    let loaded = verifier.load(
      Verifier.manifestFiles(in: project.manifestsFolder.path),
      archivesDirectory: project.archivesFolder.path)
    let manifest = try #require(
      loaded.manifests.first { $0.file.hasSuffix("/" + first.manifest) })
    let entry = try #require(manifest.archives.first { $0.path == first.archive })
    let result = verifier.verify(
      entry, of: manifest, archivesDirectory: project.archivesFolder.path)
    for path in [DecodePath.foundationLegacy, .foundationSecure] {
      let foundation = try #require(result.paths.first { $0.path == .decode(path) })
      #expect(!foundation.ran)
      #expect(foundation.outcome == .notRun)
    }
    #expect(verifier.containment == .inProcess)
  }

  @Test("The text and JSON reports of an in-process project say containment is off")
  func reportsSayContainmentIsOff() throws {
    #expect(Self.project.containment == .inProcess)
    let report = Self.project.report()
    #expect(report.containment == .inProcess)
    let text = TextReportWriter().render(report)
    #expect(text.contains("containment: off (in process: a trap ends the test host)\n"))
    let json = try JSONSerialization.jsonObject(
      with: Data(JSONReportWriter().render(report).utf8))
    let object = try #require(json as? [String: Any])
    #expect(object["containment"] as? String == "off")
  }

  @Test("A worker project's report says containment is on, and its text report is silent")
  func workerReportSaysContainmentIsOn() throws {
    #expect(Fixture.project.containment == .workerProcess)
    var report = VerificationReport(cases: [], containment: Fixture.project.containment)
    #expect(!TextReportWriter().render(report).contains("containment"))
    let json = try JSONSerialization.jsonObject(
      with: Data(JSONReportWriter().render(report).utf8))
    #expect((json as? [String: Any])?["containment"] as? String == "worker-process")
    report.containment = nil
    #expect(!JSONReportWriter().render(report).contains("containment"))
  }

  @Test("The JSON report of an in-process project follows the verify schema, containment too")
  func reportFollowsTheSchema() throws {
    let text = JSONReportWriter().render(Self.project.report())
    let violations = try JSONSchemas.violations(of: text, against: .verify)
    #expect(violations.isEmpty, "\(violations)")
    let unknown = text.replacingOccurrences(
      of: #""containment": "off""#, with: #""containment": "maybe""#)
    #expect(unknown != text)
    #expect(try !JSONSchemas.violations(of: unknown, against: .verify).isEmpty)
  }

  @Test("Containment is read back from the JSON report")
  func containmentIsReadBack() throws {
    for containment in Containment.allCases {
      let text = JSONReportWriter().render(
        VerificationReport(cases: [], containment: containment))
      let read = try VerificationReportReader().report(JSONDocument(parsing: text))
      #expect(read.containment == containment)
    }
  }

  @Test("A JSON report whose containment is neither worker-process nor off is refused")
  func unknownContainmentIsRefused() throws {
    let text = #"{"serializationVersion": 3, "cases": [], "notes": [], "containment": "maybe"}"#
    #expect(throws: VerificationReportReadError.self) {
      try VerificationReportReader().report(JSONDocument(parsing: text))
    }
  }

  @Test("A failing in-process case says containment is off among its notes")
  func failingCaseSaysContainmentIsOff() throws {
    let team = try TeamPackage()
    defer { team.remove() }
    try team.replace(
      "<string key=\"address.city\">Walldorf</string>",
      with: "<string key=\"address.city\">Berlin</string>", in: "manifests/ProfilesApp-1.0.xml")
    let project = Fixture.project(root: team.root, worker: .inProcess)
    let failing = try #require(
      project.cases.first { $0.archive == "ProfilesApp-1.0/profile-valid.archive" })
    let failure = try #require(failing.check())
    #expect(failure.notes.last == Containment.inProcess.reportLine)
    #expect(failure.description.hasSuffix("\nnote: " + Containment.inProcess.reportLine))
  }

  @Test("In-process workers decode in process; every other choice needs a child process")
  func workerChoicesSayWhereTheyDecode() {
    #expect(DecodeWorker.inProcess.containment == .inProcess)
    #expect(DecodeWorker.inProcess.paths == [.legacy, .secure])
    #expect(DecodeWorker.buildProduct(named: "profiles-harness").containment == .workerProcess)
    #expect(DecodeWorker.runningExecutable.containment == .workerProcess)
  }
}
