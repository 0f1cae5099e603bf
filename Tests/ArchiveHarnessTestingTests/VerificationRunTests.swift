import ArchiveHarness
import Foundation
import Testing

/// `VerificationRun`: `verify` as a library call, on this repository's own manifests.
@Suite("A verification run is verify, callable from code")
struct VerificationRunTests {
  /// The repository's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The sample app's classes, decoded through the built worker.
  static var configuration: HarnessConfiguration {
    var configuration = Fixture.configuration
    configuration.worker = Fixture.worker
    return configuration
  }

  static var options: VerificationRun.Options {
    VerificationRun.Options(
      manifests: root.appendingPathComponent("manifests").path,
      archives: root.appendingPathComponent("LegacyArchives").path)
  }

  @Test("The shipped manifests load with no error and every entry passes, with digest and run")
  func shippedManifestsPass() throws {
    let run = try VerificationRun(configuration: Self.configuration, options: Self.options)
    #expect(!run.loaded.hasErrors)
    #expect(!run.files.isEmpty)
    let report = run.report()
    #expect(report.passed)
    #expect(report.cases.count == run.loaded.manifests.reduce(0) { $0 + $1.archives.count })
    #expect(report.manifestsDigest == run.manifestsDigest)
    #expect(report.run?.manifests == Self.options.manifests)
    #expect(report.containment == run.verifier.containment)
  }

  @Test("A shard verifies only its slice, and streamed cases arrive in report order")
  func shardStreamsItsSlice() throws {
    var options = Self.options
    let whole = try VerificationRun(configuration: Self.configuration, options: options).report()
    options.shard = try #require(VerificationShard(parsing: "1/2"))
    let run = try VerificationRun(configuration: Self.configuration, options: options)
    var streamed: [VerificationCase] = []
    let notes = run.verify { streamed.append($0) }
    #expect(notes.isEmpty)
    #expect(!streamed.isEmpty && streamed.count < whole.cases.count)
    #expect(
      streamed
        == whole.cases.filter {
          options.shard?.contains(manifest: $0.manifest, archive: $0.archive) ?? false
        })
  }

  @Test("With privacy set, every verified archive is scanned and the report has the scan's note")
  func privacyScanRuns() throws {
    var options = Self.options
    options.privacy = true
    let report = try VerificationRun(configuration: Self.configuration, options: options)
      .report()
    let scanned = Set(report.cases.map(\.archive)).count
    #expect(report.notes.contains { $0.hasPrefix("privacy scan: \(scanned) archives, 0 findings") })
    #expect(report.passed)
  }

  @Test("A missing manifests folder is a problem naming it")
  func missingFolderIsAProblem() throws {
    var options = Self.options
    options.manifests = Self.root.appendingPathComponent("no-such-manifests").path
    let problem = try #require(throws: VerificationRun.Problem.self) {
      try VerificationRun(configuration: Self.configuration, options: options)
    }
    #expect(problem.place == Place(file: options.manifests))
    #expect(problem.message == "no such manifests folder")
  }

  @Test("A folder with no manifest is a problem naming it")
  func emptyFolderIsAProblem() throws {
    var options = Self.options
    options.manifests = Self.root.appendingPathComponent("Tests/Fixtures/SQLCipher").path
    let problem = try #require(throws: VerificationRun.Problem.self) {
      try VerificationRun(configuration: Self.configuration, options: options)
    }
    #expect(problem.description == "\(options.manifests): no manifests in this folder")
  }

  @Test("Decoding in process verifies on one lane; workers on one per processor")
  func lanes() {
    var configuration = Fixture.configuration
    configuration.worker = .inProcess
    #expect(configuration.lanes == 1)
    configuration.worker = Fixture.worker
    #expect(configuration.lanes == max(1, ProcessInfo.processInfo.activeProcessorCount))
  }
}
