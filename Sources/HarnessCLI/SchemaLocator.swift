import Foundation
import Manifest

/// Finds the manifest schema when `--schema` is not given, so commands work outside the repository root.
enum SchemaLocator {
  /// The schema to use: the `--schema` value, else the first `manifests/schema/archive-manifest.xsd`
  /// found in the current folder or above it, or in a manifest's folder or above it.
  static func resolve(_ explicit: String?, near files: [String]) -> String {
    if let explicit { return explicit }
    let manager = FileManager.default
    var starts = [manager.currentDirectoryPath]
    for file in files {
      let directory = (file as NSString).deletingLastPathComponent
      starts.append(directory.isEmpty ? "." : (directory as NSString).standardizingPath)
    }
    for start in starts {
      var directory = URL(fileURLWithPath: start).standardizedFileURL
      for _ in 0..<16 {
        for candidate in [ManifestSchema.relativePath, "schema/archive-manifest.xsd"] {
          let path = directory.appendingPathComponent(candidate).path
          if manager.fileExists(atPath: path) { return path }
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path == directory.path { break }
        directory = parent
      }
    }
    return ManifestSchema.relativePath
  }
}
