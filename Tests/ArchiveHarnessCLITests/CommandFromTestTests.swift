import ArchiveHarnessCLI
import Foundation
import HarnessTestSupport
import ProfileKit
import Testing
import _ArchiveHarnessSystem

/// A team calls its harness's `main` from a test: the test runner cannot be the worker.
@Suite("ArchiveHarnessCommand.main called from a test")
struct CommandFromTestTests {
  private struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  private func run(_ arguments: [String], worker: DecodeWorker) -> Run {
    let output = Locked("")
    let error = Locked("")
    let console = Console(
      output: { text in output.withLock { $0 += text } },
      error: { text in error.withLock { $0 += text } })
    let status = ArchiveHarnessCommand.main(
      ["my-harness"] + arguments,
      configuration: HarnessConfiguration(modelClasses: ProfileModel.classes, worker: worker),
      console: console)
    return Run(
      status: status, stdout: output.withLock { $0 }, stderr: error.withLock { $0 })
  }

  private func verify(worker: DecodeWorker) -> Run {
    let root = Corpus.packageRoot
    return run(
      [
        "verify", "--manifests", root.appendingPathComponent("manifests").path,
        "--archives", root.appendingPathComponent("LegacyArchives").path,
      ], worker: worker)
  }

  @Test("With the running executable as worker: exit 2, every path not run, never crashed")
  func runningExecutableIsNotRun() {
    let run = verify(worker: .runningExecutable)
    #expect(run.status == 2)
    #expect(run.stdout.contains("not-run [worker-unavailable]"))
    #expect(run.stdout.contains("is a test runner, not a harness executable"))
    #expect(!run.stdout.contains("crashed"))
    #expect(!run.stdout.contains("signal 0"))
  }

  @Test("With the harness executable named as worker: every entry passes, exit 0")
  func buildProductWorkerPasses() {
    let run = verify(worker: .buildProduct(named: "profiles-harness"))
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("24 archive entries: 24 passed"))
  }

  @Test("decode without a worker: every path not-run in JSON that follows the schema, exit 2")
  func decodeWithoutWorkerIsNotRun() throws {
    let archive = Corpus.packageRoot.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/memo-valid.archive")
    let run = run(
      ["decode", archive.path, "--path", "all", "--format", "json"],
      worker: .buildProduct(named: "no-such-harness"))
    #expect(run.status == 2)
    #expect(run.stdout.contains("not-run"))
    #expect(!run.stdout.contains("crashed"))
    let violations = try JSONSchemas.violations(of: run.stdout, against: .decode)
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
  }

  @Test("A typed dry run with the test runner as worker: exit 2, worker unavailable, no crash")
  func typedDryRunWithoutWorkerIsUnusable() throws {
    let root = Corpus.packageRoot
    let run = run(
      [
        "migrate-dry-run", "--store",
        root.appendingPathComponent("LegacyArchives/ProfilesApp-1.0").path, "--manifest",
        root.appendingPathComponent("manifests/ProfilesApp-1.0.xml").path,
      ], worker: .runningExecutable)
    #expect(run.status == 2)
    #expect(run.stderr.contains("[worker-unavailable]"))
    #expect(run.stderr.contains("is a test runner, not a harness executable"))
  }

  @Test("A typed dry run with the harness executable named as worker plans every record")
  func typedDryRunWithBuildProductRuns() throws {
    let root = Corpus.packageRoot
    let run = run(
      [
        "migrate-dry-run", "--store",
        root.appendingPathComponent("LegacyArchives/ProfilesApp-1.0").path, "--manifest",
        root.appendingPathComponent("manifests/ProfilesApp-1.0.xml").path,
      ], worker: .buildProduct(named: "profiles-harness"))
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("will-rewrite"))
    #expect(!run.stderr.contains("worker"))
  }
}
