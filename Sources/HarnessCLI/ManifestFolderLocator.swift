import Foundation

/// Finds the `manifests/` folder that `verify` reads when `--manifests` is not given.
///
/// It is the current folder's `manifests/`, or the nearest one in a folder
/// above, so `verify` works from anywhere inside a repository. The archives
/// default to `LegacyArchives/` beside it.
enum ManifestFolderLocator {
  /// The manifests folder's name.
  static let manifestsFolder = "manifests"
  /// The archives folder's name, beside the manifests folder.
  static let archivesFolder = "LegacyArchives"

  /// Where the manifests and archives are, as paths relative to the folder the search started from.
  struct Location: Equatable, Sendable {
    /// The path of `manifests/`, such as `manifests` or `../../manifests`.
    var manifests: String
    /// The path of `LegacyArchives/` beside it.
    var archives: String
  }

  /// Looks for `manifests/` in `start` and in every folder above it, nearest first.
  ///
  /// - Parameter start: The folder to start from, normally the current folder.
  /// - Returns: The nearest folder holding `manifests/`, with relative paths to it.
  /// - Throws: ``CommandFailure`` naming every folder it looked in.
  static func locate(from start: URL) throws -> Location {
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
    throw CommandFailure(
      place: manifestsFolder, category: .unreadable,
      message:
        "no \(manifestsFolder) folder here or above; looked in \(tried.joined(separator: ", ")) (give --manifests DIR)"
    )
  }
}

extension ManifestFolderLocator.Location {
  /// The location of a manifests folder given by path, with the archives beside it.
  init(manifests: String) {
    let parent = (manifests as NSString).deletingLastPathComponent
    self.manifests = manifests
    archives =
      parent.isEmpty
      ? ManifestFolderLocator.archivesFolder
      : parent + "/" + ManifestFolderLocator.archivesFolder
  }
}
