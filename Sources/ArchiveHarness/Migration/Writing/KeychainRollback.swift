import ArchiveFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension MigrationRollback {
  /// A journaled change of a Keychain item: its key path (`CLASS.SERVICE.ACCOUNT`) and the
  /// SHA-256 of its data before and after.
  struct KeychainChange {
    var keyPath: PropertyListKeyPath
    var old: String
    var new: String
  }

  /// The `replace` entries of a Keychain journal, last first.
  static func keychainChanges(_ entries: [MigrationJournal.Entry], journalPath: String)
    throws(MigrationError) -> [KeychainChange]
  {
    var changes: [KeychainChange] = []
    for entry in entries.reversed() where entry["op"]?.stringValue == "replace" {
      guard let keyPath = MigrationJournal.keyPath(entry["keyPath"]),
        keyPath.components.count == 3,
        let old = entry["old"]?.stringValue, let new = entry["new"]?.stringValue
      else {
        throw MigrationError(
          .journal, place: entry.place(in: journalPath), "a replace entry is malformed")
      }
      changes.append(KeychainChange(keyPath: keyPath, old: old, new: new))
    }
    return changes
  }

  /// Restores the items of the new snapshot a `migrate` wrote to the data the original
  /// snapshot (the run's copy of it) held, in one verified rewrite of the new snapshot.
  ///
  /// Each journaled item is decided as a property list's value is: its data now has the
  /// journal's `new` checksum (restored from the copy, which must have the `old` one), the
  /// `old` one (already original), or neither (a conflict, left alone). The new snapshot as
  /// the rollback found it is kept as `RUN/rolled-back/NAME`. A link, FIFO or device put at
  /// its path is never followed or replaced.
  static func rollBackKeychainSnapshot(
    store: String, backup: String, entries: [MigrationJournal.Entry], journalPath: String,
    onRecord: (String, Outcome) -> Void
  ) throws(MigrationError) -> Summary {
    let changes = try keychainChanges(entries, journalPath: journalPath)
    var summary = Summary()
    func report(_ keyPath: PropertyListKeyPath, _ outcome: Outcome) {
      summary.count(outcome)
      onRecord(RecordID.propertyListValue(file: store, keyPath: keyPath).description, outcome)
    }
    if let type = DurableFile.entryType(of: store), type & S_IFMT != S_IFREG {
      for change in changes {
        report(
          change.keyPath,
          .conflict(
            "the new snapshot is now \(DirectoryStore.kindName(type)), not a regular file; left as it is"
          ))
      }
      return summary
    }
    let current = try KeychainSnapshot.load(store, maximumFileSize: Int.max)
    let original = try? KeychainSnapshot.load(backup, maximumFileSize: Int.max).snapshot
    var items = current.snapshot.items
    var decided: [(PropertyListKeyPath, Outcome)] = []
    for change in changes {
      guard let position = items.firstIndex(where: { $0.keyPath == change.keyPath }) else {
        decided.append((change.keyPath, .conflict("the item is gone from the new snapshot")))
        continue
      }
      let sum = SHA256Checksum.hex(items[position].data)
      if sum == change.old {
        decided.append((change.keyPath, .alreadyOriginal))
      } else if sum == change.new {
        if let restored = original?.items.first(where: { $0.keyPath == change.keyPath }),
          SHA256Checksum.hex(restored.data) == change.old
        {
          items[position].data = restored.data
          decided.append((change.keyPath, .restored))
        } else {
          decided.append(
            (change.keyPath, .conflict("the backup \(backup) is missing or not the original")))
        }
      } else {
        decided.append(
          (change.keyPath, .conflict("the item changed after the migration; left as it is")))
      }
    }
    if decided.contains(where: { $0.1 == .restored }) {
      let name = store.split(separator: "/").last.map(String.init) ?? "keychain.json"
      let keptFolder = DurableFile.directory(of: backup) + "/rolled-back"
      try DurableFile.makeDirectories(keptFolder)
      DurableFile.removeRegularFile(keptFolder + "/" + name)
      try DurableFile.create(keptFolder + "/" + name, bytes: current.bytes, mode: 0o600)
      let temporary = try KeychainSnapshot.writeVerified(
        KeychainSnapshot(items: items).encoded(), beside: store)
      if case .changed = try DurableFile.swap(temporary, over: store, ifStill: current.identity) {
        DurableFile.removeRegularFile(temporary)
        throw MigrationError(
          .writeFailed, file: store,
          "the new snapshot changed during the rollback; it is left as it is")
      }
      try DurableFile.syncDirectory(DurableFile.directory(of: store))
    }
    for (keyPath, outcome) in decided { report(keyPath, outcome) }
    return summary
  }
}

extension MigrationRollback {
  /// A Keychain journal's rollback: a new snapshot's (`keychain-snapshot`) or, on Apple
  /// platforms, the Keychain's own items (`keychain`, by `SecItemUpdate`).
  static func rollBackKeychain(
    kind: String, store: String, backup: String, entries: [MigrationJournal.Entry],
    journalPath: String,
    onRecord: (String, Outcome) -> Void
  ) throws(MigrationError) -> Summary {
    if kind == "keychain-snapshot" {
      return try rollBackKeychainSnapshot(
        store: store, backup: backup, entries: entries, journalPath: journalPath,
        onRecord: onRecord)
    }
    #if canImport(Security)
      return try rollBackKeychainItems(
        backup: backup, entries: entries, journalPath: journalPath, onRecord: onRecord)
    #else
      throw MigrationError(
        .notSupported, file: journalPath,
        "the run updated the Keychain's items; roll it back on the Mac or device it ran on")
    #endif
  }
}
