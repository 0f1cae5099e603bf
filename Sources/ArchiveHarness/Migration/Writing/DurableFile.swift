import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File operations that either complete durably or throw an error naming the path.
///
/// Every write goes through FileOutput's `AtomicFile` steps, the one place
/// that implements the project's write rule.
enum DurableFile {
  /// Reads a whole regular file by FileInput's rule for store files; `nil` bytes and the size
  /// for a file larger than `limit`.
  ///
  /// A symbolic link is not followed, and a FIFO or device is not waited on nor read: only a
  /// regular file is. The identity is the file's when it was opened: a writer compares it right
  /// before replacing the file (``swap(_:over:ifStill:)``).
  static func readFile(_ path: String, limit: Int) throws(MigrationError) -> (
    bytes: [UInt8]?, size: Int, identity: FileIdentity
  ) {
    do throws(FileInputError) {
      let file = try FileInput.readStoreFile(path, limit: limit)
      return (file.bytes, file.size, file.identity)
    } catch {
      throw MigrationError(.unreadable, file: path, error.message)
    }
  }

  /// Reads from an open descriptor until `buffer` is full or the file ends, retrying on `EINTR`.
  ///
  /// - Returns: How many bytes were read: `buffer.count`, or fewer at the end of the file.
  /// - Throws: `MigrationError` naming `path` when a read fails.
  static func readFully(_ descriptor: Int32, into buffer: inout [UInt8], path: String)
    throws(MigrationError) -> Int
  {
    let size = buffer.count
    var offset = 0
    while offset < size {
      let count = buffer.withUnsafeMutableBytes { raw in
        read(descriptor, raw.baseAddress.map { $0 + offset }, size - offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw MigrationError(
          .unreadable, file: path, "cannot read: \(MigrationError.systemMessage())")
      }
      if count == 0 { break }
      offset += count
    }
    return offset
  }

  /// Creates a new file (failing if anything exists there), writes the bytes, syncs it (unless `sync` is false) and closes it.
  static func create(_ path: String, bytes: [UInt8], mode: mode_t = 0o644, sync: Bool = true)
    throws(MigrationError)
  {
    do {
      try AtomicFile.createNew(path, bytes: bytes, mode: mode, sync: sync)
    } catch {
      throw MigrationError(error)
    }
  }

  /// Replaces `path` atomically: a temporary file in the same folder, fsync, rename; the folder is synced later by the caller.
  static func replace(_ path: String, with bytes: [UInt8]) throws(MigrationError) {
    let temporary = try writeTemporary(for: path, bytes: bytes, sync: true)
    try moveIntoPlace(temporary, path)
  }

  /// Writes the temporary file that will replace `path`, with `path`'s permissions; returns its path.
  static func writeTemporary(for path: String, bytes: [UInt8], sync: Bool) throws(MigrationError)
    -> String
  {
    var status = stat()
    let mode: mode_t = lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
    let temporary = AtomicFile.temporaryPath(for: path, unique: true)
    try create(temporary, bytes: bytes, mode: mode, sync: sync)
    return temporary
  }

  /// Puts a temporary file in place of `path` only while `path` still holds the file read as `expected`.
  ///
  /// - Returns: Whether it was replaced, or another writer's file was kept.
  static func swap(_ temporary: String, over path: String, ifStill expected: FileIdentity)
    throws(MigrationError) -> AtomicFile.SwapOutcome
  {
    do {
      return try AtomicFile.swap(temporary, over: path, ifStill: expected)
    } catch {
      throw MigrationError(error)
    }
  }

  /// Renames a temporary file over its target (atomic on POSIX file systems); the target must
  /// still be a regular file or missing, never a link, a device, a FIFO or a folder.
  static func moveIntoPlace(_ temporary: String, _ path: String) throws(MigrationError) {
    do {
      try AtomicFile.moveIntoPlace(temporary, over: path)
    } catch {
      throw MigrationError(error)
    }
  }

  /// The suffix of temporary files, which a later run removes when a crash left them.
  static let temporarySuffix = AtomicFile.temporarySuffix

  /// Syncs a folder, so that renames and creations in it are durable.
  static func syncDirectory(_ path: String) throws(MigrationError) {
    do {
      try AtomicFile.syncDirectory(path)
    } catch {
      throw MigrationError(error)
    }
  }

  /// Creates a folder and its parents, syncing each parent that gained an entry.
  static func makeDirectories(_ path: String) throws(MigrationError) {
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw MigrationError(.writeFailed, file: path, "exists and is not a folder")
      }
      return
    }
    let parent = directory(of: path)
    if parent != path && !parent.isEmpty { try makeDirectories(parent) }
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw MigrationError(
        .writeFailed, file: path, "cannot create the folder: \(MigrationError.systemMessage())")
    }
    if !parent.isEmpty { try syncDirectory(parent) }
  }

  /// The folder part of a path (`.` for a bare name, `/` for a top-level entry).
  static func directory(of path: String) -> String {
    AtomicFile.directory(of: path)
  }

  /// The absolute, symlink-free form of an existing path, or the path itself.
  static func canonical(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether a path exists, and whether it is a folder.
  static func kind(of path: String) -> (exists: Bool, isDirectory: Bool) {
    var status = stat()
    guard stat(path, &status) == 0 else { return (false, false) }
    return (true, status.st_mode & S_IFMT == S_IFDIR)
  }

  /// Removes a stale regular file the project left (a temporary file, an earlier copy); a link,
  /// a device, a FIFO or a folder at the path is left alone, and creating the new file then fails.
  static func removeRegularFile(_ path: String) {
    if entryType(of: path) == S_IFREG { unlink(path) }
  }

  /// What is at a path itself, a symbolic link not followed: `nil` when nothing is.
  static func entryType(of path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT
  }
}

