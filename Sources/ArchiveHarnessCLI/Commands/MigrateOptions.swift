import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Dispatch
import Foundation
import _ArchiveHarnessSystem

/// The options `migrate-dry-run` and `migrate` share, and the store, transform and report they make.
struct MigrateOptions {
  /// `--store`.
  var storePath: String
  /// `--manifest`, if given.
  var manifestPath: String?
  /// `--schema`, if given.
  var schemaPath: String?
  /// Renames from `--class-map`.
  var mapping: ClassNameMapping
  /// `--table`, if given.
  var table: String?
  /// `--key-column`.
  var keyColumn: String
  /// `--value-column`.
  var valueColumn: String
  /// `--entity` and `--attribute`, for a Core Data store.
  var coreData: CoreDataSelection?
  /// `--allowed-classes`, added to the manifest's.
  var allowedClasses: [String]
  /// `--rename-only`.
  var renameOnly: Bool
  /// `--nested`.
  var nested: Bool
  /// `--show-keys`: an encrypted store's rows are named by their keys.
  var showKeys: Bool
  /// `--format`.
  var format: MigrationReportWriter.Format
  /// `--output`, if given.
  var outputPath: String?
  /// `--batch-size`.
  var batchSize: Int
  /// The running tool's name, which reports give.
  var toolName = ToolName.standard
  /// `--key-file` or `--key-env`, and the cipher settings, for an encrypted store.
  var encryption: EncryptionOptions

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
  /// - Throws: `UsageError` for `--class-map` pairs that are not `OLD=NEW` or map a name twice.
  init(_ arguments: ParsedArguments) throws {
    storePath = arguments[Self.store]
    manifestPath = arguments[Self.manifest]
    schemaPath = arguments[SchemaOption.option]
    do {
      mapping = try ClassNameMapping(pairs: arguments[Self.classMap])
    } catch {
      throw UsageError(message: error.message)
    }
    allowedClasses = arguments[Self.allowedClasses]
    table = arguments[Self.table]
    keyColumn = arguments[Self.keyColumn]
    valueColumn = arguments[Self.valueColumn]
    coreData = try Self.coreDataSelection(arguments)
    renameOnly = arguments[Self.renameOnly]
    nested = arguments[Self.nested]
    showKeys = arguments[Self.showKeys]
    if nested, !renameOnly {
      throw UsageError(
        message: "--nested renames classes inside nested archives: use it with --rename-only")
    }
    format = arguments[Self.format]
    outputPath = arguments[Self.output]
    batchSize = arguments[Self.batchSize]
    encryption = try EncryptionOptions(arguments)
  }

  /// Whether the store path is a folder.
  var storeIsDirectory: Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: storePath, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// Opens the store: a folder, a property list, or an SQLite table (which needs `--table`),
  /// encrypted with `--key-file` or `--key-env`.
  ///
  /// An encrypted store's settings are found (or taken from the options), and
  /// which ones opened it is printed as a note.
  func openStore(readOnly: Bool, console: Console) throws -> any RecordStore {
    guard FileManager.default.fileExists(atPath: storePath) else {
      throw CommandFailure(
        file: storePath, category: .storeNotFound, message: "no such file or folder")
    }
    do {
      if storeIsDirectory {
        if table != nil || coreData != nil {
          throw CommandFailure(
            file: storePath, category: .invalidOptions,
            message: "--table and --entity apply to SQLite stores; this store is a folder")
        }
        if encryption.isGiven {
          throw CommandFailure(
            file: storePath, category: .invalidOptions,
            message: "--key-file and --key-env apply to SQLite stores; this store is a folder")
        }
        return try DirectoryStore(path: storePath)
      }
      if let snapshot = try openKeychainSnapshot() { return snapshot }
      if PropertyListStore.looksLikePropertyList(atPath: storePath) {
        if table != nil || coreData != nil || encryption.isGiven {
          throw CommandFailure(
            file: storePath, category: .invalidOptions,
            message:
              "--table, --entity, --key-file and --key-env apply to SQLite stores; this store is a property list"
          )
        }
        return try PropertyListStore(path: storePath)
      }
      if let coreData {
        return try openEntityStore(coreData, readOnly: readOnly, console: console)
      }
      guard let table else {
        throw CommandFailure(
          file: storePath, category: .invalidOptions,
          message:
            "an SQLite store needs --table (and --key-column, --value-column unless 'key' and 'value'), or a Core Data store --entity and --attribute"
        )
      }
      let keys = try encryption.open(storePath, console: console)
      let store = try SQLiteStore(
        path: storePath, table: table, keyColumn: keyColumn, valueColumn: valueColumn,
        readOnly: readOnly, keys: keys)
      if showKeys { store.recordNaming = .clear }
      return store
    } catch let error as MigrationError {
      throw CommandFailure(error)
    }
  }

