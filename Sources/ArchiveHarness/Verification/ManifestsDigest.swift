import ArchiveFormat
import Foundation

/// The SHA-256 of a set of manifests, so that shard reports of different manifests are not merged.
///
/// Each manifest counts by its file name and the SHA-256 of its bytes, in file
/// name order, so the digest is the same on every machine whatever the
/// folder is called.
///
/// ```swift
/// let digest = ManifestsDigest.digest(ofFiles: Verifier.manifestFiles(in: "manifests"))
/// ```
package enum ManifestsDigest {
  /// The digest of some manifest files, in lowercase hexadecimal.
  ///
  /// - Parameter paths: The manifest files.
  /// - Returns: The SHA-256 over each file's name and SHA-256; a file that cannot be read
  ///   counts as empty.
  package static func digest(ofFiles paths: [String]) -> String {
    digest(
      ofChecksums: paths.map { path in
        let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
        return (path, SHA256Checksum.hex(bytes))
      })
  }

  /// The digest of manifest files whose bytes were checksummed already (hex SHA-256 each), as
  /// ``digest(ofFiles:)`` computes it.
  ///
  /// - Parameter files: Each file's path and the hex SHA-256 of its bytes.
  /// - Returns: The SHA-256 over each file's name and SHA-256, in lowercase hexadecimal.
  package static func digest(ofChecksums files: [(path: String, checksum: String)]) -> String {
    let named = files.map { file in
      (name: (file.path as NSString).lastPathComponent, path: file.path, checksum: file.checksum)
    }.sorted { ($0.name, $0.path) < ($1.name, $1.path) }
    var lines = ""
    for file in named {
      lines += file.name + "\u{0}" + file.checksum + "\n"
    }
    return SHA256Checksum.hex(Array(lines.utf8))
  }
}
