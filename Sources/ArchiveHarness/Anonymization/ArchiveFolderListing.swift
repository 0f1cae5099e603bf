import Foundation

/// The files of a folder of archives, as anonymize and the privacy scan walk it: every regular
/// file and link, hidden names aside, links never followed.
///
/// ```swift
/// let listing = ArchiveFolderListing.listing(of: "LegacyArchives")
/// for path in listing.files { print(path) }  // ProfilesApp-1.0/memo-valid.archive, …
/// ```
package enum ArchiveFolderListing {
  /// A folder's regular files and symbolic links, by path relative to it.
  package struct Listing: Sendable, Hashable {
    /// The regular files, sorted.
    package var files: [String] = []
    /// The symbolic links, sorted; never followed.
    package var links: [String] = []
  }

  /// Lists the regular files below a folder, skipping hidden names (`.git`, `.DS_Store`) and not following links.
  package static func listing(of folder: String) -> Listing {
    let root = URL(fileURLWithPath: folder).standardizedFileURL
    let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey]
    guard
      let enumerator = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    else { return Listing() }
    var listing = Listing()
    for case let url as URL in enumerator {
      let path = url.standardizedFileURL.path
      guard path.hasPrefix(root.path + "/") else { continue }
      let relative = String(path.dropFirst(root.path.count + 1))
      let values = try? url.resourceValues(forKeys: Set(keys))
      if values?.isSymbolicLink == true {
        listing.links.append(relative)
      } else if values?.isRegularFile == true {
        listing.files.append(relative)
      }
    }
    listing.files.sort()
    listing.links.sort()
    return listing
  }
}
