import ArchiveFormat
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks what the XSD cannot: archive files, checksums, paths, duplicates (archives and
/// accepted keys) and class names.
package struct ManifestSemanticChecker {
  let manifest: Manifest
  let archivesDirectory: String
  let registeredClasses: Set<String>
  private(set) var diagnostics: [ManifestDiagnostic] = []

  init(manifest: Manifest, archivesDirectory: String, registeredClasses: Set<String>) {
    self.manifest = manifest
    self.archivesDirectory = archivesDirectory
    self.registeredClasses = registeredClasses
  }

  mutating func run() {
    checkClassMappings()
    checkClassNames()
    checkClassExpectations()
    checkAcceptedRefusals()
    checkArchives()
  }

  /// An accepted key is listed once: a second one would say two things of one record.
  private mutating func checkAcceptedRefusals() {
    var seen: [String: Manifest.AcceptedRefusal] = [:]
    for accepted in manifest.acceptedRefusals {
      if let first = seen[accepted.key] {
        error(
          at: accepted.keyLocation,
          "accepted refusal of key '\(accepted.key)' is already listed at \(first.location)")
      } else {
        seen[accepted.key] = accepted
      }
    }
  }

  private mutating func checkClassMappings() {
    var seen: [String: Manifest.ClassMapping] = [:]
    for mapping in manifest.classMappings {
      if let first = seen[mapping.archivedName] {
        if first.currentName != mapping.currentName {
          error(
            at: mapping.location,
            "class '\(mapping.archivedName)' is mapped to '\(mapping.currentName)' here and to "
              + "'\(first.currentName)' at \(first.location)")
        } else {
          warning(
            at: mapping.location,
            "class '\(mapping.archivedName)' is already mapped at \(first.location)")
        }
      } else {
        seen[mapping.archivedName] = mapping
      }
    }
  }

  /// Reports each `class` expectation that names an archived class the class map renames:
  /// verification checks it against the decoded object too, which has the current name, so it
  /// can never hold there.
  private mutating func checkClassExpectations() {
    var renamed: [String: String] = [:]
    for mapping in manifest.classMappings
    where mapping.archivedName != mapping.currentName && renamed[mapping.archivedName] == nil {
      renamed[mapping.archivedName] = mapping.currentName
    }
    guard !renamed.isEmpty else { return }
    for entry in manifest.archives {
      for expectation in entry.expectations {
        guard case .className(let name) = expectation.kind, let current = renamed[name] else {
          continue
        }
        error(
          at: expectation.location,
          "class expectation '\(name)' at '\(expectation.keyPathText)' names an archived class "
            + "that the class map renames to '\(current)'; the decoded object is a '\(current)', "
            + "so name that")
      }
    }
  }

  /// Whether the executable registers model classes, beyond Foundation's: then every class the
  /// manifest names, map targets included, must be registered.
  private var knowsModelClasses: Bool {
    !registeredClasses.isSubset(of: ManifestLoader.foundationClassNames)
  }

  private mutating func checkClassNames() {
    if knowsModelClasses {
      checkRegistration()
      return
    }
    let known = registeredClasses.union(manifest.classMappings.map(\.currentName))
    for (reference, role) in classReferences() where !known.contains(reference.name) {
      error(
        at: reference.location,
        "\(role) '\(reference.name)' is neither a registered class nor the target of a class "
          + "mapping")
    }
  }

  /// Every class the manifest names outside its class map, with the role it has there.
  private func classReferences() -> [(Manifest.ClassReference, String)] {
    var references: [(Manifest.ClassReference, String)] = []
    references += (manifest.allowedClasses ?? []).map { ($0, "allowed class") }
    references += manifest.rootClass.map { [($0, "root class")] } ?? []
    for entry in manifest.archives {
      references += (entry.allowedClasses ?? []).map { ($0, "allowed class") }
      references += entry.rootClass.map { [($0, "root class")] } ?? []
    }
    for renamed in manifest.migration.renamedClasses {
      references.append(
        (
          Manifest.ClassReference(name: renamed.currentName, location: renamed.location),
          "renamed class"
        ))
    }
    for added in manifest.migration.addedFields {
      references.append(
        (
          Manifest.ClassReference(name: added.className, location: added.location),
          "class with an added field"
        ))
    }
    return references
  }

  /// Reports every class named as a map target, allowed class, root class or migration
  /// result that the executable does not register, at the place it is written.
  private mutating func checkRegistration() {
    for mapping in manifest.classMappings where !registeredClasses.contains(mapping.currentName) {
      error(
        at: mapping.location,
        "class map target '\(mapping.currentName)' (for '\(mapping.archivedName)') is not a "
          + "registered class")
    }
    let targets = Set(manifest.classMappings.map(\.currentName))
    for (reference, role) in classReferences() where !registeredClasses.contains(reference.name) {
      error(
        at: reference.location,
        targets.contains(reference.name)
          ? "\(role) '\(reference.name)' is the target of a class mapping but not a registered "
            + "class"
          : "\(role) '\(reference.name)' is neither a registered class nor the target of a class "
            + "mapping")
    }
  }

  private mutating func checkArchives() {
    let root = ManifestReference.realPath(archivesDirectory)
    if root == nil, !manifest.archives.isEmpty {
      error(
        at: manifest.location,
        "the archives folder '\(archivesDirectory)' does not exist")
    }
    var seen: [String: ArchiveEntry] = [:]
    for entry in manifest.archives {
      var keys: Set<String> = []
      for key in entry.decodeKeys where !keys.insert(key).inserted {
        error(at: entry.location, "decodeKeys names '\(key)' more than once")
      }
      guard let normalized = normalizedRelativePath(entry) else { continue }
      if let first = seen[normalized] {
        error(
          at: entry.pathLocation,
          "archive '\(entry.path)' is already listed at \(first.location)")
        continue
      }
      seen[normalized] = entry
      if let root { checkFile(entry, relativePath: normalized, root: root) }
    }
  }

  /// Returns the entry's path without `.` components, or nil (with an error) when it may escape.
  private mutating func normalizedRelativePath(_ entry: ArchiveEntry) -> String? {
    if entry.path.hasPrefix("/") || entry.path.hasPrefix("~") {
      error(
        at: entry.pathLocation,
        "archive path '\(entry.path)' is absolute; write it relative to the archives folder")
      return nil
    }
    let components = entry.path.split(separator: "/", omittingEmptySubsequences: true)
    if components.contains("..") {
      error(
        at: entry.pathLocation,
        "archive path '\(entry.path)' uses '..'; paths must stay inside the archives folder")
      return nil
    }
    let kept = components.filter { $0 != "." }
    if kept.isEmpty {
      error(at: entry.pathLocation, "archive path '\(entry.path)' names no file")
      return nil
    }
    return kept.joined(separator: "/")
  }

  private mutating func checkFile(_ entry: ArchiveEntry, relativePath: String, root: String) {
    let path = "\(archivesDirectory)/\(relativePath)"
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      error(
        at: entry.pathLocation,
        "archive '\(entry.path)' does not exist in '\(archivesDirectory)' (tried '\(path)'; "
          + "archive paths are relative to the archives folder, which --archives sets)")
      return
    }
    guard let resolved = ManifestReference.realPath(path),
      resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    else {
      error(
        at: entry.pathLocation,
        "archive '\(entry.path)' resolves outside the archives folder (through a symbolic link)")
      return
    }
    if isDirectory.boolValue {
      error(at: entry.pathLocation, "archive '\(entry.path)' is a folder, not a file")
      return
    }
    guard let data = FileManager.default.contents(atPath: resolved) else {
      error(at: entry.pathLocation, "archive '\(entry.path)' cannot be read")
      return
    }
    let actual = SHA256Checksum.hash(data).hexadecimal
    if actual != entry.sha256 {
      error(
        at: entry.sha256Location,
        "archive '\(entry.path)' has sha256 \(actual), but the manifest expects \(entry.sha256); "
          + "a fixture changed")
    }
  }

  private mutating func error(at location: Place, _ message: String) {
    diagnostics.append(ManifestDiagnostic(.error, .semantic, at: location, message))
  }

  private mutating func warning(at location: Place, _ message: String) {
    diagnostics.append(ManifestDiagnostic(.warning, .semantic, at: location, message))
  }
}
