import ArchiveHarness
import Foundation

extension ManifestFolder {
  /// ``locate(from:)`` for a command: no folder found is a failure that says to give `--manifests`.
  ///
  /// - Parameter start: The folder to start from, normally the current folder.
  /// - Returns: The nearest folder holding `manifests/`, with relative paths to it.
  /// - Throws: `CommandFailure` naming every folder it looked in.
  static func locateForCommand(from start: URL) throws -> Location {
    do throws(NotFound) {
      return try locate(from: start)
    } catch {
      throw CommandFailure(
        file: manifestsFolder, category: .unreadable,
        message: "\(error.description) (give --manifests DIR)")
    }
  }
}
