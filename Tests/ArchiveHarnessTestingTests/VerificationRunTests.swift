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
    #expect(!run.hasErrors)
    #expect(!run.files.isEmpty)
    let report = run.report()
    #expect(report.passed)
    let loaded = run.verifier.load(
      run.files, archivesDirectory: Self.options.archives,
      manifestsDirectory: Self.options.manifests)
    #expect(report.cases.count == loaded.manifests.reduce(0) { $0 + $1.archives.count })
    #expect(report.manifestsDigest == run.manifestsDigest)
    #expect(report.run?.manifests == Self.options.manifests)
    #expect(report.containment == run.verifier.containment)
  }

  @Test("A shard verifies only its slice, and streamed cases arrive in report order")
  func shardStreamsItsSlice() throws {
    var options = Self.options
    let whole = try VerificationRun(configuration: Self.configuration, options: options).report()
    let shard: VerificationShard = try #require(VerificationShard(parsing: "1/2"))
    options.shard = shard
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

  @Test("A run that keeps no manifest loads each again as it goes and verifies the same cases")
  func reloadsAsItGoes() throws {
    let kept = try VerificationRun(configuration: Self.configuration, options: Self.options)
      .report()
    var options = Self.options
    options.keptEntries = 0
    options.privacy = true
    let run = try VerificationRun(configuration: Self.configuration, options: options)
    var streamed: [VerificationCase] = []
    let notes = run.verify { streamed.append($0) }
    #expect(streamed.map(\.name) == kept.cases.map(\.name))
    #expect(streamed.map(\.status) == kept.cases.map(\.status))
    #expect(streamed.allSatisfy { $0.status == .passed })
    #expect(notes.count == 1 && notes[0].contains("0 findings"))
  }

  @Test("A manifest that changes after the run checked it fails the run with a case naming it")
  func changedManifestFails() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "verification-run-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      at: Self.root.appendingPathComponent("manifests"),
      to: folder.appendingPathComponent("manifests"))
    var options = Self.options
    options.manifests = folder.appendingPathComponent("manifests").path
    options.keptEntries = 0
    let run = try VerificationRun(configuration: Self.configuration, options: options)
    #expect(!run.hasErrors)
    let last = try #require(run.files.last)
    let handle = try #require(FileHandle(forWritingAtPath: last))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("<!-- edited during the run -->\n".utf8))
    try handle.close()
    var streamed: [VerificationCase] = []
    _ = run.verify { streamed.append($0) }
    let changed = try #require(streamed.last)
    #expect(changed.manifest == last)
    #expect(changed.status == .failed)
    #expect(changed.paths.first?.message?.contains("the manifest changed after the run") == true)
    #expect(!streamed.contains { $0.manifest == last && !$0.archive.isEmpty })
    #expect(streamed.dropLast().allSatisfy { $0.status == .passed })
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

  @Test("Decoding in process verifies on one lane; workers on two per processor")
  func lanes() {
    var configuration = Fixture.configuration
    configuration.worker = .inProcess
    #expect(configuration.lanes == 1)
    configuration.worker = Fixture.worker
    #expect(configuration.lanes == 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
  }
}
