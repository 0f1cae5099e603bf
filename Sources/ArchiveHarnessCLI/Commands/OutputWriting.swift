import ArchiveCoder
import ArchiveHarness
import ArchiveManifest
import Foundation
import _ArchiveHarnessSystem

/// Writes a report to a file or to standard output, by the one rule of `OutputDestination`.
enum OutputWriting {
  /// Writes `text` to `path`, or to the console when `path` is nil or `-`.
  static func write(_ text: String, to path: String?, console: Console) throws {
    try write(Array(text.utf8), to: path, console: console)
  }

  /// Throws the refusal a path would meet when written, without writing or creating anything.
  static func check(_ path: String?) throws {
    guard let path, path != "-" else { return }
    do throws(FileOutputError) {
      _ = try OutputDestination.resolve(path)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Writes bytes to `path`, or to the console when `path` is nil or `-`.
  static func write(_ bytes: [UInt8], to path: String?, console: Console) throws {
    guard let path, path != "-" else {
      console.output(String(decoding: bytes, as: UTF8.self))
      return
    }
    do throws(FileOutputError) {
      try SafeFileWriter.write(bytes, to: path)
    } catch {
      throw CommandFailure(error)
    }
  }
}
