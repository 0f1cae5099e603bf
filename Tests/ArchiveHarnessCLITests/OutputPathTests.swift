import Foundation
import HarnessTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The commands' outputs follow the one write rule; every device node here is made in a
/// temporary folder, never the real `/dev/null`.
@Suite("Command outputs: devices, FIFOs, links and folders, run as a user would")
struct OutputPathTests {
  private final class Folder {
    let path: String

    init() throws {
      path = NSTemporaryDirectory() + "output-path-tests-\(getpid())-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
      try? FileManager.default.removeItem(atPath: path)
    }

    func callAsFunction(_ name: String) -> String { path + "/" + name }

    /// A character device node like `/dev/null` (major 1, minor 3).
    func nullDevice(_ name: String) throws -> String {
      try device(name, minor: 3)
    }

    /// A character device node like `/dev/full` (major 1, minor 7), where every write fails.
    func fullDevice(_ name: String) throws -> String {
      try device(name, minor: 7)
    }

    private func device(_ name: String, minor: dev_t) throws -> String {
      let node = self(name)
      let device: dev_t = (1 << 8) | minor
      try #require(mknod(node, S_IFCHR | 0o666, device) == 0)
      return node
    }

    func fileType(_ path: String) throws -> mode_t {
      var status = stat()
      try #require(lstat(path, &status) == 0)
      return status.st_mode & S_IFMT
    }
  }

  private static var isRoot: Bool { geteuid() == 0 }

  @Test(
    "verify --output to a device node writes through it and leaves it a device",
    .enabled(if: isRoot, "mknod needs root"))
  func verifyOutputToDeviceNode() throws {
    let folder = try Folder()
    let node = try folder.nullDevice("null")
    let result = try CommandRunner.run(["verify", "--format", "json", "--output", node])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.fileType(node) == S_IFCHR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["null"])
  }

  @Test(
    "verify --format json --output to a device that refuses writes fails, exit 2, naming it",
    .enabled(if: isRoot, "mknod needs root"))
  func verifyOutputToFullDeviceFails() throws {
    let folder = try Folder()
    let node = try folder.fullDevice("full")
    let result = try CommandRunner.run(["verify", "--format", "json", "--output", node])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(node): error: [unwritable] cannot write"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(try folder.fileType(node) == S_IFCHR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["full"])
  }

  @Test("--output to a FIFO that no process reads is refused after a bounded wait, never hangs")
  func fifoWithoutReaderIsRefused() throws {
    let folder = try Folder()
    let fifo = folder("report")
    try #require(mkfifo(fifo, 0o644) == 0)
    var environment = ProcessInfo.processInfo.environment
    environment["ARCHIVE_HARNESS_FIFO_WAIT_MS"] = "200"
    let result = try CommandRunner.run(
      ["verify", "--format", "json", "--output", fifo], environment: environment,
      timeout: .seconds(60))
    #expect(!result.timedOut)
    #expect(result.status == 2, "\(result.stderr)")
    #expect(
      result.stderr.contains("is a FIFO that no process opened for reading"), "\(result.stderr)")
    #expect(try folder.fileType(fifo) == S_IFIFO)
  }

  @Test("verify --output to a FIFO streams the report to its reader and leaves it a FIFO")
  func verifyOutputToFIFO() throws {
    let folder = try Folder()
    let fifo = folder("report")
    try #require(mkfifo(fifo, 0o644) == 0)
    // The reader opens the FIFO; the harness's open blocks until then, as a shell's `>` does.
    let collected = LockedText()
    let thread = Thread {
      var bytes: [UInt8] = []
      let descriptor = open(fifo, O_RDONLY)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while descriptor >= 0 {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes += buffer[0..<count]
      }
      close(descriptor)
      collected.set(String(decoding: bytes, as: UTF8.self))
    }
    thread.start()
    let result = try CommandRunner.run(["verify", "--format", "json", "--output", fifo])
    // Should the harness never have opened the FIFO, release the waiting reader.
    let release = open(fifo, O_WRONLY | O_NONBLOCK)
    if release >= 0 { close(release) }
    #expect(result.status == 0, "\(result.stderr)")
    let text = collected.wait()
    let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect(json?["serializationVersion"] is Int, "a whole verify JSON report")
    #expect(try folder.fileType(fifo) == S_IFIFO)
  }

  @Test("verify --output through a symbolic link replaces the file it names and keeps the link")
  func verifyOutputThroughSymbolicLink() throws {
    let folder = try Folder()
    let target = folder("reports/verify.json")
    try FileManager.default.createDirectory(
      atPath: folder("reports"), withIntermediateDirectories: true)
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(
      atPath: folder("latest.json"), withDestinationPath: target)
    let result = try CommandRunner.run([
      "verify", "--format", "json", "--output", folder("latest.json"),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.fileType(folder("latest.json")) == S_IFLNK)
    let json =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: target))) as? [String: Any]
    #expect(json?["serializationVersion"] is Int, "a whole verify JSON report")
  }

  @Test("verify --output naming a folder is refused, exit 2, with an error that names it")
  func verifyOutputToFolderIsRefused() throws {
    let folder = try Folder()
    let result = try CommandRunner.run(["verify", "--output", folder.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(folder.path): error: [unwritable] is a folder"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("verify --output - writes the report to standard output")
  func verifyOutputDashIsStandardOutput() throws {
    let result = try CommandRunner.run(["verify", "--format", "json", "--output", "-"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(json?["serializationVersion"] is Int, "a whole verify JSON report")
  }

  @Test(
    "migrate-dry-run --output to a device node streams through it and leaves it a device",
    .enabled(if: isRoot, "mknod needs root"))
  func dryRunOutputToDeviceNode() throws {
    let folder = try Folder()
    let node = try folder.nullDevice("null")
    let result = try CommandRunner.run([
      "migrate-dry-run", "--store", "LegacyArchives/ProfilesApp-1.0", "--rename-only",
      "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--format", "junit",
      "--output", node,
    ])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(try folder.fileType(node) == S_IFCHR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["null"])
  }

  @Test(
    "anonymize to a device node writes through it and leaves it a device",
    .enabled(if: isRoot, "mknod needs root"))
  func anonymizeToDeviceNode() throws {
    let folder = try Folder()
    let node = try folder.nullDevice("null")
    let result = try CommandRunner.run([
      "anonymize", "LegacyArchives/ProfilesApp-1.0/memo-valid.archive", node,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.fileType(node) == S_IFCHR)
  }

  @Test(
    "migrate --journal naming an existing device node is refused and the node is left alone",
    .enabled(if: isRoot, "mknod needs root"))
  func journalOnDeviceNodeIsRefused() throws {
    let folder = try Folder()
    let node = try folder.nullDevice("journal")
    try FileManager.default.copyItem(
      atPath: Corpus.packageRoot.appendingPathComponent("LegacyArchives/ProfilesApp-1.0").path,
      toPath: folder("store"))
    let result = try CommandRunner.run([
      "migrate", "--store", folder("store"), "--rename-only", "--class-map",
      "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--no-backup", "--journal", node,
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("already exists (a character device)"))
    #expect(try folder.fileType(node) == S_IFCHR)
  }
}

/// Text handed from a reader thread, waited for.
private final class LockedText: @unchecked Sendable {
  private let condition = NSCondition()
  private var text: String?

  func set(_ value: String) {
    condition.lock()
    text = value
    condition.broadcast()
    condition.unlock()
  }

  func wait() -> String {
    condition.lock()
    defer { condition.unlock() }
    while text == nil { condition.wait() }
    return text ?? ""
  }
}
