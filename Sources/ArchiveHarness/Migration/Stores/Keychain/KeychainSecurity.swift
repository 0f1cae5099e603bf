#if canImport(Security)
  import Foundation
  import ArchiveFormat
  import Security

  extension KeychainAccessibility {
    /// The Security constants, with the deprecated `kSecAttrAccessibleAlways` and
    /// `…AlwaysThisDeviceOnly` by their values, "dk" and "dku", which items written long ago
    /// still hold.
    private static let securityValues: [(String, KeychainAccessibility)] = [
      (kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly as String, .whenPasscodeSetThisDeviceOnly),
      (kSecAttrAccessibleWhenUnlocked as String, .whenUnlocked),
      (kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String, .whenUnlockedThisDeviceOnly),
      (kSecAttrAccessibleAfterFirstUnlock as String, .afterFirstUnlock),
      (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String, .afterFirstUnlockThisDeviceOnly),
      ("dk", .always), ("dku", .alwaysThisDeviceOnly),
    ]

    /// The accessibility a `kSecAttrAccessible` value names, or `nil` for one this type lacks.
    init?(securityValue value: String) {
      guard let found = Self.securityValues.first(where: { $0.0 == value }) else { return nil }
      self = found.1
    }
  }

  extension KeychainItemClass {
    /// `kSecClass`'s value.
    var securityClass: CFString {
      switch self {
      case .genericPassword: kSecClassGenericPassword
      case .internetPassword: kSecClassInternetPassword
      }
    }

    /// The attribute a snapshot's `service` is: `kSecAttrService`, or `kSecAttrServer`.
    var serviceAttribute: CFString {
      switch self {
      case .genericPassword: kSecAttrService
      case .internetPassword: kSecAttrServer
      }
    }
  }

  /// Security's words for a status, with its number; never an item's data or attributes.
  func securityMessage(_ status: OSStatus) -> String {
    let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "unknown error"
    return "\(text) (OSStatus \(status))"
  }

  /// Snapshots of the Keychain's items, made with Security's `SecItemCopyMatching`: for
  /// `archive-harness keychain export` on a Mac, and for an app's debug build or an iOS test
  /// host, whose Keychain only the app itself can read.
  ///
  /// ```swift
  /// // In a test host's setUp, or behind a debug menu:
  /// try KeychainSnapshotExporter.export(
  ///   services: ["com.example.auth"], to: NSTemporaryDirectory() + "keychain.json")
  /// ```
  public enum KeychainSnapshotExporter {
    /// Writes a snapshot of every item of every class (of the given services and access group)
    /// to a new file; an existing file, link or FIFO at `path` is refused.
    ///
    /// ```swift
    /// // In a test host's setUp, or behind a debug menu:
    /// try KeychainSnapshotExporter.export(
    ///   services: ["com.example.auth"], to: NSTemporaryDirectory() + "keychain.json")
    /// ```
    ///
    /// - Parameters:
    ///   - services: The services to read; empty for every one.
    ///   - accessGroup: Only items of this access group, when given.
    ///   - path: The new snapshot file.
    /// - Returns: The number of items written.
    /// - Throws: ``MigrationRun/Problem`` when Security fails or the file cannot be written.
    @discardableResult
    public static func export(
      services: [String] = [], accessGroup: String? = nil, to path: String
    ) throws(MigrationRun.Problem) -> Int {
      do throws(MigrationError) {
        return try export(
          services: services, classes: KeychainItemClass.allCases, accessGroup: accessGroup,
          to: path)
      } catch {
        throw MigrationRun.Problem(error)
      }
    }

    /// Reads the items of the given classes (and services, and access group) with their
    /// attributes and data: `kSecReturnAttributes`, `kSecReturnData`, `kSecMatchLimitAll`,
    /// synchronizable or not.
    ///
    /// ```swift
    /// let snapshot = try KeychainSnapshotExporter.snapshot(services: ["com.example.auth"])
    /// ```
    ///
    /// - Parameters:
    ///   - services: The services (servers, for internet passwords) to read; empty for every one.
    ///   - classes: The item classes to read.
    ///   - accessGroup: Only items of this access group, when given.
    /// - Returns: The items, ordered by class, service and account.
    /// - Throws: `MigrationError` when Security fails, or an item has an accessibility
    ///   this tool does not know.
    package static func snapshot(
      services: [String], classes: [KeychainItemClass], accessGroup: String?
    ) throws(MigrationError) -> KeychainSnapshot {
      var items: [KeychainItem] = []
      for itemClass in classes {
        for service in services.isEmpty ? [nil] : services.map(Optional.some) {
          items += try read(itemClass, service: service, accessGroup: accessGroup)
        }
      }
      items.sort {
        ($0.itemClass.rawValue, $0.service, $0.account)
          < ($1.itemClass.rawValue, $1.service, $1.account)
      }
      return KeychainSnapshot(items: items)
    }

    /// Writes a snapshot of the items to a new file (`KeychainSnapshot.writeNew(to:)`).
    ///
    /// ```swift
    /// let count = try KeychainSnapshotExporter.export(services: ["com.example.auth"], to: path)
    /// ```
    ///
    /// - Returns: The number of items written.
    /// - Throws: `MigrationError` when Security fails or the file cannot be written.
    @discardableResult
    package static func export(
      services: [String], classes: [KeychainItemClass], accessGroup: String?, to path: String
    ) throws(MigrationError) -> Int {
      let snapshot = try snapshot(services: services, classes: classes, accessGroup: accessGroup)
      try snapshot.writeNew(to: path)
      return snapshot.items.count
    }

    private static func read(
      _ itemClass: KeychainItemClass, service: String?, accessGroup: String?
    ) throws(MigrationError) -> [KeychainItem] {
      var query: [String: Any] = [
        kSecClass as String: itemClass.securityClass,
        kSecMatchLimit as String: kSecMatchLimitAll,
        kSecReturnAttributes as String: true,
        kSecReturnData as String: true,
        kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
      ]
      if let service { query[itemClass.serviceAttribute as String] = service }
      if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
      var result: CFTypeRef?
      let status = SecItemCopyMatching(query as CFDictionary, &result)
      if status == errSecItemNotFound { return [] }
      guard status == errSecSuccess else {
        throw MigrationError(
          .unreadable, file: "keychain",
          "SecItemCopyMatching for \(itemClass) items failed: \(securityMessage(status))")
      }
      guard let rows = result as? [[String: Any]] else { return [] }
      var items: [KeychainItem] = []
      for row in rows {
        let accessibleValue = row[kSecAttrAccessible as String] as? String ?? ""
        let service = row[itemClass.serviceAttribute as String] as? String ?? ""
        let account = row[kSecAttrAccount as String] as? String ?? ""
        guard let accessible = KeychainAccessibility(securityValue: accessibleValue) else {
          throw MigrationError(
            .notSupported, file: "keychain",
            "the \(itemClass) item of service '\(service)' has an accessibility this tool does not know ('\(accessibleValue)')"
          )
        }
        let synchronizable =
          (row[kSecAttrSynchronizable as String] as? NSNumber)?.boolValue ?? false
        let data = row[kSecValueData as String] as? Data ?? Data()
        items.append(
          KeychainItem(
            itemClass: itemClass, service: service, account: account,
            accessGroup: row[kSecAttrAccessGroup as String] as? String, accessible: accessible,
            synchronizable: synchronizable, data: Array(data)))
      }
      return items
    }
  }

  /// The query that names exactly one item of a snapshot in the Keychain.
  func keychainQuery(for item: KeychainItem) -> [String: Any] {
    var query: [String: Any] = [
      kSecClass as String: item.itemClass.securityClass,
      item.itemClass.serviceAttribute as String: item.service,
      kSecAttrAccount as String: item.account,
      kSecAttrSynchronizable as String: item.synchronizable,
    ]
    if let group = item.accessGroup { query[kSecAttrAccessGroup as String] = group }
    return query
  }

  /// The item's data as the Keychain holds it now; `nil` when no item matches.
  func keychainData(for item: KeychainItem) throws(MigrationError) -> [UInt8]? {
    var query = keychainQuery(for: item)
    query[kSecReturnData as String] = true
    query[kSecMatchLimit as String] = kSecMatchLimitOne
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    if status == errSecItemNotFound { return nil }
    guard status == errSecSuccess, let data = result as? Data else {
      throw MigrationError(
        .unreadable, file: "keychain",
        "SecItemCopyMatching for \(item.keyPath) failed: \(securityMessage(status))")
    }
    return Array(data)
  }

  /// Replaces an item's data with `SecItemUpdate`, never by deleting and adding it, so its
  /// attributes, access control and persistent reference stay as they are.
  func keychainUpdate(_ item: KeychainItem, to data: [UInt8]) -> OSStatus {
    let changes: [String: Any] = [kSecValueData as String: Data(data)]
    return SecItemUpdate(keychainQuery(for: item) as CFDictionary, changes as CFDictionary)
  }

  /// Updates the Keychain's items in place: the snapshot copied to the run folder first (the
  /// backup), each batch journaled before it changes, each item updated with `SecItemUpdate`
  /// only while it still holds the bytes the snapshot read.
  final class KeychainItemWriter: RecordWriter {
    private let store: KeychainSnapshotStore
    private let run: JournalSession
    private var itemByKeyPath: [PropertyListKeyPath: KeychainItem] = [:]
    private(set) var backupPath: String?

    init(store: KeychainSnapshotStore, runDirectory: String?, journalPath: String?) {
      self.store = store
      self.run = JournalSession(runDirectory: runDirectory, journalPath: journalPath)
      for item in store.snapshot.items { itemByKeyPath[item.keyPath] = item }
    }

    var journalPath: String? { run.journalPath }

    private func start() throws(MigrationError) {
      run.started = true
      guard let runDirectory = run.runDirectory else {
        throw MigrationError(
          .invalidOptions, file: store.path, "updating the Keychain in place needs a backup")
      }
      try DurableFile.makeDirectories(runDirectory)
      let name = store.path.split(separator: "/").last.map(String.init) ?? "keychain.json"
      let copy = runDirectory + "/" + name
      try DurableFile.create(copy, bytes: store.bytes, mode: 0o600)
      try DurableFile.syncDirectory(runDirectory)
      backupPath = copy
      try run.openJournal(header: [
        ("kind", .string("keychain")), ("store", .string(DurableFile.canonical(store.path))),
        ("backup", .string(DurableFile.canonical(copy))),
      ])
    }

    func write(_ batch: [PendingRewrite]) throws(MigrationError) -> [RecordRefusal?] {
      var results: [RecordRefusal?] = Array(repeating: nil, count: batch.count)
      var pending: [(Int, KeychainItem, PendingRewrite)] = []
      var lines: [JSONValue] = []
      for (index, rewrite) in batch.enumerated() {
        guard case .propertyListValue(let keyPath) = rewrite.record.id.kind,
          let item = itemByKeyPath[keyPath]
        else {
          results[index] = RecordRefusal(.write, "not an item of this snapshot")
          continue
        }
        guard try keychainData(for: item) == rewrite.original else {
          results[index] = RecordRefusal(
            .write, cause: .changed,
            "the Keychain item no longer holds the snapshot's data; the newer value is kept")
          continue
        }
        pending.append((index, item, rewrite))
        lines.append(
          .object(
            JournalSession.changeMembers(
              "replace", record: ("keyPath", MigrationJournal.json(keyPath)), rewrite)))
      }
      guard !pending.isEmpty else { return results }
      if !run.started { try start() }
      try run.append(lines)
      for (index, item, rewrite) in pending {
        let status = keychainUpdate(item, to: rewrite.replacement)
        if status == errSecSuccess {
          run.rewritten += 1
        } else {
          results[index] = RecordRefusal(.write, "SecItemUpdate failed: \(securityMessage(status))")
        }
      }
      return results
    }

    func finish(interrupted: Bool) throws(MigrationError) {
      try run.finish(interrupted: interrupted)
    }
  }

  extension MigrationRollback {
    /// Puts back, with `SecItemUpdate`, the data the snapshot copy holds for each journaled
    /// item that still holds what the run wrote.
    static func rollBackKeychainItems(
      backup: String, entries: [MigrationJournal.Entry], journalPath: String,
      onRecord: (String, Outcome) -> Void
    ) throws(MigrationError) -> Summary {
      let changes = try keychainChanges(entries, journalPath: journalPath)
      let original = try KeychainSnapshot.load(backup, maximumFileSize: 64 << 20).snapshot
      var summary = Summary()
      for change in changes {
        let place = RecordID.propertyListValue(file: "keychain", keyPath: change.keyPath)
          .description
        let outcome: Outcome
        if let item = original.items.first(where: { $0.keyPath == change.keyPath }),
          SHA256Checksum.hex(item.data) == change.old
        {
          let current = try keychainData(for: item)
          let sum = current.map(SHA256Checksum.hex)
          if sum == change.old {
            outcome = .alreadyOriginal
          } else if sum == change.new {
            let status = keychainUpdate(item, to: item.data)
            outcome =
              status == errSecSuccess
              ? .restored : .conflict("SecItemUpdate failed: \(securityMessage(status))")
          } else {
            outcome = .conflict(
              current == nil
                ? "the item is gone from the Keychain"
                : "the item changed after the migration; left as it is")
          }
        } else {
          outcome = .conflict("the backup \(backup) is missing or not the original")
        }
        summary.count(outcome)
        onRecord(place, outcome)
      }
      return summary
    }
  }
#endif
