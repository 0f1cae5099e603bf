import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Dispatch
import Foundation
import _ArchiveHarnessSystem

/// The options `migrate-dry-run` and `migrate` share, read into a ``MigrationRun``'s options,
/// and the report and progress the commands print around the run.
struct MigrateOptions {
  /// What the library's run takes.
  var run: MigrationRun.Options
  /// `--format`.
  var format: MigrationReportWriter.Format
  /// `--output`, if given.
  var outputPath: String?
  /// The running tool's name, which reports give.
  var toolName = ToolName.standard

  static let store = Option<String>.required(
    "store", valueName: "PATH",
    help:
      "The store: a folder of archive files, an SQLite database file, a property list (a preferences file) whose Data values hold archives, or a Keychain snapshot (JSON)."
  )
  static let manifest = Option<String?>.optional(
    "manifest", valueName: "FILE",
    help: "The manifest with the class-name mapping, allowedClasses and expectations.")
  static let classMap = Option<[String]>.repeating(
    "class-map", valueName: "OLD=NEW",
    help: "An archived class name and its new name (repeatable; adds to the manifest's map).")
  static let allowedClasses = Option.defaulted(
    "allowed-classes", valueName: "A,B,...",
    help: "Classes the app's secure read allows (adds to the manifest's allowedClasses).",
    default: [], defaultDescription: nil, convert: ArgumentConversion.commaSeparated)
  static let table = Option<String?>.optional(
    "table", valueName: "TABLE", help: "The SQLite table holding the archives.")
  static let keyColumn = Option.defaulted(
    "key-column", valueName: "COLUMN", help: "The SQLite column identifying a record.",
    default: "key")
  static let valueColumn = Option.defaulted(
    "value-column", valueName: "COLUMN", help: "The SQLite column holding archive bytes.",
    default: "value")
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Report format.",
    default: MigrationReportWriter.Format.text)
  static let output = Option<String?>.optional(
    "output", valueName: "FILE",
    help: "Write the report to FILE ('-': stdout); a device or FIFO is written in place.")
  static let batchSize = Option.defaulted(
    "batch-size", valueName: "N", help: "Records per batch (and per SQLite transaction).",
    default: 512, convert: ArgumentConversion.integer(in: 1...100_000))
  static let renameOnly = Flag(
    name: "rename-only",
    help: "Rewrite class names in place (no user types needed), verified by re-reading the graph.")

  /// The options every migrate command declares.
  static let commonOptions: [any CommandOption] =
    [
      store, manifest, classMap, allowedClasses, SchemaOption.option, table, keyColumn,
      valueColumn, entity, attribute, format, output, batchSize,
    ] + EncryptionOptions.options

  static let nested = Flag(
    name: "nested",
    help:
      "With --rename-only, rename classes inside archives kept as Data values in a record too (each re-read and compared)."
  )

  /// The flags every migrate command declares.
  static let showKeys = Flag(
    name: "show-keys",
    help:
      "Name an encrypted store's rows by their keys in the report and the journal (by default: rowid and a keyed hash, as keys may be personal data)."
  )

  static let commonFlags = [renameOnly, nested, showKeys]

  /// Reads the options the parser has checked and converted.
  ///
  /// - Throws: `UsageError` for `--class-map` pairs that are not `OLD=NEW` or map a name twice,
  ///   `--nested` without `--rename-only`, or key options that do not fit together.
  init(_ arguments: ParsedArguments) throws {
    run = MigrationRun.Options(store: arguments[Self.store])
    run.manifest = arguments[Self.manifest]
    run.schema = try SchemaOption.source(arguments[SchemaOption.option])
    do throws(MigrationError) {
      run.classMap = try ClassNameMapping(pairs: arguments[Self.classMap]).names
    } catch {
      throw UsageError(message: error.message)
    }
    run.allowedClasses = arguments[Self.allowedClasses]
    run.table = arguments[Self.table]
    run.keyColumn = arguments[Self.keyColumn]
    run.valueColumn = arguments[Self.valueColumn]
    if let coreData = try Self.coreDataSelection(arguments) {
      run.entity = coreData.entity
      run.attribute = coreData.attribute
    }
    run.renameOnly = arguments[Self.renameOnly]
    run.nested = arguments[Self.nested]
    run.showKeys = arguments[Self.showKeys]
    if run.nested, !run.renameOnly {
      throw UsageError(
        message: "--nested renames classes inside nested archives: use it with --rename-only")
    }
    format = arguments[Self.format]
    outputPath = arguments[Self.output]
    run.batchSize = arguments[Self.batchSize]
    try EncryptionOptions(arguments).apply(to: &run)
  }

  /// Opens the run: the store, the manifest, and for `migrate` the lock, backup and journal;
  /// prints the notes the run has (the cipher settings found, temporary files removed).
  func open(_ mode: MigrationRun.Mode, context: CommandContext) throws -> MigrationRun {
    let migration: MigrationRun
    do throws(MigrationRun.Problem) {
      migration = try MigrationRun(
        configuration: context.configuration, options: run, mode: mode)
    } catch {
      ManifestDiagnosticsPrinter.print(error.diagnostics, to: context.console)
      throw CommandFailure(place: error.place, category: error.category, message: error.message)
    }
    for note in migration.notes {
      context.console.diagnose(.note, place: note.place, category: nil, note.message)
    }
    return migration
  }

  /// Where a run's report goes: its writer, the action that finishes it, and its first failure.
  struct ReportOutput {
    /// The report writer.
    var report: MigrationReportWriter
    /// Puts the report in place, or throws its first write failure.
    var finish: () throws -> Void
    /// The first failure to write the report so far, as a sentence; nil while every write went through.
    var failure: () -> String?
  }

  /// A report writer to stdout or `--output`, and a closing action that finishes the output.
  ///
  /// `--output` follows the one rule of `OutputDestination`: a regular or
  /// new file receives the report in a temporary file that the closing action
  /// renames into place; a device or FIFO receives it as it streams.
  func makeReport(console: Console) throws -> ReportOutput {
    guard let outputPath, outputPath != "-" else {
      return ReportOutput(
        report: MigrationReportWriter(format: format, sink: console.output, toolName: toolName),
        finish: {},
        failure: {
          StandardOutput.failedWith.map { "standard output: \(String(cString: strerror($0)))" }
        })
    }
    let file: OutputFile
    do throws(FileOutputError) {
      file = try SafeFileWriter.open(outputPath)
    } catch {
      throw CommandFailure(error)
    }
    let sink = ReportFileSink(file: file)
    let report = MigrationReportWriter(format: format, sink: sink.write, toolName: toolName)
    return ReportOutput(
      report: report, finish: sink.finish,
      failure: { sink.failure.map { "\($0.path): \($0.message)" } })
  }
}

