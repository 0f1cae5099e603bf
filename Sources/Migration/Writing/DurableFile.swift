#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File operations that either complete durably or throw an error naming the path.
enum DurableFile {
  /// Reads a whole file, refusing one larger than `limit` bytes; `nil` and a reason for a too-large file.
  static func readFile(_ path: String, limit: Int) throws(MigrationError) -> (
    bytes: [UInt8]?, size: Int
  ) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MigrationError(
        .unreadable, place: path, "cannot open: \(MigrationError.systemMessage())")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw MigrationError(
        .unreadable, place: path, "cannot stat: \(MigrationError.systemMessage())")
    }
    let size = Int(status.st_size)
    guard size <= limit else { return (nil, size) }
    var bytes = [UInt8](repeating: 0, count: size)
    var offset = 0
    while offset < size {
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress.map { $0 + offset }, size - offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw MigrationError(
          .unreadable, place: path, "cannot read: \(MigrationError.systemMessage())")
      }
      if count == 0 { break }
      offset += count
    }
    if offset < size { bytes.removeLast(size - offset) }
    return (bytes, size)
  }

  /// Writes all bytes to an open descriptor.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(MigrationError)
  {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw MigrationError(
          .writeFailed, place: path, "cannot write: \(MigrationError.systemMessage())")
      }
      offset += count
    }
  }

  /// Creates a new file (failing if it exists), writes the bytes, syncs it (unless `sync` is false) and closes it.
  static func create(_ path: String, bytes: [UInt8], mode: mode_t = 0o644, sync: Bool = true)
    throws(MigrationError)
  {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw MigrationError(
        .writeFailed, place: path, "cannot create: \(MigrationError.systemMessage())")
    }
    do throws(MigrationError) {
      try writeAll(bytes, to: descriptor, path: path)
      guard !sync || fsync(descriptor) == 0 else {
        throw MigrationError(
          .writeFailed, place: path, "cannot fsync: \(MigrationError.systemMessage())")
      }
    } catch {
      close(descriptor)
      unlink(path)
      throw error
    }
    close(descriptor)
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
    let mode: mode_t = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
    let temporary = temporaryPath(for: path)
    unlink(temporary)
    try create(temporary, bytes: bytes, mode: mode, sync: sync)
    return temporary
  }

  /// Renames a temporary file over its target (atomic on POSIX file systems).
  static func moveIntoPlace(_ temporary: String, _ path: String) throws(MigrationError) {
    guard rename(temporary, path) == 0 else {
      let message = MigrationError.systemMessage()
      unlink(temporary)
      throw MigrationError(
        .writeFailed, place: path, "cannot rename the new file into place: \(message)")
    }
  }

  /// The temporary file used while replacing `path`: hidden, in the same folder, so the store skips it.
  static func temporaryPath(for path: String) -> String {
    let folder = directory(of: path)
    let name = String(path.dropFirst(folder.count).drop { $0 == "/" })
    return folder + "/." + name + temporarySuffix
  }

  /// The suffix of temporary files, which a later run removes when a crash left them.
  static let temporarySuffix = ".archive-harness-tmp"

  /// Syncs a folder, so that renames and creations in it are durable.
  static func syncDirectory(_ path: String) throws(MigrationError) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MigrationError(
        .writeFailed, place: path,
        "cannot open the folder to sync it: \(MigrationError.systemMessage())")
    }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw MigrationError(
        .writeFailed, place: path, "cannot fsync the folder: \(MigrationError.systemMessage())")
    }
  }

  /// Creates a folder and its parents, syncing each parent that gained an entry.
  static func makeDirectories(_ path: String) throws(MigrationError) {
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw MigrationError(.writeFailed, place: path, "exists and is not a folder")
      }
      return
    }
    let parent = directory(of: path)
    if parent != path && !parent.isEmpty { try makeDirectories(parent) }
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw MigrationError(
        .writeFailed, place: path, "cannot create the folder: \(MigrationError.systemMessage())")
    }
    if !parent.isEmpty { try syncDirectory(parent) }
  }

  /// The folder part of a path (`.` for a bare name, `/` for a top-level entry).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
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
}

extension DurableFile {
  /// Syncs an existing file to disk.
  static func syncFile(_ path: String) throws(MigrationError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MigrationError(
        .writeFailed, place: path, "cannot open to sync: \(MigrationError.systemMessage())")
    }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw MigrationError(
        .writeFailed, place: path, "cannot fsync: \(MigrationError.systemMessage())")
    }
  }
}

extension DurableFile {
  /// The first bytes of a file, or `nil` when it is a folder.
  static func readPrefix(_ path: String, count: Int) throws(MigrationError) -> [UInt8]? {
    let kind = kind(of: path)
    guard kind.exists else {
      throw MigrationError(.storeNotFound, place: path, "no such file or folder")
    }
    if kind.isDirectory { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MigrationError(
        .unreadable, place: path, "cannot open: \(MigrationError.systemMessage())")
    }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: count)
    let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, count) }
    guard got >= 0 else {
      throw MigrationError(
        .unreadable, place: path, "cannot read: \(MigrationError.systemMessage())")
    }
    return Array(bytes.prefix(got))
  }
}

extension DurableFile {
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
  static var canSyncFileSystem: Bool { syncFileSystemFunction != nil }

  /// Flushes every written file and folder of the file system holding `path` to disk (`syncfs`).
  ///
  /// One call replaces an `fsync` per file and per folder for a whole batch.
  static func syncFileSystem(containing path: String) throws(MigrationError) {
    guard let function = syncFileSystemFunction else {
      throw MigrationError(.writeFailed, place: path, "syncfs is not available on this system")
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MigrationError(
        .writeFailed, place: path, "cannot open to sync: \(MigrationError.systemMessage())")
    }
    defer { close(descriptor) }
    guard function(descriptor) == 0 else {
      throw MigrationError(
        .writeFailed, place: path, "cannot sync the file system: \(MigrationError.systemMessage())")
    }
  }
}
