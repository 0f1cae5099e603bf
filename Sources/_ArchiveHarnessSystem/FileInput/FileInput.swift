#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every file the project reads goes through this one rule, beside FileOutput's for writing:
/// read whole into one array, bounded before a byte beyond the limit is kept, every `read(2)`
/// retried on `EINTR`, and every failure a `FileInputError` naming the file.
///
/// Two kinds of file, two ways in:
/// - ``readInput(_:limit:)``: what a command is pointed at (an archive, a manifest, a key
///   file). A link is followed and a pipe or device is read as a stream, up to the limit.
/// - ``readStoreFile(_:limit:)``: a file of a store that a migration may replace. Only a
///   regular file is read; a link is not followed (`O_NOFOLLOW`) and a FIFO or device is not
///   waited on (`O_NONBLOCK`). Its identity is taken when it is opened, and a file that
///   changed while it was read is refused, so a writer can compare it right before replacing.
///
/// ```swift
/// let manifest = try FileInput.readInput("manifests/Notes-1.0.xml", limit: 16 << 20)
/// let record = try FileInput.readStoreFile("store/note-1.archive", limit: 64 << 20)
/// ```
package enum FileInput {
  /// A store file, as read: its bytes (nil when over the limit), its size and its identity.
  package struct StoreFile: Sendable {
    /// The bytes, or nil when the file is larger than the limit.
    package var bytes: [UInt8]?
    /// The file's size when it was opened.
    package var size: Int
    /// The file's identity when it was opened.
    package var identity: FileIdentity
  }

  /// Reads a command's input whole: a file, a link to one, a pipe or a device, up to `limit`
  /// bytes.
  ///
  /// - Throws: `FileInputError` when the path names nothing, a folder, or a file larger than
  ///   `limit`, or a read fails.
  package static func readInput(_ path: String, limit: Int) throws(FileInputError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw FileInputError(
        path: path, errno == ENOENT ? .notFound : .unreadable, message(errno))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw FileInputError(path: path, .unreadable, "cannot stat: \(message(errno))")
    }
    if status.st_mode & S_IFMT == S_IFDIR {
      throw FileInputError(path: path, .notAFile, "is a directory, not a file")
    }
    // A regular file says its size (one byte more shows the end); a pipe grows as it is read.
    let isRegular = status.st_mode & S_IFMT == S_IFREG
    if isRegular, Int(status.st_size) > limit {
      throw FileInputError(
        path: path, .tooLarge,
        "file of \(status.st_size) bytes exceeds the limit of \(limit) bytes")
    }
    var bytes = [UInt8](
      repeating: 0, count: max(1, min(isRegular ? Int(status.st_size) + 1 : 1 << 16, limit + 1)))
    var filled = 0
    while true {
      if filled == bytes.count {
        guard bytes.count <= limit else { break }
        bytes.append(
          contentsOf: repeatElement(0, count: min(limit + 1, bytes.count * 2) - bytes.count))
      }
      let count = try readSome(descriptor, into: &bytes, at: filled, path: path)
      if count == 0 { break }
      filled += count
    }
    bytes.removeLast(bytes.count - filled)
    guard bytes.count <= limit else {
      throw FileInputError(path: path, .tooLarge, "file exceeds the limit of \(limit) bytes")
    }
    return bytes
  }

  /// Reads a store's regular file whole, with its identity; a file over `limit` gives its size
  /// and identity, and no bytes.
  ///
  /// - Throws: `FileInputError` for a link, a FIFO, a device or a folder, a failed read, or
  ///   a file that changed while it was read.
  package static func readStoreFile(_ path: String, limit: Int) throws(FileInputError)
    -> StoreFile
  {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let number = errno
      if number == ELOOP {
        throw FileInputError(path: path, .symbolicLink, "cannot open: it is a symbolic link")
      }
      throw FileInputError(
        path: path, number == ENOENT ? .notFound : .unreadable, "cannot open: \(message(number))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw FileInputError(path: path, .unreadable, "cannot stat: \(message(errno))")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw FileInputError(path: path, .notAFile, "cannot read: not a regular file")
    }
    let size = Int(status.st_size)
    let identity = FileIdentity(status)
    guard size <= limit else { return StoreFile(bytes: nil, size: size, identity: identity) }
    var bytes = [UInt8](repeating: 0, count: size)
    var offset = 0
    while offset < size {
      let count = try readSome(descriptor, into: &bytes, at: offset, path: path)
      if count == 0 { break }
      offset += count
    }
    // A file that grew or shrank while it was read is not the file whose identity was taken.
    guard offset == size, let after = try? FileIdentity.of(descriptor: descriptor, path: path),
      after == identity
    else {
      throw FileInputError(
        path: path, .changedWhileRead, "the file changed while it was read; read it again later")
    }
    return StoreFile(bytes: bytes, size: size, identity: identity)
  }

  /// One `read(2)` into `buffer` from `offset`, retried on `EINTR`; 0 at the end of the file.
  private static func readSome(
    _ descriptor: Int32, into buffer: inout [UInt8], at offset: Int, path: String
  ) throws(FileInputError) -> Int {
    while true {
      let count = buffer.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return read(descriptor, base + offset, raw.count - offset)
      }
      if count >= 0 { return count }
      if errno == EINTR { continue }
      throw FileInputError(path: path, .unreadable, "cannot read: \(message(errno))")
    }
  }

  private static func message(_ number: Int32) -> String {
    String(cString: strerror(number))
  }
}

/// Why a file could not be read, naming it.
///
/// ```swift
/// do { _ = try FileInput.readInput(path, limit: 1 << 20) }
/// catch { print(error) }  // notes.xml: no such file or directory
/// ```
package struct FileInputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, for the caller's category.
  package enum Reason: Sendable, Hashable {
    /// The path names nothing.
    case notFound
    /// A folder, a FIFO or a device where a file was wanted.
    case notAFile
    /// A symbolic link where a store file was wanted.
    case symbolicLink
    /// Larger than the limit.
    case tooLarge
    /// The file changed while it was read.
    case changedWhileRead
    /// Open, stat or read failed.
    case unreadable
  }

  /// The file.
  package var path: String
  /// What went wrong.
  package var reason: Reason
  /// The sentence diagnostics give.
  package var message: String

  package init(path: String, _ reason: Reason, _ message: String) {
    self.path = path
    self.reason = reason
    self.message = message
  }

  /// `PATH: MESSAGE`.
  package var description: String { "\(path): \(message)" }
}
