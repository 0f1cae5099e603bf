import Foundation
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

/// A `migrate` ended by SIGTERM (a CI runner's timeout, a `kill`, a shutdown) stops as Ctrl-C
/// stops it: after the current batch, with the journal's end line and the report's
/// "interrupted" line, exit 1; never killed mid-write by the default action.
@Suite("migrate and SIGTERM", .serialized)
struct MigrateSignalTests {
  @Test("SIGTERM stops migrate after the batch, reports it interrupted and exits 1")
  func sigtermIsAnInterrupt() throws {
    let folder = NSTemporaryDirectory() + "migrate-sigterm-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/store.sqlite"
    let generated = try CommandRunner.run(
      ["sqlite", store, "--records", "30000", "--mix", "clean"], executableName: "store-generator")
    #expect(generated.status == 0, "\(generated.stderr)")
    let harness = try #require(CommandRunner.executable, "profiles-harness is not built")
    let report = folder + "/report.txt"
    let output = open(report, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    #expect(output >= 0)
    defer { close(output) }
    let child = try ChildProcess(
      executable: harness.path,
      arguments: [
        "migrate", "--store", store, "--table", "t", "--rename-only", "--class-map",
        "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
        "ProfilesApp.Address=ProfileKit.Address", "--batch-size", "256", "--backup",
        folder + "/backup",
      ], standardInput: .nullDevice, standardOutput: .descriptor(output),
      standardError: .descriptor(output))
    // Once its report has begun (the handler is installed first), the run is under way: stop
    // it as a CI runner's timeout would.
    var waited = 0
    while child.isRunning, waited < 10_000,
      !((try? String(contentsOfFile: report, encoding: .utf8))?.contains("migrating ") ?? false)
    {
      usleep(2_000)
      waited += 2
    }
    #expect(child.isRunning, "the run ended before it could be stopped")
    child.send(SIGTERM)
    let ending = try #require(
      child.wait(atMost: .seconds(60)) ?? child.kill(waitingAtMost: .seconds(5)))
    let text = try String(contentsOfFile: report, encoding: .utf8)
    #expect(ending.signal == nil, "ended by signal \(ending.signal ?? 0): \(text)")
    #expect(ending.exitStatus == 1, "\(text)")
    #expect(text.contains("interrupted"), "\(text)")
  }
}
