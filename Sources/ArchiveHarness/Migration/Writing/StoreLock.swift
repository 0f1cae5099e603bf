#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one run that may write a store: an advisory lock that `migrate` and `--rollback` hold.
///
/// The lock is `flock` on `.NAME.archive-harness-lock` beside the store (a
/// folder's lock sits beside the folder, never inside it), holding the
/// owner's process id. A second run refuses at once, naming that process;
/// the lock goes when its holder ends, however it ends, and the file is
/// removed when the holder releases it. Where the store's folder takes no new
/// file, the store itself is locked.
///
/// ```swift
/// let lock = try StoreLock(store: "/data/cache.sqlite")
/// defer { lock.release() }
/// ```
package final class StoreLock {
  /// The locked file: the lock file, or the store itself.
  package let path: String
  private var descriptor: Int32
  private let ownsFile: Bool

  /// Takes the lock of a store, or refuses because another run holds it.
  ///
  /// - Parameter store: The store's path (a folder, a database or a property list).
  /// - Throws: `MigrationError` with code `MigrationError.Code.storeBusy` naming the
  ///   other run's process, or `MigrationError.Code.writeFailed` when no lock can be made.
  package init(store: String) throws(MigrationError) {
    let trimmed = store.count > 1 && store.hasSuffix("/") ? String(store.dropLast()) : store
    let name = trimmed.split(separator: "/").last.map(String.init) ?? "store"
    let lockPath = DurableFile.directory(of: trimmed) + "/." + name + ".archive-harness-lock"
    while true {
      let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        let number = errno
        guard number == EACCES || number == EROFS || number == EPERM else {
          throw MigrationError(
            .writeFailed, file: lockPath,
            "cannot create the store's lock file: \(MigrationError.systemMessage(number))")
        }
        // The folder takes no new file: lock the store itself.
        self.descriptor = try Self.lockStoreItself(trimmed)
        self.path = trimmed
        self.ownsFile = false
        return
      }
      var status = stat()
      guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
        close(descriptor)
        throw MigrationError(.writeFailed, file: lockPath, "the store's lock is not a regular file")
      }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        let holder = Self.holder(descriptor)
        close(descriptor)
        throw MigrationError(
          .storeBusy, file: trimmed,
          "another archive-harness migrate or rollback is writing this store"
            + (holder.map { " (process \($0))" } ?? "")
            + "; wait for it to finish, then run again (lock: \(lockPath))")
      }
      // The holder before us may have removed the file as we opened it: lock the file that is there now.
      var current = stat()
      guard stat(lockPath, &current) == 0, current.st_ino == status.st_ino,
        current.st_dev == status.st_dev
      else {
        close(descriptor)
        continue
      }
      let pid = Array("\(getpid())\n".utf8)
      _ = ftruncate(descriptor, 0)
      _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
      self.descriptor = descriptor
      self.path = lockPath
      self.ownsFile = true
      return
    }
  }

  deinit {
    release()
  }

  /// Releases the lock and removes its file; a second call does nothing.
  package func release() {
    guard descriptor >= 0 else { return }
    // Removed while still held, so a run that opened it meanwhile sees it gone and retries.
    if ownsFile { unlink(path) }
    close(descriptor)
    descriptor = -1
  }

  private static func lockStoreItself(_ store: String) throws(MigrationError) -> Int32 {
    let descriptor = open(store, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MigrationError(
        .writeFailed, file: store,
        "cannot open the store to lock it: \(MigrationError.systemMessage())")
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      throw MigrationError(
        .storeBusy, file: store,
        "another archive-harness migrate or rollback is writing this store; wait for it to finish, then run again"
      )
    }
    return descriptor
  }

  /// The process id the holder wrote into the lock file, if it reads as one.
  private static func holder(_ descriptor: Int32) -> Int32? {
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: bytes.prefix(count), as: UTF8.self)
    return Int32(text.split(separator: "\n").first ?? "")
  }
}
