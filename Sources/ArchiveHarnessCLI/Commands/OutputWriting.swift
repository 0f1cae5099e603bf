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

  /// Throws unless `path` names nothing yet, in a folder that exists: a file that is always new.
  static func checkNew(_ path: String) throws {
    do throws(FileOutputError) {
      let kind = try OutputPathKind.of(path)
      guard kind == .missing else {
        throw FileOutputError(
          .alreadyExists, path: path,
          "already exists (\(kind.rawValue)); this file is always new, and nothing is replaced")
      }
      _ = try OutputDestination.resolve(path)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Writes text to a new file, created exclusively (nothing that exists is ever opened,
  /// replaced or followed), synced with its folder; a failed write leaves no file.
  static func writeNew(_ text: String, to path: String) throws {
    do throws(FileOutputError) {
      try AtomicFile.createNew(path, bytes: Array(text.utf8))
      try AtomicFile.syncDirectory(AtomicFile.directory(of: path))
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
