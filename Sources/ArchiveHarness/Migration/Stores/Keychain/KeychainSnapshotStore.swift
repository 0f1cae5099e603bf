import ArchiveFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A Keychain snapshot (`KeychainSnapshot`) as a store: each item's data is a record, named
/// `FILE:CLASS.SERVICE.ACCOUNT` (a key path of three keys, quoted where a key holds a dot:
/// `keychain.json:genericPassword."com.example.auth".alice`).
///
/// The file is read once, when the store is opened, so a dry run reads nothing else. `migrate`
/// never changes the snapshot: it writes a new one at ``newSnapshotPath``, with the journal and
/// the copy of the original that `migrate --rollback` needs. On Apple platforms
/// ``appliesToKeychain`` makes `migrate` update the items themselves, in place, with
/// `SecItemUpdate` (the snapshot is then the backup).
///
/// ```swift
/// let store = try KeychainSnapshotStore(path: "keychain.json")
/// store.newSnapshotPath = "keychain-migrated.json"
/// let writer = try store.makeWriter(runDirectory: "Backups/run-1", journalPath: nil)
/// ```
package final class KeychainSnapshotStore: RecordStore {
  /// The snapshot file, as given.
  package let path: String
  /// The snapshot as read.
  package let snapshot: KeychainSnapshot
  /// The bytes read, which the backup copies.
  let bytes: [UInt8]
  /// Where `migrate` writes the new snapshot; it must not exist.
  package var newSnapshotPath: String?
  /// Whether `migrate` updates the Keychain's items in place instead (Apple platforms).
  package var appliesToKeychain = false
  /// An item's data holds tokens and keys: its text is never printed.
  package var holdsSecrets: Bool { true }

  private var next = 0

  /// Opens a snapshot as a store.
  ///
  /// - Parameters:
  ///   - path: The file: a regular file, not a symbolic link.
  ///   - maximumFileSize: The largest file read (64 MiB by default).
  /// - Throws: `MigrationError` naming the file and the place of the first problem.
  package init(path: String, maximumFileSize: Int = 64 << 20) throws(MigrationError) {
    let loaded = try KeychainSnapshot.load(path, maximumFileSize: maximumFileSize)
    self.path = path
    self.snapshot = loaded.snapshot
    self.bytes = loaded.bytes
  }

  /// The items read as records, in the file's order; ``restrict(to:)`` narrows them.
  private var selected: [KeychainItem]?

  /// The items the run reads.
  private var records: [KeychainItem] { selected ?? snapshot.items }

  /// The number of items the run reads.
  package func recordCount() -> Int? { records.count }

  /// Keeps only the items whose key path (`CLASS.SERVICE.ACCOUNT`) these patterns match, as a
  /// manifest's `<store>` written by `survey --author` lists them; the others are not read.
  ///
  /// ```swift
  /// store.restrict(to: [#"genericPassword."com.example.auth".alice"#].compactMap(PropertyListKeyPathPattern.init))
  /// ```
  package func restrict(to patterns: [PropertyListKeyPathPattern]) {
    selected = records.filter { item in patterns.contains { $0.matches(item.keyPath) } }
  }

  /// The next items' data, in the file's order, at most `maximumCount`; empty at the end.
  package func nextBatch(maximumCount: Int) -> [StoreRecord] {
    let records = records
    let end = min(records.count, next + maximumCount)
    defer { next = end }
    return records[next..<end].map(record)
  }

  /// An item's data as a record, named `FILE:CLASS.SERVICE.ACCOUNT`.
  private func record(_ item: KeychainItem) -> StoreRecord {
    StoreRecord(
      id: .propertyListValue(file: path, keyPath: item.keyPath), content: .bytes(item.data))
  }

  /// The record of the item a name names: the key path reports print
  /// (`genericPassword."com.example.auth".alice`), or class, service and account joined by
  /// dots as they are (`genericPassword.com.example.auth.alice`), which is matched whole against
  /// each item, never split at its dots.
  ///
  /// ```swift
  /// let record = try store.record(named: "genericPassword.com.example.auth.alice")
  /// print(record.id)  // keychain.json:genericPassword."com.example.auth".alice
  /// ```
  ///
  /// - Parameter name: The item's name, as a place on the command line writes it.
  /// - Returns: The item's data, named as reports name it.
  /// - Throws: `MigrationError` at the snapshot and the name: `record-not-found` listing the
  ///   nearest items when no item has the name, `invalid-place` listing the items when the
  ///   dotted form names more than one.
  package func record(named name: String) throws(MigrationError) -> StoreRecord {
    let items = snapshot.items
    let place = Place(file: path, position: .keyPath(name))
    if let keyPath = PropertyListKeyPath(parsing: name),
      let item = items.first(where: { $0.keyPath == keyPath })
    {
      return record(item)
    }
    let dotted = items.filter { $0.dottedName == name }
    if dotted.count > 1 {
      throw MigrationError(
        .invalidPlace, place: place,
        "'\(name)' names \(dotted.count) items when its dots are read unquoted: "
          + dotted.map(\.keyPath.description).joined(separator: ", ")
          + "; write the one meant as reports name it, a key with a dot in quotes")
    }
    if let item = dotted.first { return record(item) }
    throw MigrationError(
      .recordNotFound, place: place,
      "the snapshot holds no item '\(name)' (CLASS.SERVICE.ACCOUNT); "
        + Self.nearest(to: name, in: items))
  }

  /// The items nearest a name that matches none, at most five, for a message.
  private static func nearest(to name: String, in items: [KeychainItem]) -> String {
    guard !items.isEmpty else { return "it holds no items" }
    func shared(_ text: String) -> Int {
      zip(text.unicodeScalars, name.unicodeScalars).prefix { $0 == $1 }.count
    }
    let ranked = items.enumerated().sorted { left, right in
      let (a, b) = (
        max(shared(left.element.dottedName), shared(left.element.keyPath.description)),
        max(shared(right.element.dottedName), shared(right.element.keyPath.description))
      )
      return a != b ? a > b : left.offset < right.offset
    }.map(\.element.keyPath.description)
    let shown = ranked.prefix(5).joined(separator: ", ")
    let rest = ranked.count - min(ranked.count, 5)
    return (ranked.count == 1 ? "the item is " : "the nearest items are ") + shown
      + (rest > 0 ? " and \(rest) more" : "")
  }

  /// Removes the temporary files an interrupted `migrate` left beside the new snapshot
  /// (`.NAME.PID-RANDOM.archive-harness-tmp`, regular files only); returns their paths.
  package func removeStaleTemporaryFiles() -> [String] {
    guard let target = newSnapshotPath else { return [] }
    let folder = DurableFile.directory(of: target)
    let name = target.split(separator: "/").last.map(String.init) ?? target
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var removed: [String] = []
    while let entry = readdir(directory) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard entryName.hasPrefix("." + name + "."), entryName.hasSuffix(DurableFile.temporarySuffix)
      else { continue }
      let full = folder + "/" + entryName
      guard let type = DurableFile.entryType(of: full), type & S_IFMT == S_IFREG else { continue }
      if unlink(full) == 0 { removed.append(full) }
    }
    return removed
  }

  /// Makes the writer `migrate` uses: a new snapshot at ``newSnapshotPath``, or (on Apple
  /// platforms, with ``appliesToKeychain``) the Keychain's items updated in place.
  ///
  /// - Throws: `MigrationError` (`invalid-options`) when no new snapshot is named, or
  ///   something already exists at its path; `not-supported` for the Keychain where Security
  ///   is not available.
  package func makeWriter(runDirectory: String?, journalPath: String?) throws(MigrationError)
    -> any RecordWriter
  {
    if appliesToKeychain {
      #if canImport(Security)
        guard runDirectory != nil else {
          throw MigrationError(
            .invalidOptions, file: path,
            "updating the Keychain in place needs --backup: the snapshot copy there is the rollback"
          )
        }
        return KeychainItemWriter(store: self, runDirectory: runDirectory, journalPath: journalPath)
      #else
        throw MigrationError(
          .notSupported, file: path,
          "--apply-to-keychain updates items with Security's SecItemUpdate, which this platform does not have; write a new snapshot with --new-snapshot"
        )
      #endif
    }
    guard let target = newSnapshotPath else {
      throw MigrationError(
        .invalidOptions, file: path,
        "migrate writes a new snapshot and never changes this one: name it with --new-snapshot FILE"
      )
    }
    if let type = DurableFile.entryType(of: target) {
      throw MigrationError(
        .invalidOptions, file: target,
        "\(type & S_IFMT == S_IFREG ? "a file" : DirectoryStore.kindName(type)) already exists at the new snapshot's path; it is never replaced"
      )
    }
    return KeychainSnapshotWriter(
      store: self, target: target, runDirectory: runDirectory, journalPath: journalPath)
  }
}
