#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file being written by the rule of `OutputDestination`, in pieces, until ``commit()``.
///
/// For an atomic replacement the pieces go to a temporary file beside the
/// target, and only ``commit()`` puts it in place; a run that stops before
/// leaves the target as it was (and, if killed, a hidden `.archive-harness-tmp`
/// file). A device, a FIFO or standard output receives each piece as it comes.
///
/// ```swift
/// let file = try SafeFileWriter.open("plan.json")
/// try file.write(Array("{".utf8))
/// try file.write(Array("}\n".utf8))
/// try file.commit()
/// ```
package final class OutputFile {
  /// Where and how the file is written.
  package let destination: OutputDestination
  /// The temporary file of an atomic replacement, until it is renamed into place.
  package let temporaryPath: String?

  private var descriptor: Int32
  private var isOpen = true

  /// Opens a path for writing by the rule of `OutputDestination`.
  ///
  /// - Parameter path: The path; `-` is standard output.
  /// - Throws: `FileOutputError` when the path is refused or cannot be opened.
  package init(path: String) throws(FileOutputError) {
    let destination = try OutputDestination.resolve(path)
    self.destination = destination
    switch destination.method {
    case .standardOutput:
      descriptor = STDOUT_FILENO
      temporaryPath = nil
    case .inPlace:
      descriptor = try Self.openInPlace(destination)
      temporaryPath = nil
    case .atomicReplacement:
      let temporary = AtomicFile.temporaryPath(for: destination.path, unique: true)
      let existing = Self.ownership(of: destination.path)
      descriptor = try AtomicFile.openNew(temporary, mode: existing?.mode ?? 0o666)
      temporaryPath = temporary
      if let existing {
        // Keep the replaced file's permissions and, where allowed, its owner.
        _ = fchmod(descriptor, existing.mode)
        if existing.owner != geteuid() || existing.group != getegid() {
          _ = fchown(descriptor, existing.owner, existing.group)
        }
      }
    }
  }

  deinit {
    discard()
  }

  /// Writes bytes: to the temporary file, or straight through for a device, a FIFO or stdout.
  ///
  /// - Parameter bytes: The next piece.
  /// - Throws: `FileOutputError` when the file is no longer open or `write` fails.
  package func write(_ bytes: [UInt8]) throws(FileOutputError) {
    guard isOpen else {
      throw FileOutputError(.system, path: destination.requestedPath, "the file is already closed")
    }
    try AtomicFile.writeAll(bytes, to: descriptor, path: destination.requestedPath)
  }

  /// Writes text as UTF-8.
  ///
  /// - Parameter text: The next piece.
  /// - Throws: `FileOutputError` when the file is no longer open or `write` fails.
  package func write(_ text: String) throws(FileOutputError) {
    try write(Array(text.utf8))
  }

  /// Finishes the file: for an atomic replacement `fsync`, `rename` over the target and `fsync`
  /// of the folder; for a device or FIFO, `close`; for standard output, nothing.
  ///
  /// - Throws: `FileOutputError` when a step fails; the target is then as it was.
  package func commit() throws(FileOutputError) {
    guard isOpen else { return }
    isOpen = false
    switch destination.method {
    case .standardOutput:
      return
    case .inPlace:
      guard close(descriptor) == 0 else {
        throw FileOutputError.system(destination.requestedPath, "close")
      }
    case .atomicReplacement:
      guard let temporaryPath else { return }
      guard fsync(descriptor) == 0 else {
        let error = FileOutputError.system(destination.requestedPath, "fsync")
        close(descriptor)
        unlink(temporaryPath)
        throw error
      }
      close(descriptor)
      try AtomicFile.moveIntoPlace(temporaryPath, over: destination.path)
      try AtomicFile.syncDirectory(AtomicFile.directory(of: destination.path))
    }
  }

  /// Abandons the file: removes the temporary file, leaving the target as it was.
  package func discard() {
    guard isOpen else { return }
    isOpen = false
    switch destination.method {
    case .standardOutput:
      return
    case .inPlace:
      close(descriptor)
    case .atomicReplacement:
      close(descriptor)
      if let temporaryPath { unlink(temporaryPath) }
    }
  }

  /// Opens a character device or FIFO where it is: never created, never truncated, and checked
  /// again once open, in case something else was put at the path meanwhile.
  private static func openInPlace(_ destination: OutputDestination) throws(FileOutputError)
    -> Int32
  {
    let path = destination.path
    // A FIFO opened for writing blocks until a reader opens it; a run must not hang on one
    // nobody reads. It is opened without blocking, waiting a bounded time for a reader, and
    // then writes as usual.
    var descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
    var waited = 0
    while descriptor < 0, errno == ENXIO || errno == EINTR, waited < readerWaitMilliseconds {
      usleep(20_000)
      waited += 20
      descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
    }
    guard descriptor >= 0 else {
      if errno == ENXIO {
        throw FileOutputError(
          .noReader, path: destination.requestedPath,
          "is a FIFO that no process opened for reading within \(readerWaitMilliseconds) ms; "
            + "nothing was written")
      }
      throw FileOutputError.system(path, "open for writing")
    }
    let flags = fcntl(descriptor, F_GETFL)
    if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let error = FileOutputError.system(path, "stat")
      close(descriptor)
      throw error
    }
    let kind = OutputPathKind.kind(ofMode: status.st_mode)
    guard kind == .characterDevice || kind == .fifo else {
      close(descriptor)
      throw FileOutputError(
        .changedKind, path: destination.requestedPath,
        "was \(destination.kind.rawValue) but is now \(kind.rawValue); nothing was written")
    }
    return descriptor
  }

  /// How long opening a FIFO waits for a process to read it, in milliseconds: 10 seconds, or
  /// `ARCHIVE_HARNESS_FIFO_WAIT_MS` (0 to 600,000).
  static let readerWaitMilliseconds: Int = {
    guard let text = getenv("ARCHIVE_HARNESS_FIFO_WAIT_MS").map({ String(cString: $0) }),
      let value = Int(text), (0...600_000).contains(value)
    else { return 10_000 }
    return value
  }()

  /// The permissions and owner of an existing regular file, or nil for a new one.
  private static func ownership(of path: String) -> (mode: mode_t, owner: uid_t, group: gid_t)? {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return (status.st_mode & 0o7777, status.st_uid, status.st_gid)
  }
}
