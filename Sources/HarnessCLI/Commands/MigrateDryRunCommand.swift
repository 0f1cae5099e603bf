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
    let options = try MigrateOptions(arguments, spec: spec)
    let transform = try options.makeTransform(arguments, context: context)
    let store = try options.openStore(readOnly: true)
    let engine = MigrationEngine(
      store: store, migrator: RecordMigrator(transform: transform), writer: nil,
      batchSize: options.batchSize)
    let (report, close) = try options.makeReport(console: context.console)
    defer { close() }
    let total = try? store.recordCount()
    let progress = MigrateProgress(console: context.console, total: total ?? nil)
    let interrupt = MigrateInterrupt()
    interrupt.install()
    defer { interrupt.remove() }
    report.begin(store: store.path, mode: transform.name, operation: .dryRun)
    let summary: MigrationSummary
    do throws(MigrationError) {
      summary = try engine.run(
        onRecord: report.record, onProgress: progress.update,
        shouldStop: { interrupt.isRaised })
    } catch {
      progress.finish()
      throw CommandFailure(place: error.place, category: error.code.name, message: error.message)
    }
    progress.finish()
    var notes: [(String, String)] = [("store", "unchanged (dry run)")]
    if summary.interrupted {
      notes.append(("interrupted", "after \(summary.total) records"))
    }
    report.finish(summary, notes: notes)
    return summary.refused > 0 || summary.interrupted ? .findings : .success
  }
}
