#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file a path held when it was read: its device, inode, size and modification time.
///
/// Two identities are equal only when the path still names the same inode with
/// the same size and modification time: an app that saves by atomic rename
/// makes a new inode, and one that writes in place changes the time. A writer
/// compares the identity it read with the one it is about to replace
/// (`AtomicFile.swap(_:over:ifStill:)`), so another writer's newer file is never overwritten.
///
/// ```swift
/// let identity = try FileIdentity.of(descriptor: descriptor, path: path)
/// ```
package struct FileIdentity: Sendable, Hashable {
  /// The device the file is on.
  package var device: UInt64
  /// Its inode number.
  package var inode: UInt64
  /// Its size in bytes.
  package var size: Int64
  /// Its modification time: whole seconds since 1970.
  package var modifiedSeconds: Int64
  /// Its modification time: the nanoseconds within ``modifiedSeconds``.
  package var modifiedNanoseconds: Int64

  /// The identity of what a `stat` buffer describes.
  package init(_ status: stat) {
    device = UInt64(truncatingIfNeeded: status.st_dev)
    inode = UInt64(truncatingIfNeeded: status.st_ino)
    size = Int64(status.st_size)
    #if canImport(Darwin)
      modifiedSeconds = Int64(status.st_mtimespec.tv_sec)
      modifiedNanoseconds = Int64(status.st_mtimespec.tv_nsec)
    #else
      modifiedSeconds = Int64(status.st_mtim.tv_sec)
      modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
    #endif
  }

  /// The identity of an open file.
  ///
  /// - Parameters:
  ///   - descriptor: The open file.
  ///   - path: Its path, for the error.
  /// - Returns: The file's identity now.
  /// - Throws: `FileOutputError` when `fstat` fails.
  package static func of(descriptor: Int32, path: String) throws(FileOutputError) -> FileIdentity {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw FileOutputError.system(path, "stat") }
    return FileIdentity(status)
  }

  /// The identity of what is at a path itself (a symbolic link is not followed), or `nil` when nothing is.
  ///
  /// - Parameter path: The path.
  /// - Returns: The identity, or `nil`.
  package static func at(_ path: String) -> FileIdentity? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return FileIdentity(status)
  }
}

extension AtomicFile {
  /// What ``swap(_:over:ifStill:)`` did.
  package enum SwapOutcome: Sendable, Hashable {
    /// The new file is in place; the old one, which was the expected one, is gone from the folder.
    case replaced
    /// Another writer replaced or changed the file since it was read: its file is kept, and the temporary file removed.
    case changed
  }

  /// Puts a temporary file in place of `path` only if `path` still holds the file that was read.
  ///
  /// Where the system can exchange two names atomically (`renameat2` with
  /// `RENAME_EXCHANGE` on Linux, `renamex_np` with `RENAME_SWAP` on Apple
  /// platforms), the files are exchanged and what was displaced is compared
  /// with `expected`: when it is another writer's file, the exchange is
  /// undone, so the check and the replacement are one step. Elsewhere the
  /// target is compared just before a plain rename. A device, a FIFO, a link
  /// or a folder at `path` is never replaced.
  ///
  /// ```swift
  /// let outcome = try AtomicFile.swap(temporary, over: path, ifStill: identityWhenRead)
  /// ```
  ///
  /// - Parameters:
  ///   - temporary: The synced temporary file, in the target's folder; removed in every case.
  ///   - path: The target.
  ///   - expected: The target's identity when its bytes were read.
  /// - Returns: `SwapOutcome.replaced` or `SwapOutcome.changed`.
  /// - Throws: `FileOutputError` when a rename fails or the target is no longer a regular file.
  package static func swap(_ temporary: String, over path: String, ifStill expected: FileIdentity)
    throws(FileOutputError) -> SwapOutcome
  {
    guard let current = FileIdentity.at(path), current == expected else {
      unlink(temporary)
      return .changed
    }
    guard let ours = FileIdentity.at(temporary) else {
      throw FileOutputError.system(temporary, "stat the new file")
    }
    switch exchange(temporary, path) {
    case .unsupported:
      // No atomic exchange here: the target was compared just above.
      try moveIntoPlace(temporary, over: path)
      return .replaced
    case .failed(let number):
      unlink(temporary)
      throw FileOutputError.system(path, "exchange the new file with the old one", number)
    case .exchanged:
      break
    }
    // `temporary` now names what `path` held at the instant of the exchange.
    if FileIdentity.at(temporary) == expected {
      unlink(temporary)
      return .replaced
    }
    // Another writer saved between the check and the exchange: give its file back.
    let displaced = FileIdentity.at(temporary)
    for _ in 0..<4 {
      guard case .exchanged = exchange(temporary, path) else { break }
      let back = FileIdentity.at(temporary)
      if back == ours || back == displaced {
        // `path` holds the other writer's file again, or a newer one of its.
        unlink(temporary)
        return .changed
      }
      // It saved again in between: `temporary` holds its newer file and `path` an older one.
    }
    throw FileOutputError(
      .system, path: path,
      "another writer kept replacing the file while it was swapped; check it and \(temporary)")
  }

  private enum ExchangeResult {
    case exchanged
    case unsupported
    case failed(Int32)
  }

  private static func exchange(_ first: String, _ second: String) -> ExchangeResult {
    #if canImport(Darwin)
      if renamex_np(first, second, UInt32(RENAME_SWAP)) == 0 { return .exchanged }
      let number = errno
      return number == ENOTSUP || number == EINVAL ? .unsupported : .failed(number)
    #elseif os(Linux)
      guard let function = renameAt2Function else { return .unsupported }
      // RENAME_EXCHANGE is 2 in linux/fs.h, which Glibc's module map does not export.
      if function(AT_FDCWD, first, AT_FDCWD, second, 2) == 0 { return .exchanged }
      let number = errno
      return number == EINVAL || number == ENOSYS || number == ENOTSUP
        ? .unsupported : .failed(number)
    #else
      return .unsupported
    #endif
  }

  #if os(Linux)
    private typealias RenameAt2 =
      @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Linux's `renameat2(2)`, looked up at run time because Glibc's module map does not export it.
    private static let renameAt2Function: RenameAt2? = {
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else {
        return nil
      }
      return unsafeBitCast(symbol, to: RenameAt2.self)
    }()
  #endif
}
