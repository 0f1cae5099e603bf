import Foundation
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A report reader that goes away mid-run (`migrate … | head -1`) neither kills `migrate`
/// nor hides that the store changed.
@Suite("migrate when its report's reader goes away")
struct MigrateBrokenPipeTests {
  @Test(
    "A closed pipe stops migrate after the batch; exit 2 says the store changed and names the journal"
  )
  func closedPipeSaysTheStoreChanged() throws {
    let folder = NSTemporaryDirectory() + "migrate-pipe-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/store.sqlite"
    let generated = try CommandRunner.run(
      ["sqlite", store, "--records", "5000", "--mix", "clean"], executableName: "store-generator")
    #expect(generated.status == 0, "\(generated.stderr)")
    let harness = try #require(CommandRunner.executable, "profiles-harness is not built")
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let errors = open(folder + "/stderr.txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    defer { close(errors) }
    let child = try ChildProcess(
      executable: harness.path,
      arguments: [
        "migrate", "--store", store, "--table", "t", "--rename-only", "--class-map",
        "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
        "ProfilesApp.Address=ProfileKit.Address", "--batch-size", "256", "--backup",
        folder + "/backup",
      ], standardInput: .nullDevice, standardOutput: .descriptor(ends[1]),
      standardError: .descriptor(errors))
    close(ends[1])
    // Read the report's first line, as `head -1` does, and go away.
    var byte: UInt8 = 0
    while read(ends[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
    close(ends[0])
    let ending = try #require(
      child.wait(atMost: .seconds(120)) ?? child.kill(waitingAtMost: .seconds(5)))
    let text = try String(contentsOfFile: folder + "/stderr.txt", encoding: .utf8)
    #expect(ending.signal == nil, "ended by signal \(ending.signal ?? 0): \(text)")
    #expect(ending.exitStatus == 2, "\(text)")
    #expect(text.contains("but the store changed"), "\(text)")
    #expect(text.contains("journal.jsonl"), "\(text)")
    #expect(text.contains("migrate --rollback"), "\(text)")
  }
}
