import ArchiveHarness
import Foundation

/// `archive-harness survey STORE`: every place in a store that holds keyed archives, what each
/// holds, and the `migrate-dry-run` to run next; it writes nothing.
enum SurveyCommand {
  static let spec = CommandSpec(
    name: "survey",
    abstract: "Name every place in a store that holds keyed archives, and what each holds.",
    discussion: """
        STORE is an SQLite database (in the clear, or encrypted with --key-file or
        --key-env and the cipher options migrate takes), a folder (read with its
        subfolders, each folder one place), or one archive file. Nothing is written:
        SQLite is opened read-only through a VFS that writes no -shm or journal.
        For each table's text and blob columns, each folder, or the file: how many
        values are keyed archives (binary or XML), damaged ones (they start like a
        property list but do not read as a valid archive), NULLs, other blobs (JSON,
        a plain property list, text, binary) and non-blob values; the class sets and
        $top keys seen, most frequent first; the key column migrate would use (the
        INTEGER PRIMARY KEY, a single-column primary key, or a unique text column);
        and the migrate-dry-run to run next, with --key-file KEY_FILE in place of the
        key. A Core Data store (Z_PRIMARYKEY, Z_METADATA) is named by entity and
        attribute (ZBOOK.ZCOVER is Book.cover), with its model version.
        Every archive is read unless --sample N says otherwise.
        Text output may change between versions; --format json is stable.

        With --author FILE, it also writes a manifest for the store, the way
        'manifest author' does: a <store> element saying where the archives are
        (the table and columns, the Core Data entity and attribute, or the
        property list's key paths), a class map that maps every class name the
        archives hold (nested archives' included) to the harness's registered
        classes, and allowedClasses marked for review. Then
        'migrate-dry-run --store STORE --manifest FILE' needs no more options.
        When several columns hold archives, --place names the one to describe.
        For a Keychain snapshot that manifest is for migrate, and a note names the
        'manifest author' to run next: it declares the snapshot and records what
        each decode path does with each item's archive (<archive keychainItem>),
        which verify checks; survey runs no decode path.
      """,
    arguments: [store],
    options: [
      format, sample, limit, author, place, ManifestAuthorCommand.app,
      ManifestAuthorCommand.version, ManifestAuthorCommand.platform,
      ManifestAuthorCommand.produced, ManifestAuthorCommand.provenance,
    ] + EncryptionOptions.options,
    exitStatus: """
        0  the store was surveyed (and the manifest written)
        1  the manifest was written, with errors noted (a bad --produced date)
        2  the survey could not proceed (bad arguments, unreadable store, wrong key, a
           property list that is not a keyed archive, SQLite failure), or --author
           found no single place to describe
      """)

  static let store = Argument.single(
    "store", help: "An SQLite database, a folder of archive files, or one archive file.")
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Output format.",
    default: SurveyReportWriter.Format.text)
  static let sample = Option<Int?>.optional(
    "sample", valueName: "N",
    help:
      "Read at most N archives per place for their classes and $top keys; count the rest by their first bytes.",
    defaultDescription: "every archive is read",
    convert: ArgumentConversion.integer(in: 1...Int(Int32.max)))
  static let limit = Option.defaulted(
    "limit", valueName: "N", help: "Class sets and $top key sets listed per place.",
    default: 10, convert: ArgumentConversion.integer(in: 0...100_000))

  static let author = Option<String?>.optional(
    "author", valueName: "FILE",
    help:
      "Also write a manifest for the store: its <store>, class map and allowedClasses; a device or FIFO is written in place."
  )
  static let place = Option<String?>.optional(
    "place", valueName: "PLACE",
    help: "The place --author describes: TABLE.COLUMN, Entity.attribute or a key path.",
    defaultDescription: "the one place that holds archives")

  static let command = Command(spec: spec) { arguments, context in
    let path = arguments[store]
    if arguments[author] == "-" {
      throw UsageError(message: "--author needs a file: the survey itself goes to stdout")
    }
    try OutputWriting.check(arguments[author])
    let encryption = try EncryptionOptions(arguments)
    var isFolder: ObjCBool = false
    if encryption.isGiven, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
      isFolder.boolValue
    {
      throw CommandFailure(
        file: path, category: .invalidOptions,
        message: "--key-file and --key-env apply to SQLite stores; this store is a folder")
    }
    let keys = try encryption.open(path, console: context.console)
    let report: SurveyReport
    do throws(MigrationError) {
      report = try StoreSurvey(path: path, keys: keys, sampleLimit: arguments[sample]).run()
    } catch {
      throw CommandFailure(error)
    }
    let writer = SurveyReportWriter(
      format: arguments[format], toolName: context.toolName, listLimit: arguments[limit])
    context.console.output(writer.render(report))
    guard let manifestPath = arguments[author] else { return .success }
    let findings: ManifestAuthor.StoreFindings
    do throws(ManifestAuthor.StoreFindings.Problem) {
      findings = try ManifestAuthor.StoreFindings(report, place: arguments[place])
    } catch {
      throw CommandFailure(file: path, category: .invalidOptions, message: error.description)
    }
    let options = ManifestAuthorCommand.producerOptions(arguments, toolName: context.toolName)
    let result = ManifestAuthor(
      options: options, registeredClasses: Set(context.configuration.registry.classNames)
    ).storeManifest(findings, file: manifestPath)
    ManifestDiagnosticsPrinter.print(result.diagnostics, to: context.console)
    try OutputWriting.write(result.text, to: manifestPath, console: context.console)
    context.console.diagnose(
      .note, file: manifestPath, category: nil,
      "manifest written for \(findings.archives) archives; next: "
        + writer.dryRunCommand(manifest: manifestPath, in: report))
    if let next = writer.keychainAuthorCommand(in: report) {
      context.console.diagnose(
        .note, file: manifestPath, category: nil,
        "it does not verify the items' archives; to record what each decode path does with "
          + "them, in <archive keychainItem> entries verify checks: " + next)
    }
    return result.diagnostics.contains { $0.severity == .error } ? .findings : .success
  }
}

extension SurveyReportWriter.Format: ArgumentValue {}
