import ArchiveFormat

/// A Keychain snapshot a manifest declares (`<keychainSnapshot path="…" sha256="…"/>`): the file
/// `verify` runs the manifest's Keychain queries against, and that `keychainItem` entries read
/// their archives from.
///
/// ```swift
/// for snapshot in manifest.keychainSnapshots {
///   print("\(snapshot.path) (\(snapshot.sha256)) at \(snapshot.location)")
/// }
/// ```
package struct KeychainSnapshotReference: Sendable, Hashable {
  /// The path relative to the archives folder, as written.
  package var path: String
  /// The expected SHA-256 of the file, in lowercase hexadecimal.
  package var sha256: String
  /// Where the element starts.
  package var location: Place
  /// Where the `path` attribute was written.
  package var pathLocation: Place
  /// Where the `sha256` attribute was written.
  package var sha256Location: Place

  /// Creates a reference, as the manifest loader reads it.
  package init(
    path: String, sha256: String, location: Place, pathLocation: Place? = nil,
    sha256Location: Place? = nil
  ) {
    self.path = path
    self.sha256 = sha256
    self.location = location
    self.pathLocation = pathLocation ?? location
    self.sha256Location = sha256Location ?? location
  }
}
