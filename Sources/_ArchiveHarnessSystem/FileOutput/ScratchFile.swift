#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An unnamed temporary file: created new with `mkstemp` in the temporary folder and removed
/// from it at once, so it replaces nothing, and nothing is left behind however the process ends.
///
/// For data too large to keep in memory that is read back later, such as the
/// body of a JUnit report, or a child process's standard error.
///
/// ```swift
/// let scratch = try ScratchFile()
/// try scratch.append(Array("line\n".utf8))
/// let bytes = try scratch.read(from: 0, count: scratch.size())
/// ```
package final class ScratchFile {
  /// The open descriptor; valid until the scratch file is deallocated.
  package let descriptor: Int32

  /// Creates the file in `folder`, by default `$TMPDIR` (or `/tmp`), and unlinks it.
  ///
  /// - Parameters:
  ///   - prefix: The start of its name while it briefly has one.
  ///   - folder: The folder it is created in; `$TMPDIR`, or `/tmp`, when nil.
  /// - Throws: `FileOutputError` when it cannot be created.
  package init(prefix: String = "archive-harness", in folder: String? = nil)
    throws(FileOutputError)
  {
    var folder = folder ?? getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    if folder.isEmpty { folder = "/tmp" }
    while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
    var template = Array((folder + "/." + prefix + "-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard descriptor >= 0 else { throw FileOutputError.system(path, "create a scratch file") }
    unlink(path)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }

  /// Appends bytes at the end.
  ///
  /// - Parameter bytes: What to add.
  /// - Throws: `FileOutputError` when `write` fails.
  package func append(_ bytes: [UInt8]) throws(FileOutputError) {
    guard lseek(descriptor, 0, SEEK_END) >= 0 else {
      throw FileOutputError.system("scratch file", "seek")
    }
    try AtomicFile.writeAll(bytes, to: descriptor, path: "scratch file")
  }

  /// The number of bytes written so far (by this process or a child that shares the descriptor).
  ///
  /// - Returns: The file's size.
  /// - Throws: `FileOutputError` when `fstat` fails.
  package func size() throws(FileOutputError) -> Int {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw FileOutputError.system("scratch file", "stat")
    }
    return Int(status.st_size)
  }

  /// Reads up to `count` bytes from an offset, without moving the write position.
  ///
  /// - Parameters:
  ///   - offset: Where to start.
  ///   - count: How many bytes at most.
  /// - Returns: The bytes read; fewer at the end of the file.
  /// - Throws: `FileOutputError` when `pread` fails.
  package func read(from offset: Int, count: Int) throws(FileOutputError) -> [UInt8] {
    guard count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        pread(
          descriptor, buffer.baseAddress.map { $0 + filled }, count - filled, off_t(offset + filled)
        )
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw FileOutputError.system("scratch file", "read")
      }
      if got == 0 { break }
      filled += got
    }
    bytes.removeLast(count - filled)
    return bytes
  }
}
