import _ArchiveHarnessSystem

/// Reads input files for commands, turning every failure into a diagnostic that names the file.
enum FileReading {
  /// Reads a whole file by FileInput's rule for command inputs, refusing one larger than
  /// `limit` bytes before reading it.
  static func bytes(at path: String, limit: Int) throws -> [UInt8] {
    do throws(FileInputError) {
      return try FileInput.readInput(path, limit: limit)
    } catch {
      switch error.reason {
      case .notFound:
        throw CommandFailure(file: path, category: .unreadable, message: "no such file")
      case .notAFile:
        throw CommandFailure(
          file: path, category: .unreadable, message: "is a directory, not a file")
      case .tooLarge:
        throw CommandFailure(file: path, category: .limitExceeded, message: error.message)
      case .symbolicLink, .changedWhileRead, .unreadable:
        throw CommandFailure(file: path, category: .unreadable, message: "cannot read the file")
      }
    }
  }
}
