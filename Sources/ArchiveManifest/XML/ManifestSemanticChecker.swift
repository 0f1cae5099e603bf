import ArchiveFormat
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks what the XSD cannot: archive files, Keychain snapshots, pinned Core Data stores and
/// models, checksums, paths, duplicates (archives, Keychain items, pins and accepted keys) and
/// class names.
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
    let root = ManifestReference.realPath(archivesDirectory)
    if root == nil,
      !manifest.archives.isEmpty || !manifest.coreDataAttributes.isEmpty
        || !manifest.keychainSnapshots.isEmpty
    {
      error(
        at: manifest.location,
        "the archives folder '\(archivesDirectory)' does not exist")
    }
    checkArchives(root: root)
    checkCoreDataAttributes(root: root)
  }

  /// Each pinned store and model is a path inside the archives folder that exists, the store
  /// a file with the pinned checksum; an attribute of a store is pinned once.
  private mutating func checkCoreDataAttributes(root: String?) {
    var seen: [String: CoreDataAttributePin] = [:]
    for pin in manifest.coreDataAttributes {
      let storePlace = pin.location(ofAttribute: "store")
      let modelPlace = pin.location(ofAttribute: "model")
      let model = normalizedRelativePath(pin.model, noun: "model", at: modelPlace)
      guard let store = normalizedRelativePath(pin.store, noun: "store", at: storePlace) else {
        continue
      }
      let key = "\(store)\u{0}\(pin.entity)\u{0}\(pin.attribute)"
      if let first = seen[key] {
        error(
          at: pin.location,
          "Core Data attribute \(pin.qualifiedName) of store '\(pin.store)' is already pinned at "
            + "\(first.location)")
        continue
      }
      seen[key] = pin
      guard let root else { continue }
      checkFile(
        pin.store, relativePath: store, noun: "store", root: root, at: storePlace,
        sha256: (pin.storeSHA256, pin.location(ofAttribute: "storeSHA256")),
        changed: "the store the pin is checked against changed; pin the new one")
      if let model {
        checkFile(pin.model, relativePath: model, noun: "model", root: root, at: modelPlace)
      }
    }
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

  private mutating func checkArchives(root: String?) {
    let snapshots = checkKeychainSnapshots(root: root)
    var seen: [String: ArchiveEntry] = [:]
    for entry in manifest.archives {
      var keys: Set<String> = []
      for key in entry.decodeKeys where !keys.insert(key).inserted {
        error(at: entry.location, "decodeKeys names '\(key)' more than once")
      }
      guard
        let normalized = normalizedRelativePath(entry.path, noun: "archive", at: entry.pathLocation)
      else { continue }
      // An entry of a Keychain item is one item of a declared snapshot, whose file the
      // snapshot's own check reads; the item and its data's checksum are checked by verify.
      let key = entry.keychainItem.map { "\(normalized)\u{0}\($0)" } ?? normalized
      if let first = seen[key] {
        error(
          at: entry.pathLocation,
          entry.keychainItem.map {
            "Keychain item '\($0)' of '\(entry.path)' is already listed at \(first.location)"
          } ?? "archive '\(entry.path)' is already listed at \(first.location)")
        continue
      }
      seen[key] = entry
      if let item = entry.keychainItem {
        if !snapshots.contains(normalized) {
          error(
            at: entry.keychainItemLocation,
            "archive '\(entry.path)' names Keychain item '\(item)', but '\(entry.path)' is no "
              + "<keychainSnapshot> of the manifest; declare it with its sha256")
        }
        continue
      }
      if let root {
        checkFile(
          entry.path, relativePath: normalized, noun: "archive", root: root,
          at: entry.pathLocation, sha256: (entry.sha256, entry.sha256Location),
          changed: "a fixture changed")
      }
    }
  }

  /// Checks each Keychain snapshot's path, file and checksum as an archive file's; returns the
  /// normalized paths of those declared.
  private mutating func checkKeychainSnapshots(root: String?) -> Set<String> {
    var seen: [String: KeychainSnapshotReference] = [:]
    for snapshot in manifest.keychainSnapshots {
      guard
        let normalized = normalizedRelativePath(
          snapshot.path, noun: "Keychain snapshot", at: snapshot.pathLocation)
      else { continue }
      if let first = seen[normalized] {
        error(
          at: snapshot.pathLocation,
          "Keychain snapshot '\(snapshot.path)' is already listed at \(first.location)")
        continue
      }
      seen[normalized] = snapshot
      if let root {
        checkFile(
          snapshot.path, relativePath: normalized, noun: "Keychain snapshot", root: root,
          at: snapshot.pathLocation, sha256: (snapshot.sha256, snapshot.sha256Location),
          changed: "a fixture changed")
      }
    }
    return Set(seen.keys)
  }

  /// Returns a path without `.` components, or nil (with an error) when it may escape.
  ///
  /// - Parameters:
  ///   - path: The path as written, relative to the archives folder.
  ///   - noun: What it names in messages: `archive`, `store`, `model`.
  ///   - location: Where it was written.
  /// - Returns: The path relative to the archives folder, or nil when it is refused.
  private mutating func normalizedRelativePath(_ path: String, noun: String, at location: Place)
    -> String?
  {
    if path.hasPrefix("/") || path.hasPrefix("~") {
      error(
        at: location,
        "\(noun) path '\(path)' is absolute; write it relative to the archives folder")
      return nil
    }
    let components = path.split(separator: "/", omittingEmptySubsequences: true)
    if components.contains("..") {
      error(
        at: location,
        "\(noun) path '\(path)' uses '..'; paths must stay inside the archives folder")
      return nil
    }
    let kept = components.filter { $0 != "." }
    if kept.isEmpty {
      error(at: location, "\(noun) path '\(path)' names no file")
      return nil
    }
    return kept.joined(separator: "/")
  }

  /// Checks that a path inside the archives folder exists, stays inside it, and, given a
  /// checksum, is a file with that SHA-256; without one, a folder is accepted too (a model).
  private mutating func checkFile(
    _ given: String, relativePath: String, noun: String, root: String, at location: Place,
    sha256: (expected: String, location: Place)? = nil, changed: String = ""
  ) {
    let path = "\(archivesDirectory)/\(relativePath)"
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      error(
        at: location,
        "\(noun) '\(given)' does not exist in '\(archivesDirectory)' (tried '\(path)'; "
          + "\(noun) paths are relative to the archives folder, which --archives sets)")
      return
    }
    guard let resolved = ManifestReference.realPath(path),
      resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    else {
      error(
        at: location,
        "\(noun) '\(given)' resolves outside the archives folder (through a symbolic link)")
      return
    }
    guard let sha256 else { return }
    if isDirectory.boolValue {
      error(at: location, "\(noun) '\(given)' is a folder, not a file")
      return
    }
    guard let data = FileManager.default.contents(atPath: resolved) else {
      error(at: location, "\(noun) '\(given)' cannot be read")
      return
    }
    let actual = SHA256Checksum.hash(data).hexadecimal
    if actual != sha256.expected {
      error(
        at: sha256.location,
        "\(noun) '\(given)' has sha256 \(actual), but the manifest expects \(sha256.expected); "
          + changed)
    }
  }

  private mutating func error(at location: Place, _ message: String) {
    diagnostics.append(ManifestDiagnostic(.error, .semantic, at: location, message))
  }

  private mutating func warning(at location: Place, _ message: String) {
    diagnostics.append(ManifestDiagnostic(.warning, .semantic, at: location, message))
  }
}
