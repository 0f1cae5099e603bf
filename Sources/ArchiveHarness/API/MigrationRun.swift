import ArchiveCoder
import ArchiveFormat
import ArchiveManifest
import Foundation
import _ArchiveHarnessSystem

/// One `migrate` or `migrate-dry-run` of a store, as a library call: the store opened, the
/// manifest's mapping, allowed classes and accepted refusals read, and every record read,
/// migrated, re-read and compared before anything is written.
///
/// `archive-harness migrate` and `migrate-dry-run` are adapters over this type: they turn
/// arguments into `Options`, print what ``run(shouldStop:)`` reports, and map its result to
/// an exit status. A team migrates a store from its own code or tests the same way:
///
/// ```swift
/// var options = MigrationRun.Options(store: "Library/notes.sqlite")
/// options.table = "notes"
/// options.manifest = "manifests/Notes-1.0.xml"
/// options.backup = "backups"  // nil: a dry run needs none; migrate needs one or noBackup
/// let run = try MigrationRun(configuration: configuration, options: options, mode: .migrate)
/// let summary = try run.run()
/// #expect(summary.refused == 0)
/// print(summary.rollbackJournal ?? "nothing changed")
/// ```
///
/// A run of mode `Mode.migrate` holds the store's lock (a second run on the same store
/// refuses at once) until the run is released, when it goes away.
public final class MigrationRun {
  /// What to migrate, and how.
  ///
  /// ```swift
  /// var options = MigrationRun.Options(store: "prefs.plist")
  /// options.classMap = ["NotesV1.Note": "NotesKit.Note"]
  /// options.renameOnly = true
  /// ```
  public struct Options: Sendable {
    /// The store: a folder of archive files, an SQLite database, a property list whose `Data`
    /// values hold archives, or a Keychain snapshot.
    public var store: String
    /// The manifest with the class-name mapping, `allowedClasses`, the accepted refusals and,
    /// in `<store>`, where the store's archives are.
    public var manifest: String?
    /// Archived class names and their new names, added to the manifest's mapping.
    public var classMap: [String: String] = [:]
    /// Classes the app's secure read allows, added to the manifest's.
    public var allowedClasses: [String] = []
    /// The SQLite table holding the archives (or the manifest's `<store table=…>`).
    public var table: String?
    /// The SQLite column naming a record.
    public var keyColumn = "key"
    /// The SQLite column holding the archive bytes.
    public var valueColumn = "value"
    /// A Core Data entity (`Z_PRIMARYKEY`'s `Z_NAME`), with ``attribute``, in place of a table.
    public var entity: String?
    /// The entity's attribute holding archives.
    public var attribute: String?
    /// Rewrite class names in place (no app classes needed) rather than decode and re-encode.
    public var renameOnly = false
    /// With ``renameOnly``, rename classes in archives kept as `Data` values in a record too.
    public var nested = false
    /// Name an encrypted store's rows by their keys (by default, rowid and a keyed hash).
    public var showKeys = false
    /// Records per batch, and per SQLite transaction.
    public var batchSize = 512
    /// A file holding an encrypted store's key: a passphrase, or `x'…'` for a raw key.
    public var keyFile: String?
    /// An environment variable holding an encrypted store's key (withheld from decode workers).
    public var keyEnvironmentVariable: String?
    /// Where originals and the journal go (`BACKUP/STORE-TIME-PID/`); `migrate` needs it
    /// unless ``noBackup`` is set.
    public var backup: String?
    /// Migrate without keeping the originals (no rollback).
    public var noBackup = false
    /// Where the journal goes, if not inside the backup's run folder.
    public var journal: String?
    /// A Keychain snapshot store: the new snapshot `migrate` writes (never the old one).
    public var newSnapshot: String?
    /// A Keychain snapshot store, on Apple platforms: update the Keychain's items in place.
    public var applyToKeychain = false
    /// The XSD the manifest is read against.
    public var schema: ManifestSchema.Source = .builtIn
    /// An encrypted store's cipher settings, when given rather than found.
    package var cipher: CipherOptions = CipherOptions()

