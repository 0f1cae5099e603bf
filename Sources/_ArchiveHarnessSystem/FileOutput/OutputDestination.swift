#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the project writes a file at a path: the one rule every output follows.
///
/// - A regular file, or a path where nothing exists yet, is replaced
///   atomically: a temporary file in the same folder, `fsync`, `rename` over
///   the path, `fsync` of the folder. A reader sees the old file or the new
///   one, never a part; a crash leaves the old file.
/// - A character device (such as `/dev/null`), a FIFO, or `-` (standard
///   output) is written through in place: opened for writing, never created,
///   truncated, renamed over or removed.
/// - A symbolic link is followed, and what it leads to is written by these
///   same rules: the link stays a link, and a regular file it names is
///   replaced atomically in that file's own folder.
/// - A folder is refused with an error that names it; so are block devices
///   and sockets.
///
/// ```swift
/// let destination = try OutputDestination.resolve("report.json")
/// // destination.method == .atomicReplacement
/// ```
///
/// ## Topics
package struct OutputDestination: Sendable, Hashable {
  /// How the bytes reach the path.
  package enum Method: String, Sendable, Hashable {
    /// Standard output, the process's descriptor 1.
    case standardOutput = "standard output"
    /// A temporary file in the same folder, synced and renamed over `OutputDestination.path`.
    case atomicReplacement = "atomic replacement"
    /// Opened for writing where it is: a character device or a FIFO.
    case inPlace = "in place"
  }

  /// The path as the caller gave it.
  package let requestedPath: String
  /// The path written: the end of any symbolic links for an atomic replacement, else ``requestedPath``.
  package let path: String
  /// What was at ``path`` when it was resolved (`OutputPathKind.missing` for a new file).
  package let kind: OutputPathKind
  /// How it is written.
  package let method: Method

  /// The most symbolic links followed from one path, as Linux's `MAXSYMLINKS`.
  package static let maximumLinkCount = 40

  /// Decides how a path is written, following symbolic links; nothing is written or created.
  ///
  /// - Parameter requestedPath: The path; `-` is standard output.
  /// - Returns: The destination: the path to write and the method.
  /// - Throws: `FileOutputError` for a folder, a block device, a socket, a
  ///   link loop, a missing parent folder, or a failed `lstat`.
  package static func resolve(_ requestedPath: String) throws(FileOutputError) -> OutputDestination
  {
    guard !requestedPath.isEmpty else {
      throw FileOutputError(.missingFolder, path: requestedPath, "the path is empty")
    }
    var current = requestedPath
    for _ in 0...maximumLinkCount {
      let kind = try OutputPathKind.of(current)
      switch kind {
      case .standardOutput:
        return OutputDestination(
          requestedPath: requestedPath, path: current, kind: kind, method: .standardOutput)
      case .missing, .regularFile:
        try checkFolder(of: current, requestedPath: requestedPath)
        return OutputDestination(
          requestedPath: requestedPath, path: current, kind: kind, method: .atomicReplacement)
      case .characterDevice, .fifo:
        return OutputDestination(
          requestedPath: requestedPath, path: current, kind: kind, method: .inPlace)
      case .directory, .blockDevice, .socket:
        throw refusal(kind, at: current, requestedPath: requestedPath)
      case .symbolicLink:
        // Ask the kernel first: a link such as /proc/self/fd/1 leads to a pipe
        // that has no path, but it opens; what it leads to decides the rule.
        var status = stat()
        if stat(current, &status) == 0 {
          let target = OutputPathKind.kind(ofMode: status.st_mode)
          switch target {
          case .characterDevice, .fifo:
            return OutputDestination(
              requestedPath: requestedPath, path: current, kind: target, method: .inPlace)
          case .directory, .blockDevice, .socket:
            throw refusal(target, at: resolvedName(current), requestedPath: requestedPath)
          default:
            break
          }
        } else if errno == ELOOP {
          throw loop(requestedPath)
        }
        current = try linkTarget(current)
      }
    }
    throw loop(requestedPath)
  }

  /// The path a symbolic link names, joined to the link's folder when relative.
  private static func linkTarget(_ link: String) throws(FileOutputError) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(link, &buffer, buffer.count - 1)
    guard count >= 0 else { throw FileOutputError.system(link, "read the symbolic link") }
    let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if target.hasPrefix("/") { return target }
    return AtomicFile.directory(of: link) + "/" + target
  }

  /// The absolute, link-free name of an existing path, for messages.
  private static func resolvedName(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path + " (followed)" }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  private static func checkFolder(of path: String, requestedPath: String) throws(FileOutputError) {
    let folder = AtomicFile.directory(of: path)
    var status = stat()
    guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw FileOutputError(
        .missingFolder, path: requestedPath,
        "the folder '\(folder)' does not exist; create it first")
    }
  }

  private static func refusal(_ kind: OutputPathKind, at path: String, requestedPath: String)
    -> FileOutputError
  {
    let what =
      path == requestedPath ? "is \(kind.rawValue)" : "leads to \(kind.rawValue), '\(path)'"
    if kind == .directory {
      return FileOutputError(
        .isDirectory, path: requestedPath,
        "\(what); name a file in it, a device, a FIFO or '-' for standard output")
    }
    return FileOutputError(
      .unsupportedKind, path: requestedPath,
      "\(what), which is never written; name a file, a character device, a FIFO or '-'")
  }

  private static func loop(_ requestedPath: String) -> FileOutputError {
    FileOutputError(
      .symbolicLinkLoop, path: requestedPath,
      "following its symbolic links never reaches a file (a loop, or more than \(maximumLinkCount))"
    )
  }
}
