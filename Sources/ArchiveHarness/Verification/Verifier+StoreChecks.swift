import ArchiveFormat
import ArchiveManifest

extension Verifier {
  /// A store a manifest declares a check of, verified as one case of its own after the
  /// manifest's archive entries.
  package enum StoreCheck: Sendable {
    /// A Keychain snapshot (`<keychainSnapshot>`) against the manifest's `<keychainQuery>`s.
    case keychainSnapshot(KeychainSnapshotReference)
    /// A `<coreDataAttribute>` pin: its transformer and rows, read from its store and model.
    case coreDataAttribute(CoreDataAttributePin)

    /// The case's archive column and the shard key: the store's path as written.
    package var path: String {
      switch self {
      case .keychainSnapshot(let snapshot): snapshot.path
      case .coreDataAttribute(let pin): "\(pin.store)#\(pin.qualifiedName)"
      }
    }

    /// Where the manifest declares the check.
    package var location: Place {
      switch self {
      case .keychainSnapshot(let snapshot): snapshot.location
      case .coreDataAttribute(let pin): pin.location
      }
    }
  }

  /// The store checks a manifest declares, in document order.
  ///
  /// ```swift
  /// for check in Verifier.storeChecks(of: manifest) { print(check.path, check.location) }
  /// ```
  package static func storeChecks(of manifest: Manifest) -> [StoreCheck] {
    manifest.coreDataAttributes.map(StoreCheck.coreDataAttribute)
      + manifest.keychainSnapshots.map(StoreCheck.keychainSnapshot)
  }

  /// Runs one store check; its findings are the case's ``VerificationCase/storeFindings``.
  ///
  /// - Parameters:
  ///   - check: The check.
  ///   - manifest: The manifest that declares it.
  ///   - archivesDirectory: The folder the check's paths are relative to.
  /// - Returns: The case, with no decode paths.
  package func verify(_ check: StoreCheck, of manifest: Manifest, archivesDirectory: String)
    -> VerificationCase
  {
    switch check {
    case .keychainSnapshot(let snapshot):
      verifyKeychainSnapshot(snapshot, of: manifest, archivesDirectory: archivesDirectory)
    case .coreDataAttribute(let pin):
      verifyCoreDataAttribute(pin, of: manifest, archivesDirectory: archivesDirectory)
    }
  }
}
