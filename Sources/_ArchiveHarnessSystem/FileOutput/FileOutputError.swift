#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error writing a file, naming the path and, for a refusal, what the path is.
///
/// Printed as `PATH: message`, for example
/// `out: is a folder; name a file, a device, a FIFO or '-' for standard output`.
package struct FileOutputError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem this is; new codes can be added without breaking clients.
  package struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as diagnostics print it.
    package let name: String

    init(_ name: String) {
      self.name = name
    }

    package var description: String { name }

    /// The path names a folder, which is never written over.
    package static let isDirectory = Code("is-a-folder")
    /// The path names something that is never written: a block device or a socket.
    package static let unsupportedKind = Code("unsupported-kind")
    /// Following symbolic links from the path never ends in a file.
    package static let symbolicLinkLoop = Code("symbolic-link-loop")
    /// The folder the file would go in does not exist or is not a folder.
    package static let missingFolder = Code("missing-folder")
    /// The path must not exist yet (a journal, a backup copy) but it does.
    package static let alreadyExists = Code("already-exists")
    /// What is at the path changed between looking at it and writing it.
    package static let changedKind = Code("changed-kind")
    /// A system call failed: open, write, fsync, rename or stat.
    package static let system = Code("system")
    /// A FIFO that no process opened for reading within the wait for a reader (10 seconds).
    package static let noReader = Code("no-reader")
  }

  /// The kind of problem.
  package let code: Code
  /// The path as the caller gave it, or the file a symbolic link led to.
  package let path: String
  /// A lowercase description, without the path.
  package let message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: The kind of problem.
  ///   - path: The path concerned.
  ///   - message: What went wrong, lowercase, without a period.
  package init(_ code: Code, path: String, _ message: String) {
    self.code = code
    self.path = path
    self.message = message
  }

  /// The error as `PATH: message`.
  package var description: String { "\(path): \(message)" }

  /// An error for a failed system call, with the C library's text for `errno`.
  static func system(_ path: String, _ action: String, _ number: Int32 = errno) -> FileOutputError {
    FileOutputError(.system, path: path, "cannot \(action): \(String(cString: strerror(number)))")
  }
}