    /// Options for the store at `store`, every other option at its default.
    ///
    /// ```swift
    /// let options = MigrationRun.Options(store: "Library/Caches/profiles")
    /// ```
    public init(store: String) {
      self.store = store
    }
  }

  /// An encrypted store's cipher settings, where the command line gives them.
  package struct CipherOptions: Sendable {
    package var compatibility: Int?
    package var pageSize: Int?
    package var kdfIterations: Int?
    package var kdfAlgorithm: SQLCipherSettings.Hash?
    package var hmacAlgorithm: SQLCipherSettings.Hash?
    package var plaintextHeaderSize: Int?
    package var salt: [UInt8]?

    package init() {}

    /// Whether any setting was given.
    package var isGiven: Bool {
      compatibility != nil || pageSize != nil || kdfIterations != nil || kdfAlgorithm != nil
        || hmacAlgorithm != nil || plaintextHeaderSize != nil || salt != nil
    }
  }

  /// Whether the run writes.
  public enum Mode: Sendable, Hashable {
    /// Read, migrate, re-read and compare every record; write nothing.
    case dryRun
    /// Rewrite every record that passed, with the backup and the journal.
    case migrate
  }

  /// Why a run could not start or go on, at a place: the store, a row, the manifest.
  ///
  /// ```swift
  /// do { _ = try MigrationRun(configuration: configuration, options: options, mode: .dryRun) }
  /// catch { print(error) }  // notes.sqlite: [store-not-found] no such file or folder
  /// ```
  public struct Problem: Error, Sendable, CustomStringConvertible {
    /// Where: the store file, a row, a manifest line.
    public var place: Place
    /// The category reports give it, such as `store-not-found` or `invalid-options`.
    public var category: DiagnosticCategory?
    /// What went wrong.
    public var message: String
    /// The manifest's diagnostics, when the manifest is what could not be used.
    public var diagnostics: [ManifestDiagnostic] = []

    /// `PLACE: [CATEGORY] MESSAGE`.
    public var description: String {
      "\(place): " + (category.map { "[\($0)] " } ?? "") + message
    }

    package init(
      place: Place, category: DiagnosticCategory?, message: String,
      diagnostics: [ManifestDiagnostic] = []
    ) {
      self.place = place
      self.category = category
      self.message = message
      self.diagnostics = diagnostics
    }

    package init(file: String, category: DiagnosticCategory?, message: String) {
      self.init(place: Place(file: file), category: category, message: message)
    }

    package init(_ error: MigrationError) {
      self.init(
        place: error.place, category: DiagnosticCategory(rawValue: error.code.name),
        message: error.message)
    }
  }

  /// What a run did, record by record counted.
  ///
  /// ```swift
  /// let summary = try run.run()
  /// if summary.hasFailures { print("\(summary.refused) refused") }
  /// ```
  public struct Summary: Sendable, Hashable {
    /// Records rewritten (`migrate`) or that would be (`dryRun`).
    public var rewritten: Int
    /// Records already in the current form.
    public var alreadyCurrent: Int
    /// Records refused: left as they are, each with its step and reason in the report.
    public var refused: Int
    /// Records refused as the manifest's `<accepted>` says.
    public var accepted: Int
    /// Records not archives (NULL, empty, other bytes).
    public var skipped: Int
    /// Whether the run stopped early, when asked to.
    public var interrupted: Bool
    /// The journal `migrate --rollback` undoes the run with; nil for a dry run or when
    /// nothing changed.
    public var rollbackJournal: String?
    /// Where the originals are kept.
    public var backup: String?

    /// Whether a record was refused (or accepted under another category).
    public var hasFailures: Bool { refused > 0 || categoryChanged > 0 }
    /// Accepted refusals whose category changed: failures too.
    package var categoryChanged = 0
  }

  /// A note a run has for its user: a temporary file removed, the cipher settings found.
  package struct Note: Sendable {
    package var place: Place
    package var message: String
  }

