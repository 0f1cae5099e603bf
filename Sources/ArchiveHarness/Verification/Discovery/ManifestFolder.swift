import Foundation

/// Finds the `manifests/` folder that `verify` reads when no folder is named.
///
/// It is the current folder's `manifests/`, or the nearest one in a folder
/// above, so `verify` works from anywhere inside a repository. The archives
/// default to `LegacyArchives/` beside it.
///
/// ```swift
/// let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
/// let location = try ManifestFolder.locate(from: here)
/// print(location.manifests, location.archives)  // ../manifests ../LegacyArchives
/// ```
package enum ManifestFolder {
  /// The manifests folder's name.
  package static let manifestsFolder = "manifests"
  /// The archives folder's name, beside the manifests folder.
  package static let archivesFolder = "LegacyArchives"

  /// Where the manifests and archives are, as paths relative to the folder the search started from.
  package struct Location: Equatable, Sendable {
    /// The path of `manifests/`, such as `manifests` or `../../manifests`.
    package var manifests: String
    /// The path of `LegacyArchives/` beside it.
    package var archives: String

    /// A location of both folders.
    package init(manifests: String, archives: String) {
      self.manifests = manifests
      self.archives = archives
    }

    /// The location of a manifests folder given by path, with the archives beside it.
    package init(manifests: String) {
      let parent = (manifests as NSString).deletingLastPathComponent
      self.manifests = manifests
      archives = parent.isEmpty ? ManifestFolder.archivesFolder : parent + "/" + archivesFolder
    }
  }

  /// No `manifests/` folder was found: every folder looked in, nearest first.
  package struct NotFound: Error, Sendable, CustomStringConvertible {
    /// The folders looked in.
    package var searched: [String]

    /// `no manifests folder here or above; looked in …`.
    package var description: String {
      "no \(manifestsFolder) folder here or above; looked in "
        + searched.joined(separator: ", ")
    }
  }

  /// Looks for `manifests/` in `start` and in every folder above it, nearest first.
  ///
  /// - Parameter start: The folder to start from, normally the current folder.
  /// - Returns: The nearest folder holding `manifests/`, with relative paths to it.
  /// - Throws: `NotFound` naming every folder it looked in.
  package static func locate(from start: URL) throws(NotFound) -> Location {
    var directory = start.standardizedFileURL
    var tried: [String] = []
    var prefix = ""
    while true {
      let candidate = directory.appendingPathComponent(manifestsFolder)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
        isDirectory.boolValue
      {
        return Location(manifests: prefix + manifestsFolder, archives: prefix + archivesFolder)
      }
      tried.append(directory.path)
      let parent = directory.deletingLastPathComponent().standardizedFileURL
      if parent.path == directory.path { break }
      directory = parent
      prefix += "../"
    }
    throw NotFound(searched: tried)
  }
}
