import ArchiveHarness
import Foundation

/// `archive-harness migrate`: rewrite verified records, with a backup and a journal; `--rollback JOURNAL` undoes a run.
enum MigrateCommand {
  static let spec = CommandSpec(
    name: "migrate",
    abstract: "Rewrite a store's archives, each only after a verified round trip.",
    discussion: """
        Each record is read, migrated, re-read and compared; only a record that
        passes every step is replaced. Folders: the new file is written beside the
        old one, synced and renamed over it, and the original is kept under
        --backup. SQLite: the database is copied with VACUUM INTO first, then rows
        change in transactions of --batch-size with compare-and-swap updates, so a
        concurrent writer's newer value is never overwritten. A property list
        (a preferences file): its Data values holding archives are the records,
        named by key path (prefs.plist:profile.current, …:recent[2]); the file is
        copied, then rewritten once per batch in its own format, every other value
        and the key order kept, read back and compared before it is renamed over
        the old one. In each case a journal
        (BACKUP/RUN/journal.jsonl) records every change; 'migrate --rollback
        JOURNAL' restores the originals. A Keychain snapshot: each item's data is
        a record (keychain.json:genericPassword."com.example.auth".alice); the
        snapshot is never changed, the migrated items go to --new-snapshot FILE,
        a new file, or on Apple platforms --apply-to-keychain updates the items
        in place with SecItemUpdate. Ctrl-C stops after the current batch.
        Running migrate again after it finished changes nothing and says so.
        A refusal the manifest accepts (<accepted>) is reported as accepted, is
        never rewritten, and does not fail the run while its category is the
        one listed.
        Text output may change between versions; --format json is stable.
      """,
    options: MigrateOptions.commonOptions + [
      backup, journal, rollback, KeychainMigrateOptions.newSnapshot,
    ],
    flags: MigrateOptions.commonFlags + [noBackup, KeychainMigrateOptions.applyToKeychain],
    exactlyOneOf: [[backup.name, noBackup.name]],
    exitStatus: """
        0  every record was rewritten, is already current, is not an archive, or is refused as the manifest accepts (rollback: all restored)
        1  a record was refused (or accepted under another category) or changed concurrently, or the run was interrupted (rollback: a conflict)
        2  the run could not proceed (bad arguments, unreadable store, SQLite or file-system failure)
      """)

  static let backup = Option<String?>.optional(
    "backup", valueName: "DIR",
    help: "Keep originals (or the database copy) and the journal under DIR.")
  static let journal = Option<String?>.optional(
    "journal", valueName: "FILE", help: "Write the journal to FILE.",
    defaultDescription: "inside the backup run folder")
  static let rollback = Option<String?>.optional(
    "rollback", valueName: "JOURNAL",
    help:
      "Undo the run a journal describes, instead of migrating (an encrypted store's key: --key-file or --key-env).",
    standalone: true, companions: ["key-file", "key-env"])
  static let noBackup = Flag(
    name: "no-backup", help: "Migrate without keeping the originals (no rollback).")

