import Foundation
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A migrate whose report cannot be written finds out before it touches the store, and a
/// report lost after the store changed never hides that it changed or where its journal is.
@Suite(
  "migrate with a report that cannot be written",
  .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
struct MigrateReportFailureTests {

  @Test("migrate --output on a device that takes no bytes exits 2 and leaves the store as it was")
  func fullOutputStopsBeforeTheStore() throws {
    let folder = try StoreFixtures.scratchProfileStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try StoreFixtures.checksums(ofFolder: folder + "/store")
    let result = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", StoreFixtures.manifest, "--backup",
      folder + "/backup", "--output", "/dev/full",
    ])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("/dev/full"))
    #expect(result.stderr.contains("[unwritable]"))
    #expect(try StoreFixtures.checksums(ofFolder: folder + "/store") == before)
    let runs = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/backup")) ?? []
    #expect(runs.isEmpty, "no backup run was started: \(runs)")
  }

  @Test("migrate > /dev/full exits 2 and leaves the store as it was")
  func fullStandardOutputStopsBeforeTheStore() throws {
    let harness = try #require(CommandRunner.executable, "profiles-harness is not built")
    let folder = try StoreFixtures.scratchProfileStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try StoreFixtures.checksums(ofFolder: folder + "/store")
    let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
    #expect(full >= 0)
    defer { close(full) }
    let errors = open(folder + "/stderr.txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    defer { close(errors) }
    let child = try ChildProcess(
      executable: harness.path,
      arguments: [
        "migrate", "--store", folder + "/store", "--manifest", StoreFixtures.manifest, "--backup",
        folder + "/backup",
      ],
      standardInput: .nullDevice, standardOutput: .descriptor(full),
      standardError: .descriptor(errors))
    let ending = try #require(child.wait(atMost: .seconds(120)))
    let text = try String(contentsOfFile: folder + "/stderr.txt", encoding: .utf8)
    #expect(ending.exitStatus == 2, "\(text)")
    #expect(text.contains("standard output could not be written"), "\(text)")
    #expect(try StoreFixtures.checksums(ofFolder: folder + "/store") == before)
  }
}
