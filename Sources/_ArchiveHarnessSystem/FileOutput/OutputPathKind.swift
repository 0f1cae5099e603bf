#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a path names, as `lstat(2)` sees it: the link itself, never what it leads to.
///
/// `OutputDestination.resolve(_:)` decides from this how a path is written.
package enum OutputPathKind: String, Sendable, Hashable, CaseIterable {
  /// `-`: the process's standard output.
  case standardOutput = "standard output"
  /// Nothing exists at the path yet.
  case missing = "a new file"
  /// A regular file.
  case regularFile = "a regular file"
  /// A character device, such as `/dev/null` or a terminal.
  case characterDevice = "a character device"
  /// A named pipe.
  case fifo = "a FIFO"
  /// A symbolic link.
  case symbolicLink = "a symbolic link"
  /// A folder.
  case directory = "a folder"
  /// A block device, such as a disk.
  case blockDevice = "a block device"
  /// A Unix-domain socket.
  case socket = "a socket"

  /// Looks at what a path names without following a final symbolic link.
  ///
  /// - Parameter path: The path; `-` is standard output.
  /// - Returns: The kind of the entry at the path.
  /// - Throws: `FileOutputError` when `lstat` fails for another reason than a missing entry.
  package static func of(_ path: String) throws(FileOutputError) -> OutputPathKind {
    if path == "-" { return .standardOutput }
    var status = stat()
    guard lstat(path, &status) == 0 else {
      if errno == ENOENT { return .missing }
      throw FileOutputError.system(path, "look at the path")
    }
    return kind(ofMode: status.st_mode)
  }

  /// The kind a `st_mode` value describes.
  static func kind(ofMode mode: mode_t) -> OutputPathKind {
    switch mode & S_IFMT {
    case S_IFREG: .regularFile
    case S_IFCHR: .characterDevice
    case S_IFIFO: .fifo
    case S_IFLNK: .symbolicLink
    case S_IFDIR: .directory
    case S_IFBLK: .blockDevice
    default: .socket
    }
  }
}
