import ArchiveHarness

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
        A refusal the manifest lists as <accepted key=... category=...
        reason=.../> is accepted (with the manifest's reason) while its category
        is the one listed, and category-changed when it is not; an accepted key
        that is no longer refused is a warning: remove it.
        --format html writes one self-contained page: the counts per decision and
        a table of records that can show only the refused ones.
        Text output may change between versions; --format json is stable.
      """,
    options: MigrateOptions.commonOptions,
    flags: MigrateOptions.commonFlags,
    exitStatus: """
        0  every record would be rewritten, is already current, is not an archive, or is refused as the manifest accepts
        1  a record would be refused (or accepted under another category), or the run was interrupted
        2  the run could not proceed (bad arguments, unreadable store, SQLite failure)
      """)

  static let command = Command(spec: spec) { arguments, context in
    var options = try MigrateOptions(arguments)
    options.toolName = context.toolName
    let migration = try options.open(.dryRun, context: context)
    let summary = try options.runEngine(
      migration, operation: .dryRun, console: context.console
    ) { summary in
      var notes: [(String, String)] = [("store", "unchanged (dry run)")]
      if summary.interrupted {
        notes.append(("interrupted", "after \(summary.total) records"))
      }
      return notes
    }
    return summary.hasFailures || summary.interrupted ? .findings : .success
  }
}
