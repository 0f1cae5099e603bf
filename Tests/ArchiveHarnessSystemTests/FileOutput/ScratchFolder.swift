import Foundation
import Testing
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh folder under the temporary directory, removed by ``remove()``; every node a test
/// makes (device nodes and FIFOs included) lives in it, never in `/dev`.
struct ScratchFolder {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "file-output-tests-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// A path inside the folder.
  func callAsFunction(_ name: String) -> String { path + "/" + name }

  /// Writes a regular file with text.
  func makeFile(_ name: String, _ text: String, mode: mode_t = 0o644) throws -> String {
    let file = self(name)
    try #require(FileManager.default.createFile(atPath: file, contents: Data(text.utf8)))
    try #require(chmod(file, mode) == 0)
    return file
  }

  /// Makes a character device node like `/dev/null` (major 1, minor 3) inside the folder.
  func makeNullDevice(_ name: String) throws -> String {
    let node = self(name)
    try #require(mknod(node, S_IFCHR | 0o666, Self.device(major: 1, minor: 3)) == 0)
    return node
  }

  /// Makes a FIFO inside the folder.
  func makeFIFO(_ name: String) throws -> String {
    let node = self(name)
    try #require(mkfifo(node, 0o644) == 0)
    return node
  }

  /// Makes a symbolic link `name` → `target`.
  func makeLink(_ name: String, to target: String) throws -> String {
    let link = self(name)
    try #require(symlink(target, link) == 0)
    return link
  }

  /// The text of a file.
  func text(_ path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
  }

  /// `lstat` of a path: the link itself, not what it leads to.
  func status(_ path: String) throws -> stat {
    var result = stat()
    try #require(lstat(path, &result) == 0)
    return result
  }

  /// The names in the folder, hidden ones included.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// A device number, as `makedev(3)` composes it on Linux.
  static func device(major: UInt32, minor: UInt32) -> dev_t {
    let major = dev_t(major)
    let minor = dev_t(minor)
    return ((major & 0xFFF) << 8) | ((major & ~0xFFF) << 32) | (minor & 0xFF)
      | ((minor & ~0xFF) << 12)
  }

  /// Whether the tests may make device nodes (only root may, with `mknod`).
  static var canMakeDevices: Bool { geteuid() == 0 }
}

/// Reads a FIFO to its end on another thread, as `cat FIFO` would.
final class FIFOReader: @unchecked Sendable {
  private let lock = NSCondition()
  private var data: [UInt8]?

  init(_ path: String) {
    let thread = Thread { [self] in
      var bytes: [UInt8] = []
      let descriptor = open(path, O_RDONLY)
      if descriptor >= 0 {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          if count <= 0 { break }
          bytes += buffer[0..<count]
        }
        close(descriptor)
      }
      lock.lock()
      data = bytes
      lock.broadcast()
      lock.unlock()
    }
    thread.start()
  }

  /// Waits for the writer to close the FIFO and returns what was read.
  func wait() -> String {
    lock.lock()
    defer { lock.unlock() }
    while data == nil { lock.wait() }
    return String(decoding: data ?? [], as: UTF8.self)
  }
}
