import ArchiveFormat
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes verified rewrites into a directory store: original to the backup, journal line, then an atomic replace.
///
/// Per batch: each original is hard-linked (or, across file systems, copied)
/// into `RUN/originals/RELATIVE` and synced; the journal lines are appended and synced; then each file is
/// replaced by writing `.NAME.PID-RANDOM.archive-harness-tmp` beside it, syncing it and
/// swapping it with the original only while the original is still the file that
/// was compared (`AtomicFile.swap(_:over:ifStill:)`); finally each touched folder is
/// synced. A file whose bytes changed since they were read, or that another
/// writer replaced at any moment up to the swap, is not replaced.
final class DirectoryRecordWriter: RecordWriter {
  private let store: DirectoryStore
  /// The store's canonical path, which every rewritten file's folder must resolve under.
  private let storeRoot: String
  private let run: JournalSession
  private(set) var backupPath: String?

  init(store: DirectoryStore, runDirectory: String?, journalPath: String?) {
    self.store = store
    self.storeRoot = DurableFile.canonical(store.path)
    self.run = JournalSession(runDirectory: runDirectory, journalPath: journalPath)
  }

  var journalPath: String? { run.journalPath }

  private func start() throws(MigrationError) {
    run.started = true
    var backup: JSONValue = .null
    if let runDirectory = run.runDirectory {
      let originals = runDirectory + "/originals"
      try DurableFile.makeDirectories(originals)
      backupPath = originals
      backup = .string(DurableFile.canonical(originals))
    }
    try run.openJournal(header: [
      ("kind", .string("directory")), ("store", .string(DurableFile.canonical(store.path))),
      ("backup", backup),
    ])
  }

  func write(_ batch: [PendingRewrite]) throws(MigrationError) -> [RecordRefusal?] {
    guard !batch.isEmpty else { return [] }
    if !run.started { try start() }
    // With syncfs, one flush per phase replaces an fsync per file and folder.
    let batched = DurableFile.canSyncFileSystem
    var results: [RecordRefusal?] = Array(repeating: nil, count: batch.count)
    // The identity of each file when its bytes were compared: it is compared again at the swap.
    var identities: [FileIdentity?] = Array(repeating: nil, count: batch.count)
    var lines: [JSONValue] = []
    var backupFolders: Set<String> = []
    for (index, rewrite) in batch.enumerated() {
      guard case .file(let path, let relative) = rewrite.record.id.kind else {
        results[index] = RecordRefusal(.write, "not a file of this store")
        continue
      }
      guard DirectoryStore.folderIsInside(relative, root: storeRoot) else {
        results[index] = RecordRefusal(
          .write, "a folder on the way to the file became a symbolic link; it is left as it is")
        continue
      }
      if let type = DurableFile.entryType(of: path), type != S_IFREG {
        results[index] = RecordRefusal(
          .write,
          "the file became \(DirectoryStore.kindName(type)) after it was read; it is left as it is")
        continue
      }
      let current: (bytes: [UInt8]?, size: Int, identity: FileIdentity)
      do {
        current = try DurableFile.readFile(path, limit: store.maximumFileSize)
      } catch {
        results[index] = RecordRefusal(.write, "the file cannot be read again: \(error.message)")
        continue
      }
      guard current.bytes == rewrite.original else {
        results[index] = RecordRefusal(
          .write, cause: .changed, "the file changed since it was read; the newer contents are kept"
        )
        continue
      }
      identities[index] = current.identity
      var members = JournalSession.changeMembers(
        "replace", record: ("path", .string(relative)), rewrite)
      if let backupPath {
        let target = backupPath + "/" + relative
        let folder = DurableFile.directory(of: target)
        if !backupFolders.contains(folder) { try DurableFile.makeDirectories(folder) }
        backupFolders.insert(folder)
        DurableFile.removeRegularFile(target)
        // A hard link keeps the original inode, untouched because the store file is
        // replaced by rename, never rewritten in place; it also spares the file
        // system freeing the old blocks at the rename. Across file systems, copy.
        if link(path, target) != 0 {
          try DurableFile.create(target, bytes: rewrite.original, mode: 0o600, sync: !batched)
        } else if !batched {
          try DurableFile.syncFile(target)
        }
        members.append(("backup", .string(relative)))
      }
      lines.append(.object(members))
    }
    // 1. The originals are on disk before the journal names them.
    if let backupPath, !backupFolders.isEmpty {
      if batched {
        try DurableFile.syncFileSystem(containing: backupPath)
      } else {
        for folder in backupFolders { try DurableFile.syncDirectory(folder) }
      }
    }
    // 2. The journal is on disk before any file changes.
    try run.append(lines)

    // 3. The new contents are on disk before they are renamed into place. A file whose
    //    folder cannot take a new file is refused; on any other failure, no temporary file stays.
    var temporaries: [(index: Int, temporary: String, path: String)] = []
    func removeTemporaries() {
      for entry in temporaries { DurableFile.removeRegularFile(entry.temporary) }
    }
    do {
      for (index, rewrite) in batch.enumerated() where results[index] == nil {
        guard case .file(let path, _) = rewrite.record.id.kind else { continue }
        do {
          let temporary = try DurableFile.writeTemporary(
            for: path, bytes: rewrite.replacement, sync: !batched)
          temporaries.append((index, temporary, path))
        } catch  where error.code == .writeFailed {
          results[index] = RecordRefusal(
            .write, "the new file cannot be written beside it: \(error.message)")
        }
      }
      if batched, !temporaries.isEmpty { try DurableFile.syncFileSystem(containing: store.path) }
    } catch {
      removeTemporaries()
      throw error
    }

    // 4. Each file is swapped only while it still holds the bytes compared above, then the
    //    folders are synced so the renames survive a crash.
    var touchedFolders: Set<String> = []
    for (position, entry) in temporaries.enumerated() {
      guard let identity = identities[entry.index] else { continue }
      let outcome: AtomicFile.SwapOutcome
      do {
        outcome = try DurableFile.swap(entry.temporary, over: entry.path, ifStill: identity)
      } catch {
        for later in temporaries[(position + 1)...] {
          DurableFile.removeRegularFile(later.temporary)
        }
        throw error
      }
      switch outcome {
      case .replaced:
        touchedFolders.insert(DurableFile.directory(of: entry.path))
        run.rewritten += 1
      case .changed:
        results[entry.index] = RecordRefusal(
          .write, cause: .changed,
          "another writer replaced the file while it was migrated; its contents are kept")
      }
    }
    if batched {
      if !touchedFolders.isEmpty { try DurableFile.syncFileSystem(containing: store.path) }
    } else {
      for folder in touchedFolders { try DurableFile.syncDirectory(folder) }
    }
    return results
  }

  func finish(interrupted: Bool) throws(MigrationError) {
    try run.finish(interrupted: interrupted)
  }
}
