import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation

/// `archive-harness diff OLD NEW`: two archives compared as graphs at key paths, or, with
/// `--store`, two copies of a store compared record by record.
enum DiffCommand {
  static let spec = CommandSpec(
    name: "diff",
    abstract: "Compare two archives as graphs, or two copies of a store record by record.",
    discussion: """
        OLD and NEW are archive files or records of stores, written as reports name
        them: STORE:TABLE[KEY] for the 'value' column of a row (STORE:TABLE[COLUMN=KEY]
        names the key column, a trailing .COLUMN the value column),
        STORE:ENTITY[Z_PK].ATTRIBUTE for a Core Data attribute, PLIST:KEYPATH for a
        Data value of a property list, SNAPSHOT:CLASS.SERVICE.ACCOUNT for the data of
        a Keychain snapshot's item (genericPassword."com.example.auth".alice, or with
        the dots unquoted), FOLDER:FILE for a file of a folder. A key is 'text', a
        number, x'hex' or a bare word.

        The archives are compared as graphs from their $top entries, with no app code:
        objects pair by where they are reached, never by their UIDs, so one graph
        archived twice compares equal; sets and dictionaries compare without order; a
        shared reference or a cycle is followed once, and a reference shared on one
        side only is a difference. Each difference is a value added, removed, changed,
        or changed in type (1 became "1", true became 1, an object of another class),
        at its key path. --class-map and --class-map-file rename OLD's classes first.

        With --store, OLD and NEW are two copies of one store, such as a migrate backup
        and the migrated store: folders, property lists, Keychain snapshots (a snapshot
        and the one migrate --new-snapshot wrote), or SQLite databases read with
        --table (or --entity and --attribute). Records pair by their place in the store.

        Text output prints nothing when nothing differs; --format json is stable
        (schemas/diff.schema.json); --format html sets old and new side by side. Each
        prints the decoded values that differ (data as a byte count; a Keychain
        item's strings and URLs as their length only, since they hold tokens), never
        the bytes of an archive or a Keychain item.
      """,
    arguments: [old, new],
    options: [
      format, output, SharedOptions.classMap, SharedOptions.classMapFile, MigrateOptions.table,
      MigrateOptions.keyColumn, MigrateOptions.valueColumn, MigrateOptions.entity,
      MigrateOptions.attribute,
    ],
    flags: [store],
    exitStatus: """
        0  nothing differs
        1  something differs
        2  the run could not proceed (bad arguments, a missing file or record, a
           malformed place, an input that is not a keyed archive)
      """)

  static let old = Argument.single(
    "old", help: "The archive, store place or (with --store) store compared from.")
  static let new = Argument.single(
    "new", help: "The archive, store place or (with --store) store compared to.")
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Output format.", default: DiffReportWriter.Format.text)
  static let output = Option<String?>.optional(
    "output", short: "o", valueName: "FILE",
    help: "Write the report here, not to stdout; a device or FIFO is written in place.")
  static let store = Flag(
    name: "store",
    help: "Compare two copies of a store (folders, SQLite, property lists or Keychain snapshots).")

  /// The store options that only `--store` takes.
  static let storeOptions = [
    MigrateOptions.table.name, MigrateOptions.keyColumn.name, MigrateOptions.valueColumn.name,
    MigrateOptions.entity.name, MigrateOptions.attribute.name,
  ]

  static let command = Command(spec: spec) { arguments, context in
    try OutputWriting.check(arguments[output])
    let (classes, modules) = try ManifestAuthorCommand.teamClassMap(
      arguments[SharedOptions.classMap], files: arguments[SharedOptions.classMapFile],
      manifest: nil, console: context.console)
    let comparison = ArchiveComparison(
      classMap: ClassNameMap(entries: classes, moduleRenames: modules))
    let report: DiffReport
    if arguments[store] {
      report = try compareStores(arguments, comparison: comparison)
    } else {
      if let given = storeOptions.first(where: arguments.isGiven) {
        throw UsageError(
          message: "--\(given) names where a store's archives are: use it with --store")
      }
      report = try compareArchives(arguments[old], arguments[new], comparison: comparison)
    }
    let text = DiffReportWriter(format: arguments[format], toolName: context.toolName)
      .render(report)
    try OutputWriting.write(text, to: arguments[output], console: context.console)
    return report.differs ? .findings : .success
  }

