import Foundation
import Testing
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("The one write rule, for each kind of path")
struct OutputRuleTests {
  @Test("A path where nothing exists is created atomically, and no temporary file is left")
  func newFileIsCreated() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let destination = try SafeFileWriter.write("new\n", to: folder("report.json"))
    #expect(destination.method == .atomicReplacement)
    #expect(destination.kind == .missing)
    #expect(try folder.text(folder("report.json")) == "new\n")
    #expect(try folder.names() == ["report.json"])
  }

  @Test("A regular file is replaced by rename: a new inode with the old file's permissions")
  func regularFileIsReplacedAtomically() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let file = try folder.makeFile("report.txt", "old contents, longer than the new\n", mode: 0o640)
    let before = try folder.status(file)
    let destination = try SafeFileWriter.write("new\n", to: file)
    let after = try folder.status(file)
    #expect(destination.method == .atomicReplacement)
    #expect(try folder.text(file) == "new\n")
    #expect(after.st_ino != before.st_ino, "a rename puts a new file in place")
    #expect(after.st_mode & 0o7777 == 0o640)
    #expect(try folder.names() == ["report.txt"])
  }

  @Test(
    "A character device node is written through and stays the same device",
    .enabled(if: ScratchFolder.canMakeDevices, "mknod needs root"))
  func characterDeviceIsWrittenInPlace() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let node = try folder.makeNullDevice("null")
    let before = try folder.status(node)
    let destination = try SafeFileWriter.write(String(repeating: "x", count: 48 << 10), to: node)
    let after = try folder.status(node)
    #expect(destination.method == .inPlace)
    #expect(destination.kind == .characterDevice)
    #expect(after.st_mode & S_IFMT == S_IFCHR)
    #expect(after.st_ino == before.st_ino)
    #expect(after.st_rdev == ScratchFolder.device(major: 1, minor: 3))
    #expect(try folder.names() == ["null"])
  }

  @Test("A FIFO is written through to its reader and stays a FIFO")
  func fifoIsWrittenInPlace() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let fifo = try folder.makeFIFO("pipe")
    let reader = FIFOReader(fifo)
    let destination = try SafeFileWriter.write("through the pipe\n", to: fifo)
    #expect(reader.wait() == "through the pipe\n")
    #expect(destination.method == .inPlace)
    #expect(destination.kind == .fifo)
    #expect(try folder.status(fifo).st_mode & S_IFMT == S_IFIFO)
    #expect(try folder.names() == ["pipe"])
  }

  @Test("'-' is standard output, written through")
  func dashIsStandardOutput() throws {
    let destination = try OutputDestination.resolve("-")
    #expect(destination.method == .standardOutput)
    #expect(destination.kind == .standardOutput)
  }

  @Test("A symbolic link to a regular file is followed: the link stays, its target is replaced")
  func symbolicLinkToFileIsFollowed() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder("real"), withIntermediateDirectories: false)
    let target = try folder.makeFile("real/report.txt", "old\n")
    let link = try folder.makeLink("link.txt", to: "real/report.txt")
    let destination = try SafeFileWriter.write("new\n", to: link)
    #expect(destination.method == .atomicReplacement)
    #expect(destination.path == folder("real/report.txt"))
    #expect(try folder.status(link).st_mode & S_IFMT == S_IFLNK)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/report.txt")
    #expect(try folder.text(target) == "new\n")
    #expect(try folder.names() == ["link.txt", "real"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder("real")) == ["report.txt"])
  }

  @Test(
    "A symbolic link to a device node is followed and the device is written through",
    .enabled(if: ScratchFolder.canMakeDevices, "mknod needs root"))
  func symbolicLinkToDeviceIsFollowed() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let node = try folder.makeNullDevice("null")
    let link = try folder.makeLink("out", to: node)
    let destination = try SafeFileWriter.write("discarded\n", to: link)
    #expect(destination.method == .inPlace)
    #expect(destination.kind == .characterDevice)
    #expect(try folder.status(link).st_mode & S_IFMT == S_IFLNK)
    #expect(try folder.status(node).st_mode & S_IFMT == S_IFCHR)
  }

  @Test("A symbolic link to nothing yet creates its target and stays a link")
  func danglingSymbolicLinkCreatesTarget() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let link = try folder.makeLink("out.json", to: folder("later.json"))
    try SafeFileWriter.write("{}\n", to: link)
    #expect(try folder.status(link).st_mode & S_IFMT == S_IFLNK)
    #expect(try folder.text(folder("later.json")) == "{}\n")
  }

  @Test("A loop of symbolic links is refused")
  func symbolicLinkLoopIsRefused() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let first = try folder.makeLink("a", to: "b")
    _ = try folder.makeLink("b", to: "a")
    #expect {
      try SafeFileWriter.write("x", to: first)
    } throws: { error in
      (error as? FileOutputError)?.code == .symbolicLinkLoop
    }
    #expect(try folder.names() == ["a", "b"])
  }

  @Test("A folder is refused with an error that names it")
  func directoryIsRefused() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let error = try #require(throws: FileOutputError.self) {
      try SafeFileWriter.write("x", to: folder.path)
    }
    #expect(error.code == .isDirectory)
    #expect(error.path == folder.path)
    #expect(error.description.hasPrefix("\(folder.path): is a folder"))
    #expect(try folder.names().isEmpty)
  }

  @Test("A symbolic link to a folder is refused, naming the link and the folder")
  func symbolicLinkToDirectoryIsRefused() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder("real"), withIntermediateDirectories: false)
    let link = try folder.makeLink("out", to: "real")
    let error = try #require(throws: FileOutputError.self) {
      try SafeFileWriter.write("x", to: link)
    }
    #expect(error.code == .isDirectory)
    #expect(error.description.contains(link))
    #expect(error.description.contains("leads to a folder"))
  }

  @Test(
    "A block device node is refused and left alone",
    .enabled(if: ScratchFolder.canMakeDevices, "mknod needs root"))
  func blockDeviceIsRefused() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let node = folder("disk")
    try #require(mknod(node, S_IFBLK | 0o600, ScratchFolder.device(major: 7, minor: 0)) == 0)
    let error = try #require(throws: FileOutputError.self) {
      try SafeFileWriter.write("x", to: node)
    }
    #expect(error.code == .unsupportedKind)
    #expect(try folder.status(node).st_mode & S_IFMT == S_IFBLK)
  }

  @Test("A path in a folder that does not exist is refused, naming the folder")
  func missingFolderIsRefused() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let error = try #require(throws: FileOutputError.self) {
      try SafeFileWriter.write("x", to: folder("absent/report.json"))
    }
    #expect(error.code == .missingFolder)
    #expect(error.message.contains(folder("absent")))
  }

  @Test("A discarded output leaves the target as it was and no temporary file")
  func discardedOutputLeavesTarget() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let file = try folder.makeFile("plan.json", "old\n")
    let output = try SafeFileWriter.open(file)
    try output.write("half a pl")
    #expect(try folder.names().count == 2, "the pieces go to a temporary file beside it")
    output.discard()
    #expect(try folder.text(file) == "old\n")
    #expect(try folder.names() == ["plan.json"])
  }

  @Test("A rename never replaces a FIFO that appeared at the target after it was opened")
  func renameRefusesATargetThatBecameAFIFO() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let output = try SafeFileWriter.open(folder("out"))
    try output.write("x")
    _ = try folder.makeFIFO("out")
    let error = try #require(throws: FileOutputError.self) { try output.commit() }
    #expect(error.code == .changedKind)
    #expect(try folder.status(folder("out")).st_mode & S_IFMT == S_IFIFO)
    #expect(try folder.names() == ["out"])
  }

  @Test("A file that must be new (a journal) is refused where anything exists, a device included")
  func newFileRefusesExistingPaths() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let fifo = try folder.makeFIFO("journal.jsonl")
    let error = try #require(throws: FileOutputError.self) {
      _ = try AtomicFile.openNew(fifo, append: true)
    }
    #expect(error.code == .alreadyExists)
    #expect(error.message.contains("a FIFO"))
    #expect(try folder.status(fifo).st_mode & S_IFMT == S_IFIFO)
  }

  @Test("A scratch file has no name once created and reads back what was appended")
  func scratchFileHasNoName() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    // The folder is passed, not set as TMPDIR: the environment is shared by every test
    // running in parallel.
    let scratch = try ScratchFile(prefix: "scratch-test", in: folder.path)
    try scratch.append(Array("hello, ".utf8))
    try scratch.append(Array("world".utf8))
    #expect(try scratch.size() == 12)
    #expect(try scratch.read(from: 7, count: 100) == Array("world".utf8))
    #expect(try folder.names().isEmpty)
  }
}
