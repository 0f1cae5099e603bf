import Foundation
import Migration

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
      """,
    arguments: [store],
    options: [format, sample, limit] + EncryptionOptions.options,
    exitStatus: """
        0  the store was surveyed
        2  the survey could not proceed (bad arguments, unreadable store, wrong key, a
           property list that is not a keyed archive, SQLite failure)
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

  static let command = Command(spec: spec) { arguments, context in
    let path = arguments[store]
    let encryption = try EncryptionOptions(arguments)
    var isFolder: ObjCBool = false
    if encryption.isGiven, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
      isFolder.boolValue
    {
      throw CommandFailure(
        place: path, category: .invalidOptions,
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
    return .success
  }
}

extension SurveyReportWriter.Format: ArgumentValue {}
