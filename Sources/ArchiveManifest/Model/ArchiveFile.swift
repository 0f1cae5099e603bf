import Foundation

/// Reads archive files for the module.
package enum ArchiveFile {
  /// Returns a file's bytes, or nil when it cannot be read.
  package static func read(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
  }
}
