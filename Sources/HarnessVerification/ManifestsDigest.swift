import Foundation
import HarnessChecksum

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
    let named = paths.map { path in
      (name: (path as NSString).lastPathComponent, path: path)
    }.sorted { ($0.name, $0.path) < ($1.name, $1.path) }
    var lines = ""
    for file in named {
      let bytes = FileManager.default.contents(atPath: file.path).map { [UInt8]($0) } ?? []
      lines += file.name + "\u{0}" + SHA256Checksum.hex(bytes) + "\n"
    }
    return SHA256Checksum.hex(Array(lines.utf8))
  }
}
