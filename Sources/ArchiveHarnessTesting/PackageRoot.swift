import Foundation

/// The root folder of the package a test belongs to: the nearest folder holding `Package.swift`.
enum PackageRoot {
  /// Walks up from a source file to the nearest folder holding `Package.swift`.
  ///
  /// - Parameter filePath: A file inside the package, such as a test's `#filePath`.
  /// - Returns: The package's root folder, or nil when no folder above holds `Package.swift`.
  static func containing(_ filePath: String) -> URL? {
    var folder = URL(fileURLWithPath: filePath).standardizedFileURL.deletingLastPathComponent()
    while true {
      let manifest = folder.appendingPathComponent("Package.swift")
      if FileManager.default.fileExists(atPath: manifest.path) { return folder }
      let parent = folder.deletingLastPathComponent()
      guard parent.path != folder.path, !folder.path.isEmpty, folder.path != "/" else {
        return nil
      }
      folder = parent
    }
  }

  /// A path from a package's root, or the path itself when it is absolute.
  ///
  /// - Parameters:
  ///   - path: A relative or absolute path.
  ///   - root: The package's root folder.
  /// - Returns: The absolute URL.
  static func resolve(_ path: String, in root: URL) -> URL {
    path.hasPrefix("/")
      ? URL(fileURLWithPath: path).standardizedFileURL
      : root.appendingPathComponent(path).standardizedFileURL
  }
}