extension DurableFile {
  /// Syncs an existing file to disk.
  static func syncFile(_ path: String) throws(MigrationError) {
    do {
      try AtomicFile.syncFile(path)
    } catch {
      throw MigrationError(error)
    }
  }
}

extension DurableFile {
  /// The first bytes of a file, or `nil` when it is a folder.
  static func readPrefix(_ path: String, count: Int) throws(MigrationError) -> [UInt8]? {
    let kind = kind(of: path)
    guard kind.exists else {
      throw MigrationError(.storeNotFound, file: path, "no such file or folder")
    }
    if kind.isDirectory { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MigrationError(
        .unreadable, file: path, "cannot open: \(MigrationError.systemMessage())")
    }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: count)
    let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, count) }
    guard got >= 0 else {
      throw MigrationError(
        .unreadable, file: path, "cannot read: \(MigrationError.systemMessage())")
    }
    return Array(bytes.prefix(got))
  }
}

extension DurableFile {
  /// Whether ``syncFileSystem(containing:)`` is available; without it, callers sync file by file.
  static var canSyncFileSystem: Bool { AtomicFile.canSyncFileSystem }

  /// Flushes every written file and folder of the file system holding `path` to disk (`syncfs`).
  ///
  /// One call replaces an `fsync` per file and per folder for a whole batch.
  static func syncFileSystem(containing path: String) throws(MigrationError) {
    do {
      try AtomicFile.syncFileSystem(containing: path)
    } catch {
      throw MigrationError(error)
    }
  }
}

extension MigrationError {
  /// A write failure from the FileOutput module, at its path.
  init(_ error: FileOutputError) {
    self.init(.writeFailed, file: error.path, error.message)
  }
}

extension DurableFile {
  /// Copies a regular file byte for byte into a new file (nothing may exist there), synced.
  ///
  /// The copy is made owner-only (0600): it is a store's content.
  static func copyFile(_ source: String, to target: String) throws(MigrationError) {
    let input = open(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard input >= 0 else {
      throw MigrationError(
        .backupFailed, file: source, "cannot open: \(MigrationError.systemMessage())")
    }
    defer { close(input) }
    var status = stat()
    guard fstat(input, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw MigrationError(.backupFailed, file: source, "not a regular file")
    }
    let output: Int32
    do {
      output = try AtomicFile.openNew(target, mode: 0o600)
    } catch {
      throw MigrationError(.backupFailed, file: target, error.message)
    }
    defer { close(output) }
    do {
      try copyAll(from: input, source: source, to: output, target: target)
    } catch {
      // A copy that did not finish is no backup: none is left to be mistaken for one.
      unlink(target)
      throw error
    }
  }

  private static func copyAll(from input: Int32, source: String, to output: Int32, target: String)
    throws(MigrationError)
  {
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw MigrationError(
          .backupFailed, file: source, "cannot read: \(MigrationError.systemMessage())")
      }
      if count == 0 { break }
      do {
        try AtomicFile.writeAll(Array(buffer[0..<count]), to: output, path: target)
      } catch {
        throw MigrationError(.backupFailed, file: target, error.message)
      }
    }
    guard fsync(output) == 0 else {
      throw MigrationError(
        .backupFailed, file: target, "cannot fsync: \(MigrationError.systemMessage())")
    }
  }
}
