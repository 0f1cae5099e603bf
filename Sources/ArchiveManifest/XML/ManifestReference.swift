import ArchiveFormat
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A manifest's reference to another file (`classMapFile href`), confined to the manifests root.
///
/// The rule is the one archive paths follow: relative to the manifest's
/// folder, with no `..` component, not absolute (`/…`, `~…`), and, once every
/// symbolic link is resolved, inside the manifests root. A manifest can thus
/// never make the harness read a file elsewhere on the machine. A reference
/// that breaks the rule is a semantic error at the `href` attribute.
package struct ManifestReference {
  /// The folder relative paths start from: the manifest's own.
  package let baseDirectory: String
  /// The folder every reference must stay inside (`verify --manifests`, or the manifest's folder).
  package let root: String

  /// Creates a resolver for one manifest's references.
  package init(baseDirectory: String, root: String) {
    self.baseDirectory = baseDirectory
    self.root = root
  }

  /// A resolved reference: the file to read, or the diagnostic that refuses it.
  package enum Resolution {
    /// The canonical, link-free path of the file, inside the root.
    case file(String)
    /// The reference breaks the rule, or names nothing readable.
    case refused(ManifestDiagnostic)
  }

  /// Resolves `href` to a readable path, or gives the diagnostic that refuses it.
  ///
  /// - Parameters:
  ///   - href: The reference as written.
  ///   - location: Where it was written, for the diagnostic.
  /// - Returns: The path to read, or an error diagnostic at `location`.
  package func resolve(_ href: String, at location: Place) -> Resolution {
    func refuse(_ message: String) -> Resolution {
      .refused(ManifestDiagnostic(.error, .semantic, at: location, message))
    }
    if href.hasPrefix("/") || href.hasPrefix("~") {
      return refuse(
        "class map file '\(href)' is absolute; write it relative to the manifest's folder")
    }
    let components = href.split(separator: "/", omittingEmptySubsequences: true)
    if components.contains("..") {
      return refuse(
        "class map file '\(href)' uses '..'; references must stay inside the manifests folder")
    }
    let kept = components.filter { $0 != "." }
    guard !kept.isEmpty else { return refuse("class map file '\(href)' names no file") }
    let path = baseDirectory + "/" + kept.joined(separator: "/")
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return refuse("class map file '\(href)' does not exist (looked for '\(path)')")
    }
    guard let resolvedRoot = Self.realPath(root), let resolved = Self.realPath(path),
      resolved.hasPrefix(resolvedRoot == "/" ? "/" : resolvedRoot + "/")
    else {
      return refuse(
        "class map file '\(href)' resolves outside the manifests folder '\(root)' "
          + "(through a symbolic link)")
    }
    if isDirectory.boolValue {
      return refuse("class map file '\(href)' is a folder, not a file")
    }
    return .file(resolved)
  }

  /// The canonical absolute path with every symbolic link resolved, or nil.
  package static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