  /// The options the run was made with.
  public let options: Options
  /// Whether the run writes.
  public let mode: Mode
  /// The opened store.
  package let store: any RecordStore
  /// The per-record transform.
  package let transform: any RecordTransform
  /// The manifest's accepted refusals.
  package let acceptedRefusals: [AcceptedRefusal]
  /// The writer; nil for a dry run.
  package let writer: (any RecordWriter)?
  /// Notes from opening the store.
  package private(set) var notes: [Note] = []
  private let lock: StoreLock?

  /// Opens the store and reads the manifest; for `Mode.migrate`, takes the store's lock and
  /// opens the backup and journal (created when the first record changes).
  ///
  /// - Parameters:
  ///   - configuration: The harness's classes and decode workers; a typed migration decodes
  ///     with the registered classes in workers.
  ///   - options: The store and how to migrate it.
  ///   - mode: Whether to write.
  /// - Throws: `Problem` when the store, the manifest or the options cannot be used.
  public init(configuration: HarnessConfiguration, options: Options, mode: Mode) throws(Problem) {
    var options = options
    self.mode = mode
    if options.nested, !options.renameOnly {
      throw Problem(
        file: options.store, category: .invalidOptions,
        message: "nested renames classes inside nested archives: use it with renameOnly")
    }
    if (options.entity == nil) != (options.attribute == nil) {
      throw Problem(
        file: options.store, category: .invalidOptions,
        message: "entity and attribute go together: give both")
    }
    if options.keyFile != nil, options.keyEnvironmentVariable != nil {
      throw Problem(
        file: options.store, category: .invalidOptions,
        message: "give the key once: a key file or an environment variable, not both")
    }
    if mode == .migrate, options.backup == nil, !options.noBackup {
      throw Problem(
        file: options.store, category: .invalidOptions,
        message: "migrate keeps the originals under a backup folder; give one, or noBackup")
    }
    let manifest = try Self.loadManifest(options, configuration: configuration)
    Self.adopt(manifest?.store, into: &options)
    self.options = options
    transform = try Self.makeTransform(options, manifest: manifest, configuration: configuration)
    acceptedRefusals = (manifest?.acceptedRefusals ?? []).map {
      AcceptedRefusal(key: $0.key, category: $0.category, reason: $0.reason, place: $0.location)
    }
    var notes: [Note] = []
    let store = try Self.openStore(options, readOnly: mode == .dryRun, notes: &notes)
    self.store = store
    try Self.restrict(store, to: manifest?.store)
    try Self.configureKeychain(store, options: options, mode: mode)
    guard mode == .migrate else {
      writer = nil
      lock = nil
      self.notes = notes
      return
    }
    var runDirectory: String?
    if let backup = options.backup {
      runDirectory = try Self.runDirectoryPath(backup: backup, store: store)
    }
    do throws(MigrationError) {
      // One run per store: a second migrate or rollback refuses while this one writes.
      let lock = try StoreLock(store: store.path)
      self.lock = lock
      do throws(MigrationError) {
        for removed in try store.removeStaleTemporaryFiles() {
          notes.append(
            Note(
              place: Place(file: removed),
              message: "removed a temporary file left by an interrupted migrate"))
        }
        writer = try store.makeWriter(runDirectory: runDirectory, journalPath: options.journal)
      } catch {
        lock.release()
        throw error
      }
    } catch {
      throw Problem(error)
    }
    self.notes = notes
  }

  deinit {
    lock?.release()
  }

  /// The transform's name, as reports give it: `rename-only` or `typed`.
  package var transformName: String { transform.name }

  /// Runs the engine, reporting each record and the progress as they go.
  ///
  /// - Parameters:
  ///   - onRecord: Each record's plan, in store order.
  ///   - onProgress: The records done so far.
  ///   - shouldStop: Asked between batches; true stops the run after the batch in hand.
  /// - Returns: The engine's summary.
  /// - Throws: `MigrationError` when the run cannot go on; the journal lists what changed.
  package func runEngine(
    onRecord: (RecordPlan) -> Void, onProgress: (Int) -> Void,
    shouldStop: () -> Bool
  ) throws(MigrationError) -> MigrationSummary {
    let engine = MigrationEngine(
      store: store, migrator: RecordMigrator(transform: transform), writer: writer,
      batchSize: options.batchSize, acceptedRefusals: acceptedRefusals)
    return try engine.run(onRecord: onRecord, onProgress: onProgress, shouldStop: shouldStop)
  }

