import ArchiveFormat
import ArchiveManifest
import Foundation

extension Verifier {
  /// Verifies an entry whose archive is a Keychain item's data (`keychainItem="…"`): the item is
  /// read from the snapshot the entry's path names and its data checked against the entry's
  /// `sha256`, then verified on every path as a file's bytes are.
  ///
  /// The case is named `SNAPSHOT:CLASS.SERVICE.ACCOUNT`. Its decoded objects and the values
  /// its expectations found are masked (`DecodedValue.maskingText`): an item holds tokens and
  /// keys, which no report may show. An item the snapshot does not hold, a
  /// snapshot that does not read, or data whose checksum differs is a structural failure
  /// naming the snapshot and the item; the item's data is never put in a message.
  ///
  /// - Parameters:
  ///   - entry: The entry, of `manifest`, with its `keychainItem`.
  ///   - item: The entry's `keychainItem`, as written.
  ///   - manifest: The manifest that lists it.
  ///   - archivesDirectory: The folder the snapshot's path is relative to.
  /// - Returns: The case.
  func verifyKeychainItem(
    _ entry: ArchiveEntry, item: String, of manifest: Manifest, archivesDirectory: String
  ) -> VerificationCase {
    var checked: VerificationCase
    switch Self.keychainItemData(entry, item: item, archivesDirectory: archivesDirectory) {
    case .success(let data): checked = verify(entry, of: manifest, bytes: data)
    case .failure(let failure): checked = Self.unreadable(entry, of: manifest, failure.message)
    }
    checked.archive = entry.caseName
    // An item holds tokens and keys: its decoded text and bytes never reach a report.
    for index in checked.paths.indices {
      checked.paths[index].object = checked.paths[index].object?.maskingText
    }
    for index in checked.expectations.indices {
      checked.expectations[index].actual = checked.expectations[index].actual.maskingText
    }
    return checked
  }

  /// Why a Keychain item entry's data could not be had, in a sentence naming the snapshot and
  /// the item, never the data.
  package struct KeychainItemUnavailable: Error {
    /// The sentence.
    package var message: String
  }

  /// The data of the Keychain item a `keychainItem` entry names, read from its snapshot and
  /// checked against the entry's `sha256`.
  ///
  /// The item is found as `KeychainSnapshotStore.record(named:)` finds it: by the key path
  /// reports print, or by class, service and account joined by dots when one item has them.
  ///
  /// - Parameters:
  ///   - entry: The entry.
  ///   - item: Its `keychainItem`, as written.
  ///   - archivesDirectory: The folder the snapshot's path is relative to.
  /// - Returns: The data, or why it cannot be had: the snapshot does not read, holds no such
  ///   item, or the item's data has another checksum.
  package static func keychainItemData(
    _ entry: ArchiveEntry, item: String, archivesDirectory: String
  ) -> Result<[UInt8], KeychainItemUnavailable> {
    let file = (archivesDirectory as NSString).appendingPathComponent(entry.path)
    let store: KeychainSnapshotStore
    do throws(MigrationError) {
      store = try KeychainSnapshotStore(path: file)
    } catch {
      return .failure(
        KeychainItemUnavailable(
          message: "\(error.place): cannot read the Keychain snapshot: \(error.message)"))
    }
    let record: StoreRecord
    do throws(MigrationError) {
      record = try store.record(named: item)
    } catch {
      return .failure(KeychainItemUnavailable(message: "\(error.place): \(error.message)"))
    }
    guard case .bytes(let data) = record.content else {
      return .failure(KeychainItemUnavailable(message: "\(record.id): the item holds no data"))
    }
    let actual = SHA256Checksum.hex(data)
    guard actual == entry.sha256 else {
      return .failure(
        KeychainItemUnavailable(
          message: "\(record.id): the item's data has sha256 \(actual), but the manifest "
            + "expects \(entry.sha256); the snapshot's item changed"))
    }
    return .success(data)
  }

  /// The case of a manifest's Keychain snapshot: the manifest's queries run against its items,
  /// as `keychain check` runs them; one warning when the manifest declares no query.
  ///
  /// ```swift
  /// let item = verifier.verifyKeychainSnapshot(
  ///   manifest.keychainSnapshots[0], of: manifest, archivesDirectory: "LegacyArchives")
  /// for finding in item.storeFindings { print("\(finding.place): \(finding.message)") }
  /// ```
  ///
  /// - Parameters:
  ///   - snapshot: One of the manifest's `<keychainSnapshot>`s.
  ///   - manifest: The manifest, whose `keychainQueries` run.
  ///   - archivesDirectory: The folder the snapshot's path is relative to.
  /// - Returns: A case with no decode paths whose store findings are the query findings.
  package func verifyKeychainSnapshot(
    _ snapshot: KeychainSnapshotReference, of manifest: Manifest, archivesDirectory: String
  ) -> VerificationCase {
    let file = (archivesDirectory as NSString).appendingPathComponent(snapshot.path)
    var findings: [StoreFinding] = []
    let store: KeychainSnapshotStore
    do throws(MigrationError) {
      store = try KeychainSnapshotStore(path: file)
    } catch {
      findings.append(
        StoreFinding(
          .keychainSnapshot, .error, at: error.place,
          "cannot read the Keychain snapshot: \(error.message)"))
      return VerificationCase(
        manifest: manifest.file, archive: snapshot.path, location: snapshot.location, paths: [],
        expectations: [], producer: Self.producer(of: manifest), storeFindings: findings)
    }
    if manifest.keychainQueries.isEmpty {
      findings.append(
        StoreFinding(
          .keychainSnapshot, .warning, at: snapshot.location,
          "the manifest declares no <keychainQuery>, so no query runs against the Keychain "
            + "snapshot '\(snapshot.path)'"))
    } else {
      findings = KeychainQueryFinding.check(
        store.snapshot, file: file, queries: manifest.keychainQueries
      )
      .map { StoreFinding(.keychainSnapshot, $0.severity, at: $0.place, $0.message) }
    }
    findings += Self.unverifiedItems(of: store, snapshot: snapshot, in: manifest)
    return VerificationCase(
      manifest: manifest.file, archive: snapshot.path, location: snapshot.location, paths: [],
      expectations: [], producer: Self.producer(of: manifest), storeFindings: findings)
  }

  /// A warning for each item of a snapshot whose data is a property list (an archive) that no
  /// `<archive keychainItem>` entry of the manifest verifies: nothing in a snapshot a manifest
  /// declares goes unchecked silently.
  static func unverifiedItems(
    of store: KeychainSnapshotStore, snapshot: KeychainSnapshotReference, in manifest: Manifest
  ) -> [StoreFinding] {
    var listed = Set<String>()
    for entry in manifest.archives where entry.path == snapshot.path {
      guard let name = entry.keychainItem,
        let record = try? store.record(named: name)
      else { continue }
      listed.insert(record.id.description)
    }
    return store.snapshot.items.compactMap { item in
      let id = RecordID.propertyListValue(file: store.path, keyPath: item.keyPath)
      guard !listed.contains(id.description), NestedArchive.looksLikePropertyList(item.data)
      else { return nil }
      return StoreFinding(
        .keychainSnapshot, .warning, at: id.place,
        "the item holds a property list that no <archive keychainItem> entry verifies on the "
          + "decode paths; add <archive path=\"\(snapshot.path)\" "
          + "keychainItem='\(item.keyPath)' sha256=\"\(SHA256Checksum.hex(item.data))\">")
    }
  }
}
