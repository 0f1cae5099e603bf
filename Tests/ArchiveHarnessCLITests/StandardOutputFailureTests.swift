import Foundation
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

/// Output that cannot be written is never lost quietly: a command whose standard output fails
/// (a full disk, `/dev/full`) exits 2 and says so on standard error.
@Suite(
  "A standard output that fails",
  .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
struct StandardOutputFailureTests {
  @Test("inspect > /dev/full exits 2, naming standard output as unwritable")
  func fullStandardOutputFails() throws {
    let harness = try #require(CommandRunner.executable, "profiles-harness is not built")
    let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
    #expect(full >= 0)
    defer { close(full) }
    let folder = NSTemporaryDirectory() + "stdout-full-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let errors = open(folder + "/stderr.txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    defer { close(errors) }
    let child = try ChildProcess(
      executable: harness.path,
      arguments: [
        "inspect",
        Corpus.packageRoot.path + "/LegacyArchives/ProfilesApp-1.0/profile-valid.archive",
      ],
      standardInput: .nullDevice, standardOutput: .descriptor(full),
      standardError: .descriptor(errors))
    let ending = try #require(child.wait(atMost: .seconds(60)))
    let text = try String(contentsOfFile: folder + "/stderr.txt", encoding: .utf8)
    #expect(ending.exitStatus == 2, "\(text)")
    #expect(text.contains("[unwritable] standard output could not be written"), "\(text)")
  }
}