  /// What a run needs from the options: the transform, and the refusals the manifest accepts.
  struct Setup {
    /// The per-record transform.
    var transform: any RecordTransform
    /// The manifest's `<accepted>` refusals, for the engine.
    var acceptedRefusals: [AcceptedRefusal]
    /// The manifest's `<store>`: where the store's archives are.
    var store: Manifest.StoreShape? = nil
  }

  /// Takes the table and columns, or the entity and attribute, from the manifest's `<store>`
  /// when the command line names neither; the command line's options win.
  mutating func adopt(_ shape: Manifest.StoreShape?) {
    guard let shape, table == nil, coreData == nil else { return }
    switch shape.kind {
    case .sqlite:
      table = shape.table
      if let column = shape.keyColumn { keyColumn = column }
      if let column = shape.valueColumn { valueColumn = column }
    case .coreData:
      if let entity = shape.entity, let attribute = shape.attribute {
        coreData = CoreDataSelection(entity: entity, attribute: attribute)
      }
    case .folder, .propertyList:
      break
    }
  }

  /// A property-list store (or a Keychain snapshot) limited to the manifest's `<keyPath>`s, when it lists any.
  func restrict(_ store: any RecordStore, to shape: Manifest.StoreShape?) throws {
    guard let shape, shape.kind == .propertyList, !shape.keyPaths.isEmpty,
      store is PropertyListStore || store is KeychainSnapshotStore
    else { return }
    var patterns: [PropertyListKeyPathPattern] = []
    for text in shape.keyPaths {
      guard let pattern = PropertyListKeyPathPattern(parsing: text) else {
        throw CommandFailure(
          place: shape.location, category: .invalidManifest,
          message:
            "'\(text)' is not a key path (profile.current, recent[2], recent[*], \"a.b\")")
      }
      patterns.append(pattern)
    }
    (store as? PropertyListStore)?.restrict(to: patterns)
    // A Keychain snapshot's items are named by key paths too (`survey --author` lists them).
    (store as? KeychainSnapshotStore)?.restrict(to: patterns)
  }

  /// Loads `--manifest`, if given; semantic errors count only where they concern `<accepted>`.
  ///
  /// A migration does not need the manifest's archive files, so their semantic
  /// errors do not stop it; a duplicate accepted key, or an accepted refusal
  /// without a reason, would change what the run reports, so those do.
  private func loadManifest(context: CommandContext) throws -> Manifest? {
    guard let manifestPath else { return nil }
    let schema = try SchemaOption.source(schemaPath)
    let result = ManifestLoader.load(
      path: manifestPath, archivesDirectory: ".", schema: schema,
      registeredClasses: Set(context.configuration.registry.classNames))
    let acceptedPlaces = Set(result.manifest?.acceptedRefusals.flatMap(\.locations) ?? [])
    let errors = result.diagnostics.filter {
      $0.severity == .error && ($0.category != .semantic || acceptedPlaces.contains($0.location))
    }
    ManifestDiagnosticsPrinter.print(errors, to: context.console)
    guard let manifest = result.manifest, errors.isEmpty else {
      throw CommandFailure(
        file: manifestPath, category: .invalidManifest, message: "the manifest is not usable")
    }
    return manifest
  }

