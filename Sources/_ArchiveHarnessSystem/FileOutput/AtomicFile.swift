#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The steps of an atomic replacement, for writers that batch them (migration writes many files
/// and syncs them together); `OutputFile` and `SafeFileWriter` run them for one file.
///
/// 1. ``createNew(_:bytes:mode:sync:)`` writes a temporary file beside the target.
/// 2. ``moveIntoPlace(_:over:)`` renames it over the target, which must be a
///    regular file or missing: a device, a FIFO, a link or a folder is never replaced.
/// 3. ``syncDirectory(_:)`` makes the rename durable.
package enum AtomicFile {
  /// The suffix of every temporary file the project writes; a later `migrate` removes stale ones.
  package static let temporarySuffix = ".archive-harness-tmp"

  /// The temporary file for replacing `path` in place of a given name: hidden, in the same folder.
  ///
  /// - Parameters:
  ///   - path: The file to be replaced.
  ///   - unique: Whether to add the process id and a random number, for writers that may run
  ///     concurrently on the same path; a store writer uses the fixed name, which it cleans up.
  /// - Returns: `FOLDER/.NAME[.PID-RANDOM].archive-harness-tmp`.
  package static func temporaryPath(for path: String, unique: Bool = false) -> String {
    let folder = directory(of: path)
    let name = path.split(separator: "/").last.map(String.init) ?? "output"
    let infix = unique ? ".\(getpid())-\(UInt32.random(in: 0...UInt32.max))" : ""
    return folder + "/." + name + infix + temporarySuffix
  }

  /// Creates a new file (it must not exist, and a final link is not followed), writes the
  /// bytes, syncs them unless `sync` is false, and closes it; a failure removes the file.
  ///
  /// - Parameters:
  ///   - path: The file to create.
  ///   - bytes: Its contents.
  ///   - mode: Its permissions, before the umask.
  ///   - sync: Whether to `fsync` it (false when the caller syncs the file system later).
  /// - Throws: `FileOutputError`; `FileOutputError.Code.alreadyExists` when something is there.
  package static func createNew(
    _ path: String, bytes: [UInt8], mode: mode_t = 0o644, sync: Bool = true
  ) throws(FileOutputError) {
    let descriptor = try openNew(path, mode: mode)
    do throws(FileOutputError) {
      try writeAll(bytes, to: descriptor, path: path)
      guard !sync || fsync(descriptor) == 0 else { throw FileOutputError.system(path, "fsync") }
    } catch {
      close(descriptor)
      unlink(path)
      throw error
    }
    close(descriptor)
  }

  /// Opens a new file for writing: `O_CREAT | O_EXCL | O_NOFOLLOW`, so nothing that exists is
  /// ever opened, truncated or followed.
  ///
  /// - Parameters:
  ///   - path: The file to create.
  ///   - mode: Its permissions, before the umask.
  ///   - append: Whether writes go to the end (`O_APPEND`), as a journal's do.
  /// - Returns: The open descriptor, which the caller closes.
  /// - Throws: `FileOutputError`; `FileOutputError.Code.alreadyExists` when something is there.
  package static func openNew(_ path: String, mode: mode_t = 0o644, append: Bool = false)
    throws(FileOutputError) -> Int32
  {
    var flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
    if append { flags |= O_APPEND }
    let descriptor = open(path, flags, mode)
    guard descriptor >= 0 else {
      if errno == EEXIST {
        let kind = (try? OutputPathKind.of(path))?.rawValue ?? "something"
        throw FileOutputError(
          .alreadyExists, path: path, "already exists (\(kind)); this file is always new")
      }
      throw FileOutputError.system(path, "create the file")
    }
    return descriptor
  }

  /// Writes all bytes to an open descriptor, retrying short writes and `EINTR`.
  ///
  /// - Parameters:
  ///   - bytes: What to write.
  ///   - descriptor: An open descriptor.
  ///   - path: The path, for the error.
  /// - Throws: `FileOutputError` when `write` fails.
  package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String)
    throws(FileOutputError)
  {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileOutputError.system(path, "write")
      }
      offset += count
    }
  }

  /// Renames a temporary file over its target, which must be a regular file or missing.
  ///
  /// The target is checked with `lstat` just before the rename: a character
  /// device, a FIFO, a symbolic link or a folder there is never replaced, and
  /// the temporary file is removed instead. A failed rename removes it too.
  ///
  /// - Parameters:
  ///   - temporary: The synced temporary file, in the target's folder.
  ///   - path: The target.
  /// - Throws: `FileOutputError.Code.changedKind` when the target is no longer a regular file.
  package static func moveIntoPlace(_ temporary: String, over path: String) throws(FileOutputError)
  {
    let kind: OutputPathKind
    do {
      kind = try OutputPathKind.of(path)
    } catch {
      unlink(temporary)
      throw error
    }
    guard kind == .regularFile || kind == .missing else {
      unlink(temporary)
      throw FileOutputError(
        .changedKind, path: path,
        "is now \(kind.rawValue); it is left as it is and the new contents are not written")
    }
    guard rename(temporary, path) == 0 else {
      let number = errno
      unlink(temporary)
      throw FileOutputError.system(path, "rename the new file into place", number)
    }
  }

  /// Syncs a folder, so that renames and creations in it survive a crash.
  ///
  /// - Parameter path: The folder.
  /// - Throws: `FileOutputError` when it cannot be opened or synced.
  package static func syncDirectory(_ path: String) throws(FileOutputError) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileOutputError.system(path, "open the folder to sync it") }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw FileOutputError.system(path, "fsync the folder") }
  }

  /// Syncs an existing regular file.
  ///
  /// - Parameter path: The file.
  /// - Throws: `FileOutputError` when it cannot be opened or synced.
  package static func syncFile(_ path: String) throws(FileOutputError) {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileOutputError.system(path, "open the file to sync it") }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw FileOutputError.system(path, "fsync") }
  }

  /// The folder part of a path: `.` for a bare name, `/` for a top-level entry.
  ///
  /// - Parameter path: A path.
  /// - Returns: Everything before the last `/`.
  package static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }
}

extension AtomicFile {
  private typealias SyncFileSystem = @convention(c) (Int32) -> Int32

  /// Linux's `syncfs(2)`, looked up at run time because Glibc's module map does not export it.
  private static let syncFileSystemFunction: SyncFileSystem? = {
    #if os(Linux)
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "syncfs") else {
        return nil
      }
      return unsafeBitCast(symbol, to: SyncFileSystem.self)
    #else
      return nil
    #endif
  }()

  /// Whether ``syncFileSystem(containing:)`` is available; without it, callers sync file by file.
  package static var canSyncFileSystem: Bool { syncFileSystemFunction != nil }

  /// Flushes every written file and folder of the file system holding `path` (`syncfs`).
  ///
  /// One call replaces an `fsync` per file and per folder for a whole batch.
  ///
  /// - Parameter path: A file or folder on the file system.
  /// - Throws: `FileOutputError` when `syncfs` is missing or fails.
  package static func syncFileSystem(containing path: String) throws(FileOutputError) {
    guard let function = syncFileSystemFunction else {
      throw FileOutputError(.system, path: path, "syncfs is not available on this system")
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileOutputError.system(path, "open to sync") }
    defer { close(descriptor) }
    guard function(descriptor) == 0 else {
      throw FileOutputError.system(path, "sync the file system")
    }
  }
}
