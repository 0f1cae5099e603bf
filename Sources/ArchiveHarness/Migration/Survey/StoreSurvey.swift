import ArchiveFormat

/// Names what is in a store, and writes nothing: every place that holds keyed archives (a
/// table's column, a folder, a file), what else each holds, and for SQLite stores written by
/// Core Data the entities, attributes and model version.
///
/// An SQLite store is opened read-only through the VFS that writes nothing, not even a `-shm`,
/// and each table is read once, in batches by rowid. Every value is recognised from its first
/// bytes; those that start like a property list are read with the project's bounded readers,
/// on every processor, for their class sets and `$top` keys. Memory stays flat however large
/// the store is.
///
/// ```swift
/// let report = try StoreSurvey(path: "cache.sqlite").run()
/// for place in report.archivePlaces {
///   print(place.place, place.archives, place.dryRunArguments(store: report.store) ?? [])
/// }
/// ```
package struct StoreSurvey: Sendable {
  /// The store: an SQLite database (in the clear, or encrypted with ``keys``), a folder, or
  /// one archive file.
  package var path: String
  /// An encrypted SQLite store's keys, from `StoreEncryption.open(path:)`.
  package var keys: SQLCipherKeys?
  /// Archives read per place for their classes, at most; `nil` (the default) reads every one.
  ///
  /// The others are counted by their first bytes, as `SurveyPlaceReport.notRead`.
  package var sampleLimit: Int?
  /// Different class sets (and `$top` key sets) tracked per place; more are counted, not named.
  package var setCapacity = 1000
  /// The readers' limits.
  package var limits = ArchiveLimits.default

  /// Describes a survey of a store.
  package init(path: String, keys: SQLCipherKeys? = nil, sampleLimit: Int? = nil) {
    self.path = path
    self.keys = keys
    self.sampleLimit = sampleLimit
  }

  /// Surveys the store.
  ///
  /// - Returns: Every place with its counts, in order.
  /// - Throws: `MigrationError`: the path is missing or unreadable; it is neither a folder, an
  ///   SQLite database nor a keyed archive (`MigrationError.Code.storeNotFound`); it is a
  ///   property list that is not a keyed archive (`MigrationError.Code.notSupported`); or
  ///   SQLite fails.
  package func run() throws(MigrationError) -> SurveyReport {
    let census = SurveyCensus(
      options: SurveyCensus.Options(
        sampleLimit: sampleLimit, setCapacity: setCapacity, limits: limits))
    let kind = DurableFile.kind(of: path)
    guard kind.exists else {
      throw MigrationError(.storeNotFound, file: path, "no such file or folder")
    }
    var report = SurveyReport(store: path, kind: .sqlite, places: [])
    report.sampleLimit = sampleLimit
    var isSQLite = false
    if !kind.isDirectory {
      isSQLite = try DurableFile.readPrefix(path, count: 16) == Self.sqliteHeader
    }
    if kind.isDirectory {
      if keys != nil {
        throw MigrationError(
          .invalidOptions, file: path, "a key applies to SQLite stores; this store is a folder")
      }
      report.kind = .folder
      report.files = try DirectorySurveySource(path: path).run(into: census)
    } else if keys != nil || isSQLite {
      report.kind = .sqlite
      report.encryption = keys?.settings
      report.coreData = try SQLiteSurveySource(path: path, keys: keys).run(
        into: census, report: &report)
    } else if KeychainSnapshot.looksLikeSnapshot(atPath: path) {
      report.kind = .keychainSnapshot
      report.files = 1
      try surveyKeychainSnapshot(into: census)
    } else {
      report.kind = try surveyFile(into: census)
      report.files = 1
    }
    census.flush()
    report.places = census.places.filter(\.isListed).sorted { $0.place < $1.place }
    return report
  }

  private static let sqliteHeader = Array("SQLite format 3\0".utf8)

  /// Surveys one file: a keyed archive, or a property list whose Data values are the places.
  private func surveyFile(into census: SurveyCensus) throws(MigrationError)
    -> SurveyReport.StoreKind
  {
    let read = try DurableFile.readFile(path, limit: limits.propertyList.maximumInputSize)
    guard let bytes = read.bytes else {
      throw MigrationError(
        .unreadable, file: path,
        "the file of \(read.size) bytes exceeds the reader's limit of \(limits.propertyList.maximumInputSize) bytes"
      )
    }
    let recognition = bytes.withUnsafeBytes { SurveyRecognition.recognise($0) }
    guard case .propertyList = recognition else {
      throw MigrationError(
        .storeNotFound, file: path,
        "neither a folder, an SQLite database nor a keyed archive (an encrypted SQLite store needs --key-file or --key-env)"
      )
    }
    if case .propertyList = SurveyExamination.examine(bytes, limits: limits) {
      // A property-list store (UserDefaults): one place per key path of a Data value.
      let store = try PropertyListStore(path: path)
      while case let batch = store.nextBatch(maximumCount: 512), !batch.isEmpty {
        for record in batch {
          guard case .propertyListValue(let keyPath) = record.id.kind,
            case .bytes(let value) = record.content
          else { continue }
          let place = census.place(.keyPath(keyPath.description))
          census.count(value, at: place, isBlob: true) { .file(record.id.description) }
        }
      }
      return .propertyList
    }
    let place = census.place(.file(path: path))
    census.count(bytes, at: place, isBlob: true) { .file(path) }
    return .file
  }
}