  /// Two archives, each a file or a store place: both must read as keyed archives.
  static func compareArchives(_ oldText: String, _ newText: String, comparison: ArchiveComparison)
    throws -> DiffReport
  {
    let (oldPlace, oldRecord, oldArchive) = try archive(at: oldText)
    let (newPlace, newRecord, newArchive) = try archive(at: newText)
    let differences: [ArchiveDifference]
    do throws(ArchiveComparison.LimitExceeded) {
      differences = try comparison.differences(oldArchive, newArchive)
    } catch {
      throw CommandFailure(file: oldText, category: .limitExceeded, message: error.description)
    }
    var report = DiffReport(kind: .archives, old: oldText, new: newText)
    let record = RecordComparison(
      old: oldRecord.id, new: newRecord.id,
      outcome: differences.isEmpty ? .same : .different(differences))
    report.add(oldPlace.holdsSecrets || newPlace.holdsSecrets ? record.maskingText : record)
    return report
  }

  /// The place, the record it names and its archive; a diagnostic at the place when either is
  /// missing.
  static func archive(at text: String) throws -> (StorePlace, StoreRecord, KeyedArchive) {
    let place: StorePlace
    let record: StoreRecord
    do throws(MigrationError) {
      place = try StorePlace(parsing: text)
      record = try place.read()
    } catch {
      throw CommandFailure(error)
    }
    switch record.content {
    case .bytes(let bytes):
      return (place, record, try InspectCommand.readArchive(bytes, path: text, limits: .default))
    case .null:
      throw CommandFailure(
        place: record.id.place, category: .invalid, message: "the value is NULL, not an archive")
    case .unsupported(let reason), .refused(let reason):
      throw CommandFailure(
        place: record.id.place, category: .invalid, message: "\(reason), not an archive")
    }
  }

  /// Two copies of a store, record by record.
  static func compareStores(_ arguments: ParsedArguments, comparison: ArchiveComparison) throws
    -> DiffReport
  {
    let oldStore = try openStore(arguments[old], arguments)
    let newStore = try openStore(arguments[new], arguments)
    var report = DiffReport(kind: .stores, old: arguments[old], new: arguments[new])
    do throws(MigrationError) {
      try StoreComparison(comparison: comparison).compare(oldStore, newStore) { record in
        report.add(record)
      }
    } catch {
      throw CommandFailure(error)
    }
    return report
  }

  /// Opens a store read-only: a folder, a Keychain snapshot, a property list, or an SQLite
  /// table named by `--table` (or a Core Data attribute by `--entity` and `--attribute`).
  static func openStore(_ path: String, _ arguments: ParsedArguments) throws -> any RecordStore {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw CommandFailure(file: path, category: .storeNotFound, message: "no such file or folder")
    }
    let coreData = try MigrateOptions.coreDataSelection(arguments)
    let table = arguments[MigrateOptions.table]
    do throws(MigrationError) {
      if isFolder.boolValue {
        try refuseStoreOptions(arguments, path: path, storeKind: "a folder")
        return try DirectoryStore(path: path)
      }
      if KeychainSnapshot.looksLikeSnapshot(atPath: path) {
        try refuseStoreOptions(arguments, path: path, storeKind: "a Keychain snapshot")
        return try KeychainSnapshotStore(path: path)
      }
      if PropertyListStore.looksLikePropertyList(atPath: path) {
        try refuseStoreOptions(arguments, path: path, storeKind: "a property list")
        return try PropertyListStore(path: path)
      }
      if let coreData {
        return try SQLiteStore(
          path: path, entity: coreData.entity, attribute: coreData.attribute, readOnly: true)
      }
      guard let table else {
        throw MigrationError(
          .invalidOptions, file: path,
          "an SQLite store needs --table (and --key-column, --value-column unless 'key' and "
            + "'value'), or a Core Data store --entity and --attribute")
      }
      return try SQLiteStore(
        path: path, table: table, keyColumn: arguments[MigrateOptions.keyColumn],
        valueColumn: arguments[MigrateOptions.valueColumn], readOnly: true)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Refuses the options that only SQLite stores take, for a store of another kind.
  private static func refuseStoreOptions(
    _ arguments: ParsedArguments, path: String, storeKind: String
  ) throws(MigrationError) {
    if let given = storeOptions.first(where: arguments.isGiven) {
      throw MigrationError(
        .invalidOptions, file: path,
        "--\(given) applies to SQLite stores; this store is \(storeKind)")
    }
  }
}

extension DiffReportWriter.Format: ArgumentValue {}
