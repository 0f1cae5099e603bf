import ArchiveFormat
import _ArchiveHarnessSystem

/// Writes a migrated Keychain snapshot as a new file, never changing the one the store read.
///
/// Before the first change the snapshot, as read, is copied to `RUN/NAME` and the journal is
/// opened (kind `keychain-snapshot`: the new snapshot is its store, the copy its backup). Per
/// batch: each rewrite's item must still hold the bytes it was read with; the batch's journal
/// lines are appended and synced; the whole new snapshot is written to a temporary file beside
/// its path, synced, read back and compared, and renamed into place: over nothing the first
/// time (something put at the path meanwhile is never replaced), and afterwards only while
/// the path still holds the file this run wrote. A run that changes nothing still writes the
/// new snapshot, the same items, when it finishes uninterrupted.
final class KeychainSnapshotWriter: RecordWriter {
  private let store: KeychainSnapshotStore
  private let target: String
  private let run: JournalSession
  private var items: [KeychainItem]
  private var indexByKeyPath: [PropertyListKeyPath: Int] = [:]
  /// The identity of the new snapshot this run wrote last, once it has written one.
  private var written: FileIdentity?
  private(set) var backupPath: String?

  init(store: KeychainSnapshotStore, target: String, runDirectory: String?, journalPath: String?) {
    self.store = store
    self.target = target
    self.run = JournalSession(runDirectory: runDirectory, journalPath: journalPath)
    items = store.snapshot.items
    for (index, item) in items.enumerated() { indexByKeyPath[item.keyPath] = index }
  }

  var journalPath: String? { run.journalPath }

  private func start() throws(MigrationError) {
    run.started = true
    var backup: JSONValue = .null
    if let runDirectory = run.runDirectory {
      try DurableFile.makeDirectories(runDirectory)
      let name = store.path.split(separator: "/").last.map(String.init) ?? "keychain.json"
      let copy = runDirectory + "/" + name
      do throws(MigrationError) {
        try DurableFile.create(copy, bytes: store.bytes, mode: 0o600)
      } catch {
        throw MigrationError(
          .backupFailed, file: copy, "cannot back up \(store.path): \(error.message)")
      }
      try DurableFile.syncDirectory(runDirectory)
      backupPath = copy
      backup = .string(DurableFile.canonical(copy))
    }
    try run.openJournal(header: [
      ("kind", .string("keychain-snapshot")),
      (
        "store",
        .string(DurableFile.canonical(DurableFile.directory(of: target)) + "/" + Self.name(target))
      ),
      ("source", .string(DurableFile.canonical(store.path))), ("backup", backup),
    ])
  }

  private static func name(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  func write(_ batch: [PendingRewrite]) throws(MigrationError) -> [RecordRefusal?] {
    guard !batch.isEmpty else { return [] }
    var results: [RecordRefusal?] = Array(repeating: nil, count: batch.count)
    var updated = items
    var applied: [Int] = []
    var lines: [JSONValue] = []
    for (index, rewrite) in batch.enumerated() {
      guard case .propertyListValue(let keyPath) = rewrite.record.id.kind,
        let position = indexByKeyPath[keyPath]
      else {
        results[index] = RecordRefusal(.write, "not an item of this snapshot")
        continue
      }
      guard updated[position].data == rewrite.original else {
        results[index] = RecordRefusal(
          .write, cause: .changed, "the item changed since it was read; the newer value is kept")
        continue
      }
      updated[position].data = rewrite.replacement
      applied.append(index)
      lines.append(
        .object(
          JournalSession.changeMembers(
            "replace", record: ("keyPath", MigrationJournal.json(keyPath)), rewrite)))
    }
    guard !applied.isEmpty else { return results }
    if !run.started { try start() }
    try run.append(lines)
    do throws(MigrationError) {
      try commit(updated)
    } catch {
      for index in applied { results[index] = RecordRefusal(.write, error.description) }
      return results
    }
    items = updated
    run.rewritten += applied.count
    return results
  }

  /// Puts the snapshot of `items` at the target: over nothing the first time, then only over
  /// the file this run wrote.
  private func commit(_ items: [KeychainItem]) throws(MigrationError) {
    let bytes = KeychainSnapshot(items: items).encoded()
    let temporary = try KeychainSnapshot.writeVerified(bytes, beside: target)
    if let written {
      let outcome = try DurableFile.swap(temporary, over: target, ifStill: written)
      if case .changed = outcome {
        DurableFile.removeRegularFile(temporary)
        throw MigrationError(
          .writeFailed, file: target,
          "the new snapshot was changed by someone else during the run; it is left as it is")
      }
    } else {
      guard DurableFile.entryType(of: target) == nil else {
        DurableFile.removeRegularFile(temporary)
        throw MigrationError(
          .writeFailed, file: target,
          "something was put at the new snapshot's path during the run; it is never replaced")
      }
      try DurableFile.moveIntoPlace(temporary, target)
    }
    try DurableFile.syncDirectory(DurableFile.directory(of: target))
    written = FileIdentity.at(target)
  }

  func finish(interrupted: Bool) throws(MigrationError) {
    if written == nil, !interrupted { try commit(items) }
    try run.finish(interrupted: interrupted)
  }
}