  /// The transform and the accepted refusals, from `--manifest` and the other options.
  func makeSetup(context: CommandContext) throws -> Setup {
    let manifest = try loadManifest(context: context)
    let accepted = (manifest?.acceptedRefusals ?? []).map {
      AcceptedRefusal(
        key: $0.key, category: $0.category, reason: $0.reason, place: $0.location)
    }
    return Setup(
      transform: try makeTransform(manifest: manifest, context: context),
      acceptedRefusals: accepted, store: manifest?.store)
  }

  /// The transform: rename-only, or the typed round trip over the app's registered classes.
  ///
  /// The class-name mapping and `allowedClasses` come from `--manifest`, with
  /// `--class-map` and `--allowed-classes` added.
  private func makeTransform(manifest: Manifest?, context: CommandContext) throws
    -> any RecordTransform
  {
    var mapping = ClassNameMapping()
    var allowed: [String] = []
    let fieldChanges = manifest?.migration.fieldChanges ?? []
    if let manifest {
      mapping = ClassNameMapping(Verifier.classMap(of: manifest).entries)
      // A version manifest written by manifest author states each entry's read: the classes
      // of all of them are what the app's reads allow between them.
      allowed =
        manifest.allowedClasses?.map(\.name)
        ?? Array(
          Set(manifest.archives.flatMap { ($0.allowedClasses ?? []).map(\.name) })
        ).sorted()
    }
    mapping = mapping.merging(self.mapping)
    allowed += allowedClasses
    if renameOnly {
      guard !mapping.isEmpty else {
        throw CommandFailure(
          file: manifestPath ?? "--class-map", category: .invalidOptions,
          message: "--rename-only needs a class-name mapping (--manifest or --class-map OLD=NEW)")
      }
      return RenameOnlyTransform(mapping: mapping, nested: nested)
    }
    guard !allowed.isEmpty else {
      throw CommandFailure(
        file: manifestPath ?? "--allowed-classes", category: .invalidOptions,
        message:
          "typed migration needs the allowedClasses of the app's secure read (--manifest or --allowed-classes)"
      )
    }
    do {
      // The app's init?(coder:) runs in decode workers, one per verifying thread.
      return try context.configuration.typedTransform(
        classMap: ClassNameMap(entries: mapping.names, fieldChanges: fieldChanges),
        allowedClasses: allowed)
    } catch {
      throw CommandFailure(
        file: context.toolName, category: .workerUnavailable, message: error.description)
    }
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
  ///   - store: The store to migrate or plan.
  ///   - setup: The per-record transform and the refusals the manifest accepts.
  ///   - writer: The writer, or nil for a dry run.
  ///   - operation: Which command the report names.
  ///   - console: Where the report and progress go.
  ///   - onFailure: Called before a failed run's error is thrown, to add a diagnostic.
  ///   - notes: The report's closing notes, from the summary.
  /// - Returns: The run's summary.
  /// - Throws: `CommandFailure` when the run or the report output fails.
  func runEngine(
    store: any RecordStore, setup: Setup, writer: (any RecordWriter)?,
    operation: MigrationReportWriter.Operation, console: Console,
    onFailure: (MigrationError) -> Void = { _ in },
    notes: (MigrationSummary) -> [(String, String)]
  ) throws -> MigrationSummary {
    let transform = setup.transform
    let engine = MigrationEngine(
      store: store, migrator: RecordMigrator(transform: transform), writer: writer,
      batchSize: batchSize, acceptedRefusals: setup.acceptedRefusals)
    let output = try makeReport(console: console)
    let report = output.report
    let total = try? store.recordCount()
    let progress = MigrateProgress(console: console, total: total ?? nil)
    let interrupt = MigrateInterrupt()
    interrupt.install()
    defer { interrupt.remove() }
    report.begin(store: store.path, mode: transform.name, operation: operation)
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
      summary = try engine.run(
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