  /// Reads, migrates, re-reads and compares every record, and for `Mode.migrate` rewrites
  /// each one that passed.
  ///
  /// ```swift
  /// let summary = try run.run()
  /// ```
  ///
  /// - Parameter shouldStop: Asked between batches; true stops the run after the batch in hand.
  /// - Returns: The counts, and where the journal and backup are.
  /// - Throws: `Problem` when the run cannot go on (a write failed, the store went away);
  ///   the journal then lists every change made so far.
  public func run(shouldStop: () -> Bool = { false }) throws(Problem) -> Summary {
    let summary: MigrationSummary
    do throws(MigrationError) {
      summary = try runEngine(onRecord: { _ in }, onProgress: { _ in }, shouldStop: shouldStop)
    } catch {
      throw Problem(error)
    }
    return self.summary(of: summary)
  }

  /// The public summary of an engine's.
  package func summary(of summary: MigrationSummary) -> Summary {
    var result = Summary(
      rewritten: mode == .migrate ? summary.rewritten : summary.willRewrite,
      alreadyCurrent: summary.alreadyCurrent, refused: summary.refused,
      accepted: summary.accepted, skipped: summary.skipped, interrupted: summary.interrupted,
      rollbackJournal: writer?.journalPath, backup: writer?.backupPath)
    result.categoryChanged = summary.categoryChanged
    return result
  }

  // MARK: - Opening

  /// Loads the manifest, if given; semantic errors count only where they concern `<accepted>`.
  ///
  /// A migration does not need the manifest's archive files, so their semantic errors do not
  /// stop it; a duplicate accepted key, or an accepted refusal without a reason, would change
  /// what the run reports, so those do.
  private static func loadManifest(_ options: Options, configuration: HarnessConfiguration)
    throws(Problem) -> Manifest?
  {
    guard let path = options.manifest else { return nil }
    let result = ManifestLoader.load(
      path: path, archivesDirectory: ".", schema: options.schema,
      registeredClasses: Set(configuration.registry.classNames))
    let acceptedPlaces = Set(result.manifest?.acceptedRefusals.flatMap(\.locations) ?? [])
    let errors = result.diagnostics.filter {
      $0.severity == .error && ($0.category != .semantic || acceptedPlaces.contains($0.location))
    }
    guard let manifest = result.manifest, errors.isEmpty else {
      throw Problem(
        place: Place(file: path), category: .invalidManifest,
        message: "the manifest is not usable", diagnostics: errors)
    }
    return manifest
  }

  /// Takes the table and columns, or the entity and attribute, from the manifest's `<store>`
  /// when the options name neither; the options win.
  private static func adopt(_ shape: Manifest.StoreShape?, into options: inout Options) {
    guard let shape, options.table == nil, options.entity == nil else { return }
    switch shape.kind {
    case .sqlite:
      options.table = shape.table
      if let column = shape.keyColumn { options.keyColumn = column }
      if let column = shape.valueColumn { options.valueColumn = column }
    case .coreData:
      if let entity = shape.entity, let attribute = shape.attribute {
        options.entity = entity
        options.attribute = attribute
      }
    case .folder, .propertyList:
      break
    }
  }

