import ArchiveFormat

/// What a survey found in a store: every place that holds keyed archives, or other values, and
/// what it holds.
///
/// ```swift
/// let report = try StoreSurvey(path: "cache.sqlite").run()
/// for place in report.places where place.holdsArchives {
///   print(place.place, place.archives, place.classSets.mostFrequent(3).shown)
/// }
/// ```
package struct SurveyReport: Sendable {
  /// What the store is.
  package enum StoreKind: String, Hashable, Sendable {
    /// An SQLite database, in the clear or encrypted.
    case sqlite
    /// A folder of files, read recursively.
    case folder
    /// One archive file.
    case file
    /// A property list (UserDefaults) whose Data values hold archives.
    case propertyList = "property-list"
    /// A Keychain snapshot whose items' data hold archives.
    case keychainSnapshot = "keychain-snapshot"
  }

  /// The store, as given.
  package var store: String
  /// What the store is.
  package var kind: StoreKind
  /// The settings an encrypted store opened with; `nil` for one in the clear.
  package var encryption: SQLCipherSettings?
  /// The Core Data model, for a store with `Z_PRIMARYKEY` and `Z_METADATA`.
  package var coreData: CoreDataSchema?
  /// Every place that held a value other than NULL or text without archives, in order.
  package var places: [SurveyPlaceReport]
  /// Tables read (SQLite).
  package var tables = 0
  /// Columns read: those of text or blob affinity, the key column excepted (SQLite).
  package var columns = 0
  /// Rows read (SQLite).
  package var rows = 0
  /// Files read (folders).
  package var files = 0
  /// Tables not read, with the reason (virtual tables).
  package var skippedTables: [(table: String, reason: String)] = []
  /// At most this many archives per place were read for their classes; `nil` reads every one.
  package var sampleLimit: Int?

  /// The places that hold keyed archives, damaged ones included.
  package var archivePlaces: [SurveyPlaceReport] { places.filter(\.holdsArchives) }
}

