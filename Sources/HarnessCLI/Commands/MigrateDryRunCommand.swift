import Migration

/// `archive-harness migrate-dry-run`: the plan for every record, and proof nothing was changed.
enum MigrateDryRunCommand {
  static let spec = CommandSpec(
    name: "migrate-dry-run",
    abstract: "Show what migrate would do to every record of a store, changing nothing.",
    discussion: """
        Every record is read, migrated, re-read and compared exactly as migrate
        would, but nothing is written: SQLite stores are opened read-only and
        files are only read. Each record gets one line: will-rewrite,
        already-current, refused (with the failed step, the reason, and what the
        app's own read does with it today) or skipped (NULL or not an archive).
        --format html writes one self-contained page: the counts per decision and
        a table of records that can show only the refused ones.
        Text output may change between versions; --format json is stable.
      """,
    options: MigrateOptions.commonOptions,
    flags: MigrateOptions.commonFlags,
    exitStatus: """
        0  every record would be rewritten, is already current, or is not an archive
        1  a record would be refused, or the run was interrupted
        2  the run could not proceed (bad arguments, unreadable store, SQLite failure)
      """)

  static let command = Command(spec: spec) { arguments, context in
    let options = try MigrateOptions(arguments)
    let transform = try options.makeTransform(context: context)
    let store = try options.openStore(readOnly: true)
    let summary = try options.runEngine(
      store: store, transform: transform, writer: nil, operation: .dryRun,
      console: context.console
    ) { summary in
      var notes: [(String, String)] = [("store", "unchanged (dry run)")]
      if summary.interrupted {
        notes.append(("interrupted", "after \(summary.total) records"))
      }
      return notes
    }
    return summary.refused > 0 || summary.interrupted ? .findings : .success
  }
}
