import Foundation

/// The archives a folder holds, and the ones a team keeps there on purpose without a manifest
/// entry: what `verify` and `swift test` call unlisted.
///
/// Every regular file below the folder is an archive, but hidden files and folders, `README*`
/// and `*.md`, `*.txt` and `*.tsv` notes. The ignore file, `.archive-harness-ignore` in the
/// manifests folder, names further archives, one path (relative to the archives folder) a
/// line; `#` starts a comment.
///
/// ```swift
/// let unlisted = ArchiveFolder.unlisted(
///   archives: "LegacyArchives", manifests: "manifests", listed: ["v1/note.archive"])
/// ```
package enum ArchiveFolder {
  /// The ignore file's name, in the manifests folder.
  package static let ignoreFileName = ".archive-harness-ignore"

  /// Every archive below the folder, by path relative to it, sorted.
  package static func archives(in folder: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
    var found: [String] = []
    while let path = enumerator.nextObject() as? String {
      let components = path.split(separator: "/")
      guard let name = components.last, !components.contains(where: { $0.hasPrefix(".") }),
        !name.hasPrefix("README"),
        !["md", "txt", "tsv"].contains((String(name) as NSString).pathExtension)
      else { continue }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      found.append(path)
    }
    return found.sorted()
  }

  /// The paths the manifests folder's ignore file names; empty when it has none.
  package static func ignored(manifests folder: String) -> Set<String> {
    guard let data = FileManager.default.contents(atPath: folder + "/" + ignoreFileName) else {
      return []
    }
    var paths: Set<String> = []
    for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
      let text = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        .trimmingCharacters(in: .whitespaces)
      if !text.isEmpty { paths.insert(text) }
    }
    return paths
  }

  /// The archives below `archives` that no manifest lists and the ignore file does not name;
  /// a listed folder (a pinned Core Data model) lists every file below it.
  package static func unlisted(archives: String, manifests: String, listed: Set<String>)
    -> [String]
  {
    let ignored = Self.ignored(manifests: manifests)
    return Self.archives(in: archives).filter { path in
      guard !listed.contains(path), !ignored.contains(path) else { return false }
      var folder = Substring(path)
      while let slash = folder.lastIndex(of: "/") {
        folder = folder[..<slash]
        if listed.contains(String(folder)) { return false }
      }
      return true
    }
  }
}