  /// The transform: rename-only, or the typed round trip over the app's registered classes.
  private static func makeTransform(
    _ options: Options, manifest: Manifest?, configuration: HarnessConfiguration
  ) throws(Problem) -> any RecordTransform {
    var mapping = ClassNameMapping()
    var allowed: [String] = []
    let fieldChanges = manifest?.migration.fieldChanges ?? []
    if let manifest {
      mapping = ClassNameMapping(Verifier.classMap(of: manifest).entries)
      // A version manifest written by manifest author states each entry's read: the classes
      // of all of them are what the app's reads allow between them.
      allowed =
        manifest.allowedClasses?.map(\.name)
        ?? Array(Set(manifest.archives.flatMap { ($0.allowedClasses ?? []).map(\.name) }))
        .sorted()
    }
    mapping = mapping.merging(ClassNameMapping(options.classMap))
    allowed += options.allowedClasses
    if options.renameOnly {
      guard !mapping.isEmpty else {
        throw Problem(
          file: options.manifest ?? "--class-map", category: .invalidOptions,
          message: "--rename-only needs a class-name mapping (--manifest or --class-map OLD=NEW)")
      }
      return RenameOnlyTransform(mapping: mapping, nested: options.nested)
    }
    guard !allowed.isEmpty else {
      throw Problem(
        file: options.manifest ?? "--allowed-classes", category: .invalidOptions,
        message:
          "typed migration needs the allowedClasses of the app's secure read (--manifest or --allowed-classes)"
      )
    }
    do throws(WorkerProtocolError) {
      // The app's init?(coder:) runs in decode workers, one per verifying thread.
      return try configuration.typedTransform(
        classMap: ClassNameMap(entries: mapping.names, fieldChanges: fieldChanges),
        allowedClasses: allowed)
    } catch {
      throw Problem(
        file: CommandLine.arguments.first ?? "harness", category: .workerUnavailable,
        message: error.description)
    }
  }

