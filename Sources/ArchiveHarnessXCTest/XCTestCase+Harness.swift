// An XCTest target needs only `import ArchiveHarnessXCTest` (and `import XCTest`): the
// project, its cases and merge checks, and the library come with it.
@_exported import ArchiveHarnessTesting
import XCTest

extension XCTestCase {
  /// Verifies every case of a project in one test method, and records each finding of each
  /// failing case as its own XCTest failure, at the manifest line it is about.
  ///
  /// ```swift
  /// import ArchiveHarnessXCTest
  /// import NotesKit
  /// import XCTest
  ///
  /// final class HistoricalArchiveTests: XCTestCase {
  ///   static let project = HarnessProject(
  ///     worker: .buildProduct(named: "notes-harness"),
  ///     configuration: HarnessConfiguration(modelClasses: NotesModel.classes))
  ///
  ///   func testEveryArchiveEntry() {
  ///     verifyEveryArchive(of: Self.project)
  ///   }
  ///
  ///   func testWrongRootClassIsRejected() throws {
  ///     try Self.project.mergeChecks.rejects(.wrongRootClass)
  ///   }
  /// }
  /// ```
  ///
  /// A finding about an outcome or a field expectation is recorded at its element in the
  /// manifest (`manifests/Notes-1.0.xml:14`), so Xcode's issue navigator and `swift test`
  /// point at that line; one about no line (a setup problem, an archive no manifest lists)
  /// at the call. Archives no manifest lists are recorded as the project's ``RecordMode``
  /// says, as under Swift Testing.
  ///
  /// - Parameters:
  ///   - project: The team's project, made once in a `static let`.
  ///   - file: Where a finding about no manifest line is recorded: the call's file.
  ///   - line: The call's line.
  public func verifyEveryArchive(
    of project: HarnessProject, file: StaticString = #filePath, line: UInt = #line
  ) {
    let fallback = XCTestFinding.SourceLine(filePath: "\(file)", line: Int(line))
    XCTestFinding.report(project.cases, fallback: fallback) { finding in
      recordFinding(finding)
    }
  }

  /// Records one finding as an XCTest failure at its file and line.
  private func recordFinding(_ finding: XCTestFinding) {
    #if os(Linux) || os(Windows) || os(Android) || os(WASI)
      // swift-corelibs-xctest has no XCTIssue; its recordFailure takes the file as a String.
      recordFailure(
        withDescription: finding.message, inFile: finding.place.filePath,
        atLine: finding.place.line, expected: true)
    #else
      let location = XCTSourceCodeLocation(
        filePath: finding.place.filePath, lineNumber: finding.place.line)
      record(
        XCTIssue(
          type: .assertionFailure, compactDescription: finding.message,
          sourceCodeContext: XCTSourceCodeContext(location: location)))
    #endif
  }
}
