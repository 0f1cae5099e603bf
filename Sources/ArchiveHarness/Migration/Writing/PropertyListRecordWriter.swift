import ArchiveFormat

/// Writes verified rewrites into a property-list store: the original file copied first, then the
/// whole file rewritten once per batch.
///
/// Per batch: the file is read again, and each record's value at its key path
/// must still be the bytes it was read with (else that record is refused at
/// the `write` step and keeps the newer value); the batch's journal lines are
/// appended and synced; the tree with the new values is written in the file's
/// own format to a temporary file beside it, synced, read back and compared,
/// whole, with the tree it was made from, and renamed over the file only while
/// the file is still the one read at the start of the batch. Before the first
/// change the file, as read then, is copied byte for byte to `RUN/NAME`.
///
/// One rewrite per batch rather than one at the end: each batch's records are
/// in the file when ``write(_:)`` returns, so the report and the journal never
/// say `rewritten` for a value that is not, and Ctrl-C (checked between
/// batches) leaves the last verified file. A preferences file holds a few
/// archives, one batch; `--batch-size` bounds how often a large one is rewritten.
final class PropertyListRecordWriter: RecordWriter {
  private let store: PropertyListStore
  private let run: JournalSession
  private(set) var backupPath: String?

  init(store: PropertyListStore, runDirectory: String?, journalPath: String?) {
    self.store = store
    self.run = JournalSession(runDirectory: runDirectory, journalPath: journalPath)
  }

  var journalPath: String? { run.journalPath }

  /// Copies the file as this run first read it, and opens the journal.
  private func start(original: PropertyListFile.Snapshot) throws(MigrationError) {
    run.started = true
    var backup: JSONValue = .null
    if let runDirectory = run.runDirectory {
      try DurableFile.makeDirectories(runDirectory)
      let name = store.path.split(separator: "/").last.map(String.init) ?? "store.plist"
      let target = runDirectory + "/" + name
      do throws(MigrationError) {
        // The bytes this run read and checked, which every change below is made from.
        try DurableFile.create(target, bytes: original.bytes, mode: 0o600)
      } catch {
        throw MigrationError(
          .backupFailed, file: target, "cannot back up \(store.path): \(error.message)")
      }
      try DurableFile.syncDirectory(runDirectory)
      backupPath = target
      backup = .string(DurableFile.canonical(target))
    }
    try run.openJournal(header: [
      ("kind", .string("plist")), ("store", .string(DurableFile.canonical(store.path))),
      ("format", .string(original.format.rawValue)), ("backup", backup),
    ])
  }

  func write(_ batch: [PendingRewrite]) throws(MigrationError) -> [RecordRefusal?] {
    guard !batch.isEmpty else { return [] }
    var results: [RecordRefusal?] = Array(repeating: nil, count: batch.count)
    let snapshot: PropertyListFile.Snapshot
    do throws(MigrationError) {
      snapshot = try PropertyListFile.load(store.path, maximumFileSize: store.maximumFileSize)
    } catch {
      let refusal = RecordRefusal(
        .write, "the file cannot be read again (\(error.description)); it is left as it is")
      return Array(repeating: refusal, count: batch.count)
    }
    var tree = snapshot.value
    var applied: [Int] = []
    var lines: [JSONValue] = []
    for (index, rewrite) in batch.enumerated() {
      guard case .propertyListValue(let keyPath) = rewrite.record.id.kind else {
        results[index] = RecordRefusal(.write, "not a value of this store")
        continue
      }
      guard case .data(let current)? = tree.value(at: keyPath), current == rewrite.original else {
        results[index] = RecordRefusal(
          .write, cause: .changed, "the value changed since it was read; the newer value is kept")
        continue
      }
      guard tree.replace(at: keyPath, with: .data(rewrite.replacement)) else {
        results[index] = RecordRefusal(.write, "the key path no longer leads to the value")
        continue
      }
      applied.append(index)
      lines.append(
        .object(
          JournalSession.changeMembers(
            "replace", record: ("keyPath", MigrationJournal.json(keyPath)), rewrite)))
    }
    guard !applied.isEmpty else { return results }
    // 1. The original is on disk, and the journal names every change, before the file changes.
    if !run.started { try start(original: snapshot) }
    try run.append(lines)
    // 2. The new file, verified, renamed over the old one.
    let outcome = try PropertyListFile.commit(
      tree, format: snapshot.format, over: store.path, expecting: snapshot.identity,
      maximumFileSize: store.maximumFileSize)
    switch outcome {
    case .written:
      run.rewritten += applied.count
    case .notWritten(let reason):
      for index in applied { results[index] = RecordRefusal(.write, reason) }
    }
    return results
  }

  func finish(interrupted: Bool) throws(MigrationError) {
    try run.finish(interrupted: interrupted)
  }
}
