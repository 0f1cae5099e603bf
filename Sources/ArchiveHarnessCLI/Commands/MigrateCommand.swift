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
    options.run.backup = arguments[MigrateCommand.backup]
    options.run.noBackup = arguments[MigrateCommand.noBackup]
    options.run.journal = arguments[journal]
    options.run.newSnapshot = arguments[KeychainMigrateOptions.newSnapshot]
    options.run.applyToKeychain = arguments[KeychainMigrateOptions.applyToKeychain]
    if options.run.newSnapshot != nil, options.run.applyToKeychain {
      throw UsageError(message: "--new-snapshot and --apply-to-keychain exclude each other")
    }
    let migration = try options.open(.migrate, context: context)
    // The run holds the store's lock until it goes away: at the end of the command.
    defer { withExtendedLifetime(migration) {} }
    let store = migration.store
    guard let writer = migration.writer else {
      throw CommandFailure(
        file: store.path, category: .internal, message: "a migrate run opened without a writer")
    }
    let summary = try options.runEngine(
      migration, operation: .migrate, console: context.console,
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