extension MigrateOptions {
  /// Runs the engine over a store with the report, the progress line and Ctrl-C handling,
  /// which `migrate` and `migrate-dry-run` share, and finishes the report with `notes`.
  ///
  /// - Parameters:
  ///   - migration: The opened run.
  ///   - operation: Which command the report names.
  ///   - console: Where the report and progress go.
  ///   - onFailure: Called before a failed run's error is thrown, to add a diagnostic.
  ///   - notes: The report's closing notes, from the summary.
  /// - Returns: The run's summary.
  /// - Throws: `CommandFailure` when the run or the report output fails.
  func runEngine(
    _ migration: MigrationRun, operation: MigrationReportWriter.Operation, console: Console,
    onFailure: (MigrationError) -> Void = { _ in },
    notes: (MigrationSummary) -> [(String, String)]
  ) throws -> MigrationSummary {
    let store = migration.store
    let writer = migration.writer
    let output = try makeReport(console: console)
    let report = output.report
    let total = try? store.recordCount()
    let progress = MigrateProgress(console: console, total: total ?? nil)
    let interrupt = MigrateInterrupt()
    interrupt.install()
    defer { interrupt.remove() }
    report.begin(store: store.path, mode: migration.transformName, operation: operation)
    // A report that cannot be written is found before the store is touched.
    report.flush()
    if let failure = output.failure() {
      try output.finish()
      throw CommandFailure(
        file: outputPath ?? "<stdout>", category: .unwritable,
        message: "the report cannot be written (\(failure)); the store was not touched")
    }
    let summary: MigrationSummary
    do throws(MigrationError) {
      // A report that stops taking text stops the run after the batch in hand.
      summary = try migration.runEngine(
        onRecord: report.record, onProgress: progress.update,
        shouldStop: { interrupt.isRaised || output.failure() != nil })
    } catch {
      progress.finish()
      onFailure(error)
      // The records reported so far are still worth having.
      try? output.finish()
      throw CommandFailure(error)
    }
    progress.finish()
    report.finish(summary, notes: notes(summary))
    if let failure = output.failure(), let writer {
      Self.sayStoreChanged(summary, writer: writer, failure: failure, console: console)
    }
    do {
      try output.finish()
    } catch {
      if output.failure() == nil, let writer {
        Self.sayStoreChanged(summary, writer: writer, failure: "\(error)", console: console)
      }
      throw error
    }
    for stale in summary.acceptedNoLongerRefused {
      console.diagnose(.warning, place: stale.accepted.place, category: nil, stale.message)
    }
    return summary
  }

  /// Says on standard error, where the report could not go, that the store changed and
  /// where the journal is, so that the run can be checked and undone.
  private static func sayStoreChanged(
    _ summary: MigrationSummary, writer: any RecordWriter, failure: String, console: Console
  ) {
    guard summary.rewritten > 0 || writer.journalPath != nil else {
      console.diagnose(
        .note, file: "<report>", category: nil,
        "the report could not be written (\(failure)); the store was not changed")
      return
    }
    var message =
      "the report could not be written (\(failure)), but the store changed: \(summary.rewritten) records were rewritten"
      + (summary.interrupted ? " before the run stopped" : "")
    if let journal = writer.journalPath {
      message += "; the journal is \(journal), and 'migrate --rollback \(journal)' undoes the run"
    }
    console.diagnose(.warning, file: writer.journalPath ?? "<report>", category: nil, message)
  }
}

/// Streams report text into an `OutputFile`, keeping the first write error for the end.
private final class ReportFileSink {
  private let file: OutputFile
  private(set) var failure: FileOutputError?

  init(file: OutputFile) {
    self.file = file
  }

  /// Writes one chunk; after a failure, later chunks are dropped.
  func write(_ text: String) {
    guard failure == nil else { return }
    do throws(FileOutputError) {
      try file.write(text)
    } catch {
      failure = error
    }
  }

  /// Puts the report in place, or throws the first failure (leaving the path as it was).
  func finish() throws {
    if let failure {
      file.discard()
      throw CommandFailure(failure)
    }
    do throws(FileOutputError) {
      try file.commit()
    } catch {
      throw CommandFailure(error)
    }
  }
}

extension MigrationReportWriter.Format: ArgumentValue {}