  static let command = Command(spec: spec) { arguments, context in
    // A report reader that goes away (`migrate … | head`) must not kill a run that writes the
    // store: the write fails with EPIPE instead, the run stops after the batch in hand, and
    // standard error says the store changed and where the journal is.
    signal(SIGPIPE, SIG_IGN)
    if let journal = arguments[rollback] {
      let encryption = try EncryptionOptions(arguments)
      return try runRollback(journal, key: try encryption.key(), context: context)
    }
    var options = try MigrateOptions(arguments)
    options.toolName = context.toolName
    let backup = arguments[MigrateCommand.backup]
    let setup = try options.makeSetup(context: context)
    options.adopt(setup.store)
    let store = try options.openStore(readOnly: false, console: context.console)
    try options.restrict(store, to: setup.store)
    try KeychainMigrateOptions.configure(store, arguments)
    let runDirectory = try backup.map { try makeRunDirectoryPath(backup: $0, store: store) }
    let journalPath = arguments[journal]
    let writer: any RecordWriter
    let lock: StoreLock
    do throws(MigrationError) {
      // One run per store: a second migrate or rollback refuses while this one writes.
      lock = try StoreLock(store: store.path)
      for removed in try store.removeStaleTemporaryFiles() {
        context.console.diagnose(
          .note, file: removed, category: nil,
          "removed a temporary file left by an interrupted migrate")
      }
      writer = try store.makeWriter(runDirectory: runDirectory, journalPath: journalPath)
    } catch {
      throw CommandFailure(error)
    }
    defer { lock.release() }
    let summary = try options.runEngine(
      store: store, setup: setup, writer: writer, operation: .migrate,
      console: context.console,
      onFailure: { _ in
        if let journal = writer.journalPath {
          context.console.diagnose(
            .note, file: journal, category: nil,
            "the journal lists every change made so far; 'migrate --rollback' undoes them")
        }
      }
    ) { summary in
      var notes: [(String, String)] = []
      if summary.rewritten == 0 {
        notes.append(
          (
            "store",
            "unchanged: nothing to migrate (\(summary.alreadyCurrent) already current, \(summary.refused) refused, \(summary.skipped) skipped"
              + (summary.accepted > 0 ? ", \(summary.accepted) accepted)" : ")")
          ))
      }
      if let snapshot = (store as? KeychainSnapshotStore)?.newSnapshotPath {
        notes.append(("newSnapshot", snapshot))
      }
      if let backupPath = writer.backupPath { notes.append(("backup", backupPath)) }
      if let journal = writer.journalPath {
        notes.append(("journal", journal))
        notes.append(
          ("rollback", "\(context.toolName) migrate --rollback \(journal)"))
      }
      if summary.interrupted {
        notes.append(("interrupted", "after \(summary.total) records; run migrate again to finish"))
      }
      return notes
    }
    return summary.hasFailures || summary.interrupted ? .findings : .success
  }

  /// `BACKUP/STORENAME-YYYYMMDDTHHMMSSZ-PID`, checked to lie outside the store.
  private static func makeRunDirectoryPath(backup: String, store: any RecordStore) throws -> String
  {
    let storeRoot = URL(fileURLWithPath: store.path).standardizedFileURL.resolvingSymlinksInPath()
      .path
    let backupRoot = URL(fileURLWithPath: backup).standardizedFileURL.resolvingSymlinksInPath().path
    if store is DirectoryStore, backupRoot == storeRoot || backupRoot.hasPrefix(storeRoot + "/") {
      throw CommandFailure(
        file: backup, category: .invalidOptions,
        message: "the backup folder is inside the store \(store.path); choose a folder outside it")
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let name = URL(fileURLWithPath: store.path).lastPathComponent
    return backup + "/" + name + "-" + formatter.string(from: Date()) + "-\(getpid())"
  }

  private static func runRollback(_ journal: String, key: StoreKey?, context: CommandContext)
    throws -> ExitStatus
  {
    let summary: MigrationRollback.Summary
    var lines = ""
    do throws(MigrationError) {
      summary = try MigrationRollback.run(journalPath: journal, key: key) { place, outcome in
        var line = outcome.name.padding(toLength: 18, withPad: " ", startingAt: 0) + place
        if case .conflict(let reason) = outcome { line += "  " + reason }
        lines += line + "\n"
        if lines.utf8.count > 1 << 16 {
          context.console.output(lines)
          lines = ""
        }
      }
    } catch {
      context.console.output(lines)
      throw CommandFailure(error)
    }
    context.console.output(
      lines
        + "\nrollback: \(summary.restored) restored, \(summary.alreadyOriginal) already original, \(summary.conflicts) conflicts\n"
    )
    for problem in summary.journalProblems {
      context.console.diagnose(.warning, file: journal, category: .journal, problem.description)
    }
    return summary.conflicts > 0 || !summary.journalProblems.isEmpty ? .findings : .success
  }
}
