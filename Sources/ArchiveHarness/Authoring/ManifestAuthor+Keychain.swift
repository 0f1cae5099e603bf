import ArchiveFormat
import ArchiveManifest
import Foundation

extension ManifestAuthor {
  /// A Keychain snapshot to author a manifest for: the file, by its path relative to the
  /// archives folder, its checksum and its items.
  ///
  /// ```swift
  /// let snapshot = try ManifestAuthor.KeychainSnapshotInput(
  ///   path: "Keychain/app-v1.json", archivesDirectory: "LegacyArchives")
  /// let result = author.author([], keychainSnapshots: [snapshot], file: "manifest.xml")
  /// ```
  package struct KeychainSnapshotInput: Sendable {
    /// The snapshot's path relative to the archives folder, as `<keychainSnapshot>` writes it.
    package var path: String
    /// The SHA-256 of the file, in lowercase hexadecimal.
    package var sha256: String
    /// The items, in the file's order.
    package var items: [KeychainItem]

    /// Creates the input of a snapshot already read.
    package init(path: String, bytes: [UInt8], snapshot: KeychainSnapshot) {
      self.path = path
      self.sha256 = SHA256Checksum.hex(bytes)
      self.items = snapshot.items
    }

    /// Reads a snapshot as `KeychainSnapshotStore` reads it: a regular file, strictly.
    ///
    /// - Parameters:
    ///   - path: The snapshot's path relative to `archivesDirectory`.
    ///   - archivesDirectory: The archives folder.
    /// - Throws: `MigrationError` naming the file and the place of the first problem, such as
    ///   `Keychain/app-v1.json:items[1].accessible`.
    package init(path: String, archivesDirectory: String) throws(MigrationError) {
      let store = try KeychainSnapshotStore(path: ManifestAuthor.file(path, in: archivesDirectory))
      self.init(path: path, bytes: store.bytes, snapshot: store.snapshot)
    }

    /// One input for each item whose data is a property list, the items `verify` warns about
    /// while no `<archive keychainItem>` entry verifies them; one that is not a keyed archive
    /// is recorded as the rejection it is, as an archive file is.
    var archiveInputs: [Input] {
      items.filter { NestedArchive.looksLikePropertyList($0.data) }.map {
        Input(path: path, keychainItem: $0.keyPath.description, data: $0.data)
      }
    }

    /// The items whose data is not a property list, and so no archive: no entry is written
    /// for them.
    var otherItems: [KeychainItem] {
      items.filter { !NestedArchive.looksLikePropertyList($0.data) }
    }
  }

  /// Whether a path of `manifest author`'s inputs names a Keychain snapshot, as `migrate` and
  /// `diff` tell one (its first 4 KiB name the snapshot format).
  ///
  /// - Parameters:
  ///   - path: The path relative to `archivesDirectory`.
  ///   - archivesDirectory: The archives folder.
  /// - Returns: Whether the file looks like a snapshot.
  package static func isKeychainSnapshot(_ path: String, archivesDirectory: String) -> Bool {
    KeychainSnapshot.looksLikeSnapshot(atPath: file(path, in: archivesDirectory))
  }

  /// A path relative to the archives folder as a path to open, as `inputs(paths:archivesDirectory:)`
  /// makes it.
  static func file(_ path: String, in archivesDirectory: String) -> String {
    archivesDirectory.isEmpty ? path : "\(archivesDirectory)/\(path)"
  }

  /// Which Keychain snapshots the archives came from, for the provenance; empty without one.
  static func snapshotProvenance(_ snapshots: [KeychainSnapshotInput]) -> String {
    switch snapshots.count {
    case 0: ""
    case 1: " (Keychain items of \(snapshots[0].path) among them)"
    default: " (Keychain items of \(snapshots.count) snapshots among them)"
    }
  }

  /// The `<keychainSnapshot>` elements, each after a comment on the queries to declare and
  /// before a comment naming the items that get no entry.
  ///
  /// - Parameters:
  ///   - snapshots: The snapshots.
  ///   - indent: The elements' indentation.
  /// - Returns: The text, each line ended; empty without snapshots.
  func keychainSnapshotElements(_ snapshots: [KeychainSnapshotInput], indent: String) -> String {
    guard !snapshots.isEmpty else { return "" }
    var text = "\(indent)<!-- Declare the new version's Keychain queries here, as "
    text += "<keychainQuery> elements: verify runs them against each snapshot's items (and "
    text += "warns while there is none). Each item whose data is a property list has its "
    text += "<archive keychainItem> entry below; its strings are stated by their length and its "
    text += "data by its digest, never as they are, since an item holds secrets. -->\n"
    for snapshot in snapshots {
      text += "\(indent)<keychainSnapshot path=\"\(XMLText.escaped(snapshot.path))\" "
      text += "sha256=\"\(snapshot.sha256)\"/>\n"
      let others = snapshot.otherItems.map { $0.keyPath.description }
      if !others.isEmpty {
        text += "\(indent)<!-- \(commentSafe(snapshot.path)): no entry for "
        text += others.count == 1 ? "this item, whose data is" : "these items, whose data is"
        text += " not a property list, so no archive: "
        text += commentSafe(others.joined(separator: ", ")) + " -->\n"
      }
    }
    return text
  }
}