/// One place and what it holds.
///
/// ```swift
/// let report = try StoreSurvey(path: "Books.sqlite").run()
/// if let cover = report.places.first(where: { $0.entity == "Book" && $0.attribute == "cover" }) {
///   print(cover.archives, cover.damagedArchives, cover.dryRunArguments(store: report.store) ?? [])
/// }
/// ```
package struct SurveyPlaceReport: Sendable {
  /// The place.
  package var place: SurveyPlace
  /// The column `migrate --key-column` would use, for a column.
  package var keyColumn: SurveyKeyColumn?
  /// Why a column's table has no key column `migrate` can use, if it has none.
  package var keyProblem: String?
  /// The Core Data entity the column belongs to: the nearest one that every row holding a value
  /// is or descends from (or the table's own entity when no row holds one).
  package var entity: String?
  /// The Core Data attribute the column holds (its name without `Z`, lowercased).
  package var attribute: String?
  /// The Core Data entities of the rows that hold a value, by name.
  package var entitiesSeen: [String] = []

  /// Values read: rows of the column, or files of the folder.
  package var values = 0
  /// Keyed archives that the bounded reader read and validated.
  package var archives = 0
  /// Values that start like a property list but do not read, or claim to be keyed archives
  /// and are not valid ones; `migrate` refuses them at its read step.
  package var damagedArchives = 0
  /// Values that start like a property list and were not read, past `--sample`.
  package var notRead = 0
  /// SQL NULLs.
  package var nulls = 0
  /// Values with bytes that are neither keyed archives nor damaged ones.
  package var otherBlobs = 0
  /// Values that cannot hold bytes: SQL integers and reals; in a folder, links, devices, FIFOs,
  /// and files that cannot be read or are over the size limit.
  package var nonBlobValues = 0
  /// Archives (and values not read past `--sample`) by format.
  package var formats: [PropertyListFormat: Int] = [:]
  /// Other blobs by what they look like.
  package var otherKinds: [SurveyOtherKind: Int] = [:]
  /// The archives' class sets: the archived class names of each archive's objects.
  package var classSets: SurveyFrequencies
  /// The archives' `$top` key sets.
  package var topKeys: SurveyFrequencies
  /// Every archived class name the archives' instances have, at most ``maximumClassNames``;
  /// what `survey --author` maps.
  package var classNames: Set<String> = []
  /// Keyed archives held in the archives' `Data` values (a profile's `NSColor` archives), to
  /// `NestedArchive.maximumDepth`.
  package var nestedArchives = 0
  /// The archived class names of the nested archives' instances, at most ``maximumClassNames``.
  package var nestedClassNames: Set<String> = []
  /// Class names not kept in ``classNames`` or ``nestedClassNames`` once either was full.
  package var classNamesLeftOut = 0
  /// The first damaged values, each with the record and the reader's reason.
  package var damagedExamples: [(record: String, reason: String)] = []
  /// Values stored as SQL BLOB (or files), as opposed to TEXT.
  package var blobValues = 0

  /// The most damaged values a place keeps as examples.
  package static let maximumExamples = 3
  /// The most class names a place keeps in ``classNames``, and in ``nestedClassNames``.
  package static let maximumClassNames = 4096

  /// Creates an empty place.
  package init(place: SurveyPlace, classSetCapacity: Int = 1000) {
    self.place = place
    classSets = SurveyFrequencies(capacity: classSetCapacity)
    topKeys = SurveyFrequencies(capacity: classSetCapacity)
  }

  /// The place as people name it: `Entity.attribute` for a Core Data column, else the place
  /// itself (`TABLE.COLUMN`, a folder, a file, a key path).
  package var name: String {
    if let entity, let attribute { return "\(entity).\(attribute)" }
    return place.description
  }

  /// Whether the place holds keyed archives (read, damaged, or not read past `--sample`).
  package var holdsArchives: Bool { archives + damagedArchives + notRead > 0 }

  /// Whether a report lists the place: it holds archives, blobs or files; a text column
  /// without archives is read but not listed.
  package var isListed: Bool { holdsArchives || blobValues > 0 || (nonBlobValues > 0 && isFolder) }

  private var isFolder: Bool {
    if case .folder = place { return true }
    return false
  }

  /// The arguments of the `migrate-dry-run` to run next for this place, after the tool's name;
  /// `nil` when there is none (a single file, or a table without a key column).
  ///
  /// - Parameters:
  ///   - store: The store's path, as the survey was given it.
  ///   - storeArguments: Arguments that open the store (the key's placeholder and cipher
  ///     settings for an encrypted one).
  /// - Returns: The arguments, with `--manifest MANIFEST.xml` standing for the store's manifest.
  package func dryRunArguments(store: String, storeArguments: [String] = []) -> [String]? {
    guard holdsArchives else { return nil }
    var arguments = ["migrate-dry-run", "--store"]
    switch place {
    case .file:
      return nil
    case .keyPath:
      arguments.append(store)
    case .folder(let relativePath):
      arguments.append(relativePath == "." ? store : store + "/" + relativePath)
    case .column(let table, let column):
      arguments.append(store)
      arguments += storeArguments
      if let entity, let attribute {
        arguments += ["--entity", entity, "--attribute", attribute]
      } else {
        guard let keyColumn else { return nil }
        arguments += ["--table", table, "--key-column", keyColumn.column, "--value-column", column]
      }
    }
    return arguments + ["--manifest", "MANIFEST.xml"]
  }

  /// Why ``dryRunArguments(store:storeArguments:)`` gives no command, when it gives none.
  package var noCommandReason: String? {
    guard holdsArchives else { return nil }
    switch place {
    case .file:
      return "migrate works on a folder or an SQLite store: put the file in a folder of its own"
    case .column:
      return entity == nil || attribute == nil ? keyProblem : nil
    case .folder, .keyPath:
      return nil
    }
  }
}
