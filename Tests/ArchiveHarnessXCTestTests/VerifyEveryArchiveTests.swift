import Foundation
import HarnessTestSupport
import ProfileKit
import ProfilesApp
import XCTest

@testable import ArchiveHarnessXCTest

/// `verifyEveryArchive(of:)` over this repository's manifests, and its reporting, with the
/// failures collected instead of recorded (XCTExpectFailure exists on Apple platforms only).
final class VerifyEveryArchiveTests: XCTestCase {
  static let configuration = HarnessConfiguration(
    modelClasses: ProfileModel.classes,
    additionalRegistries: ["ProfilesApp-1": ClassRegistry(modelClasses: ProfilesAppModel.classes)])

  static let project = HarnessProject(
    worker: .buildProduct(named: "profiles-harness"), configuration: configuration)

  private let here = XCTestFinding.SourceLine(filePath: #filePath, line: 1)

  /// A package folder with this repository's manifests and archives, as a team's.
  private func teamPackage() throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "xctest-team-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try Data("// swift-tools-version: 6.0\n".utf8).write(
      to: root.appendingPathComponent("Package.swift"))
    for folder in ["manifests", "LegacyArchives"] {
      try FileManager.default.copyItem(
        at: Corpus.packageRoot.appendingPathComponent(folder),
        to: root.appendingPathComponent(folder))
    }
    return root
  }

  /// Replaces text in a file, and returns the 1-based line the new text is on.
  private func replace(_ old: String, with new: String, in file: URL) throws -> Int {
    let text = try String(contentsOf: file, encoding: .utf8)
    XCTAssertTrue(text.contains(old), "'\(old)' is not in \(file.path)")
    let edited = text.replacingOccurrences(of: old, with: new)
    try Data(edited.utf8).write(to: file)
    let lines = edited.split(separator: "\n", omittingEmptySubsequences: false)
    return try XCTUnwrap(lines.firstIndex { $0.contains(new) }) + 1
  }

  func testEveryShippedArchivePasses() {
    verifyEveryArchive(of: Self.project)
  }

  func testPassingRunReportsNothing() {
    var reported: [XCTestFinding] = []
    let failed = XCTestFinding.report(Self.project.cases, fallback: here) { reported.append($0) }
    XCTAssertEqual(failed, 0)
    XCTAssertEqual(reported, [])
  }

  func testEachFailingEntryIsReportedAtItsManifestLines() throws {
    let root = try teamPackage()
    defer { try? FileManager.default.removeItem(at: root) }
    let manifest = root.appendingPathComponent("manifests/ProfilesApp-1.0.xml")
      .standardizedFileURL
    let cityLine = try replace(
      "<string key=\"address.city\">Walldorf</string>",
      with: "<string key=\"address.city\">Berlin</string>", in: manifest)
    let secureLine = try replace(
      "<secure outcome=\"rejected\" category=\"type-mismatch\"/>",
      with: "<secure outcome=\"decodes\"/>", in: manifest)
    let project = HarnessProject(
      worker: .buildProduct(named: "profiles-harness"), configuration: Self.configuration,
      root: root, record: .never, environment: [:])

    var reported: [XCTestFinding] = []
    let failed = XCTestFinding.report(project.cases, fallback: here) { reported.append($0) }

    XCTAssertEqual(failed, 2)
    XCTAssertEqual(
      reported.map(\.place),
      [
        // The city is checked on the archive and on the object the secure path decodes.
        XCTestFinding.SourceLine(filePath: manifest.path, line: cityLine),
        XCTestFinding.SourceLine(filePath: manifest.path, line: cityLine),
        XCTestFinding.SourceLine(filePath: manifest.path, line: secureLine),
      ])
    guard reported.count == 3 else { return XCTFail("expected three failures: \(reported)") }
    XCTAssertTrue(
      reported[0].message.hasPrefix(
        "ProfilesApp-1.0.xml › ProfilesApp-1.0/profile-valid.archive: "
          + "manifests/ProfilesApp-1.0.xml:\(cityLine):"))
    XCTAssertTrue(reported[0].message.contains("Berlin"))
    XCTAssertTrue(
      reported[2].message.hasPrefix(
        "ProfilesApp-1.0.xml › ProfilesApp-1.0/profile-address-wrong-class-traps-v1.archive: "))
    XCTAssertTrue(reported[2].message.contains("secure: expected decodes"))
  }

  func testFindingWithoutAManifestLineIsReportedAtTheCall() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "xctest-empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("manifests"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try Data().write(to: root.appendingPathComponent("Package.swift"))
    let project = HarnessProject(
      worker: .buildProduct(named: "profiles-harness"), configuration: Self.configuration,
      root: root, environment: [:])

    var reported: [XCTestFinding] = []
    XCTestFinding.report(project.cases, fallback: here) { reported.append($0) }

    XCTAssertEqual(reported.map(\.place), [here])
    XCTAssertEqual(
      reported.map(\.message),
      [
        "manifests › manifests: manifests: no manifests in this folder, and no archives in "
          + "LegacyArchives to record"
      ])
  }
}