  /// Opens the store: a folder, a Keychain snapshot, a property list, a Core Data entity or an
  /// SQLite table, encrypted with the options' key.
  private static func openStore(_ options: Options, readOnly: Bool, notes: inout [Note])
    throws(Problem) -> any RecordStore
  {
    let path = options.store
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw Problem(file: path, category: .storeNotFound, message: "no such file or folder")
    }
    let keyGiven = options.keyFile != nil || options.keyEnvironmentVariable != nil
    let sqliteOnly = options.table != nil || options.entity != nil || keyGiven
    if options.cipher.isGiven, !keyGiven {
      throw Problem(
        file: path, category: .invalidOptions,
        message: "cipher settings need the store's key: --key-file or --key-env")
    }
    do {
      if isDirectory.boolValue {
        if options.table != nil || options.entity != nil {
          throw Problem(
            file: path, category: .invalidOptions,
            message: "--table and --entity apply to SQLite stores; this store is a folder")
        }
        if keyGiven {
          throw Problem(
            file: path, category: .invalidOptions,
            message: "--key-file and --key-env apply to SQLite stores; this store is a folder")
        }
        return try DirectoryStore(path: path)
      }
      if KeychainSnapshot.looksLikeSnapshot(atPath: path) {
        if sqliteOnly {
          throw Problem(
            file: path, category: .invalidOptions,
            message:
              "--table, --entity, --key-file and --key-env apply to SQLite stores; this store is a Keychain snapshot"
          )
        }
        return try KeychainSnapshotStore(path: path)
      }
      if PropertyListStore.looksLikePropertyList(atPath: path) {
        if sqliteOnly {
          throw Problem(
            file: path, category: .invalidOptions,
            message:
              "--table, --entity, --key-file and --key-env apply to SQLite stores; this store is a property list"
          )
        }
        return try PropertyListStore(path: path)
      }
      let keys = try openKeys(options, notes: &notes)
      let store: SQLiteStore
      if let entity = options.entity, let attribute = options.attribute {
        store = try SQLiteStore(
          path: path, entity: entity, attribute: attribute, readOnly: readOnly, keys: keys)
      } else if let table = options.table {
        store = try SQLiteStore(
          path: path, table: table, keyColumn: options.keyColumn,
          valueColumn: options.valueColumn, readOnly: readOnly, keys: keys)
      } else {
        throw Problem(
          file: path, category: .invalidOptions,
          message:
            "an SQLite store needs --table (and --key-column, --value-column unless 'key' and 'value'), or a Core Data store --entity and --attribute"
        )
      }
      if options.showKeys { store.recordNaming = .clear }
      return store
    } catch let problem as Problem {
      throw problem
    } catch let error as MigrationError {
      throw Problem(error)
    } catch {
      throw Problem(file: path, category: .internal, message: "\(error)")
    }
  }

  /// The store key, from the key file or the environment; nil when neither was given.
  package static func key(file: String?, environmentVariable: String?) throws(MigrationError)
    -> StoreKey?
  {
    if let file { return try StoreKey(contentsOfFile: file) }
    if let variable = environmentVariable {
      let key = try StoreKey(environmentVariable: variable)
      // Decode workers run app code: the key never reaches their environment.
      WorkerEnvironment.withhold(variable)
      return key
    }
    return nil
  }

  /// Opens an encrypted store's keys, noting which settings matched; nil without a key.
  private static func openKeys(_ options: Options, notes: inout [Note]) throws(MigrationError)
    -> SQLCipherKeys?
  {
    guard
      let keys = try openKeys(
        path: options.store, keyFile: options.keyFile,
        environmentVariable: options.keyEnvironmentVariable, cipher: options.cipher)
    else { return nil }
    notes.append(Note(place: Place(file: options.store), message: verifiedNote(keys)))
    return keys
  }

  /// Opens an encrypted store's keys from a key file or variable; nil when no key was given.
  ///
  /// The settings not given are found. `survey` and `diff` open their stores with it too.
  package static func openKeys(
    path: String, keyFile: String?, environmentVariable: String?, cipher: CipherOptions
  ) throws(MigrationError) -> SQLCipherKeys? {
    guard let key = try key(file: keyFile, environmentVariable: environmentVariable) else {
      return nil
    }
    let encryption = StoreEncryption(
      key: key, compatibility: cipher.compatibility, pageSize: cipher.pageSize,
      kdfIterations: cipher.kdfIterations, kdfAlgorithm: cipher.kdfAlgorithm,
      hmacAlgorithm: cipher.hmacAlgorithm, plaintextHeaderSize: cipher.plaintextHeaderSize,
      salt: cipher.salt)
    return try encryption.open(path: path)
  }

  /// The note that says which settings opened an encrypted store.
  package static func verifiedNote(_ keys: SQLCipherKeys) -> String {
    "encrypted: page 1 verified with \(keys.settings)"
  }

  /// A property-list store (or a Keychain snapshot) limited to the manifest's `<keyPath>`s.
  private static func restrict(_ store: any RecordStore, to shape: Manifest.StoreShape?)
    throws(Problem)
  {
    guard let shape, shape.kind == .propertyList, !shape.keyPaths.isEmpty,
      store is PropertyListStore || store is KeychainSnapshotStore
    else { return }
    var patterns: [PropertyListKeyPathPattern] = []
    for text in shape.keyPaths {
      guard let pattern = PropertyListKeyPathPattern(parsing: text) else {
        throw Problem(
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

  /// Tells a Keychain snapshot store where `migrate` writes; any other store refuses the options.
  private static func configureKeychain(_ store: any RecordStore, options: Options, mode: Mode)
    throws(Problem)
  {
    guard let snapshot = store as? KeychainSnapshotStore else {
      if options.newSnapshot != nil || options.applyToKeychain {
        throw Problem(
          file: store.path, category: .invalidOptions,
          message: "--new-snapshot and --apply-to-keychain apply to Keychain snapshot stores")
      }
      return
    }
    if options.newSnapshot != nil, options.applyToKeychain {
      throw Problem(
        file: store.path, category: .invalidOptions,
        message: "--new-snapshot and --apply-to-keychain exclude each other")
    }
    guard mode == .migrate else { return }
    snapshot.newSnapshotPath = options.newSnapshot
    snapshot.appliesToKeychain = options.applyToKeychain
  }

  /// `BACKUP/STORENAME-YYYYMMDDTHHMMSSZ-PID`, checked to lie outside the store.
  private static func runDirectoryPath(backup: String, store: any RecordStore) throws(Problem)
    -> String
  {
    let storeRoot = URL(fileURLWithPath: store.path).standardizedFileURL.resolvingSymlinksInPath()
      .path
    let backupRoot = URL(fileURLWithPath: backup).standardizedFileURL.resolvingSymlinksInPath().path
    if store is DirectoryStore, backupRoot == storeRoot || backupRoot.hasPrefix(storeRoot + "/") {
      throw Problem(
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
}
