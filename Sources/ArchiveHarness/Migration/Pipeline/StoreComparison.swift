import ArchiveCoder
import ArchiveFormat

/// One record of two stores (or two records named on the command line), compared.
///
/// ```swift
/// let result = StoreComparison().compare(oldRecord, newRecord)
/// if case .different(let differences) = result.outcome { differences.forEach { print($0) } }
/// ```
package struct RecordComparison: Sendable {
  /// What the comparison found.
  package enum Outcome: Sendable {
    /// The two values are equal graphs (or equal bytes).
    case same
    /// Both values are archives, and their graphs differ.
    case different([ArchiveDifference])
    /// Only the old store holds the record.
    case onlyInOld
    /// Only the new store holds the record.
    case onlyInNew
    /// A value is not a keyed archive (or no value at all), and the two differ: why, for each
    /// side that is not; `nil` for a side that is.
    case unreadable(old: String?, new: String?)
    /// The graphs are too large or too deep to compare.
    case tooLarge(ArchiveComparison.LimitExceeded)
  }

  /// The record in the old store; `nil` when only the new one holds it.
  package var old: RecordID?
  /// The record in the new store; `nil` when only the old one holds it.
  package var new: RecordID?
  /// What the comparison found.
  package var outcome: Outcome

  /// Creates a record's result.
  package init(old: RecordID?, new: RecordID?, outcome: Outcome) {
    self.old = old
    self.new = new
    self.outcome = outcome
  }

  /// The result with its differences' text masked (`ArchiveDifference.maskingText`): for the
  /// records of a Keychain snapshot, whose archives hold tokens.
  package var maskingText: RecordComparison {
    guard case .different(let differences) = outcome else { return self }
    return RecordComparison(
      old: old, new: new, outcome: .different(differences.map(\.maskingText)))
  }

  /// Whether the two records differ in any way.
  package var differs: Bool {
    if case .same = outcome { return false }
    return true
  }
}

/// Compares two copies of a store record by record, such as a backup and the store `migrate`
/// wrote, each record's archives as graphs (`ArchiveComparison`).
///
/// Records pair by where they are in their store: a file's path relative to the folder, a
/// row's key, a property list's key path, a Keychain item's class, service and account. The
/// two stores are read in step, a batch at a time, so two copies whose records come in one
/// order are compared in bounded memory; records that only one side has so far wait for their
/// counterpart, and those that never meet one are reported as only in one store.
///
/// ```swift
/// let comparison = StoreComparison(comparison: ArchiveComparison(classMap: map))
/// try comparison.compare(
///   try DirectoryStore(path: "Backups/run-1/files"), try DirectoryStore(path: "Store")
/// ) { record in
///   if record.differs { print(record.new ?? record.old as Any) }
/// }
/// ```
package struct StoreComparison: Sendable {
  /// How each pair of archives is compared.
  package var comparison: ArchiveComparison
  /// The limits each archive is read within.
  package var limits: ArchiveLimits
  /// How many records are read from each store at a time.
  package var batchSize: Int

  /// Creates a store comparison.
  ///
  /// - Parameters:
  ///   - comparison: How each pair of archives is compared (its class map, its limits).
  ///   - limits: The limits each archive is read within.
  ///   - batchSize: How many records are read from each store at a time.
  package init(
    comparison: ArchiveComparison = ArchiveComparison(), limits: ArchiveLimits = .default,
    batchSize: Int = 256
  ) {
    self.comparison = comparison
    self.limits = limits
    self.batchSize = max(1, batchSize)
  }

  /// Compares two stores of one kind record by record, handing each record's result on.
  ///
  /// - Parameters:
  ///   - old: The store compared from (a backup).
  ///   - new: The store compared to (the migrated one).
  ///   - onRecord: Called for every record, the same ones too, in about the stores' order;
  ///     records only one store holds come last.
  /// - Throws: `MigrationError` when a store cannot be read, or the two are not of one kind
  ///   (a folder and an SQLite table).
  package func compare(
    _ old: any RecordStore, _ new: any RecordStore, onRecord: (RecordComparison) -> Void
  ) throws(MigrationError) {
    guard type(of: old) == type(of: new) else {
      throw MigrationError(
        .invalidOptions, file: new.path,
        "'\(old.path)' is \(Self.kindName(old)) and '\(new.path)' is \(Self.kindName(new)); "
          + "two copies of one store are compared")
    }
    let masking = old.holdsSecrets || new.holdsSecrets
    func report(_ record: RecordComparison) { onRecord(masking ? record.maskingText : record) }
    var waitingOld = Waiting()
    var waitingNew = Waiting()
    var oldDone = false
    var newDone = false
    while !oldDone || !newDone {
      let oldBatch = oldDone ? [] : try old.nextBatch(maximumCount: batchSize)
      let newBatch = newDone ? [] : try new.nextBatch(maximumCount: batchSize)
      oldDone = oldDone || oldBatch.isEmpty
      newDone = newDone || newBatch.isEmpty
      for record in oldBatch {
        let key = RecordKey(record.id)
        if let counterpart = waitingNew.take(key) {
          report(compare(record, counterpart))
        } else {
          waitingOld.add(record, key)
        }
      }
      for record in newBatch {
        let key = RecordKey(record.id)
        if let counterpart = waitingOld.take(key) {
          report(compare(counterpart, record))
        } else {
          waitingNew.add(record, key)
        }
      }
    }
    for record in waitingOld.remaining() {
      report(RecordComparison(old: record.id, new: nil, outcome: .onlyInOld))
    }
    for record in waitingNew.remaining() {
      report(RecordComparison(old: nil, new: record.id, outcome: .onlyInNew))
    }
  }

  /// Compares two records' values: equal bytes are the same; two archives compare as graphs;
  /// a value that is not an archive differs from any other value.
  ///
  /// - Parameters:
  ///   - old: The record compared from.
  ///   - new: The record compared to.
  /// - Returns: The result, naming both records.
  package func compare(_ old: StoreRecord, _ new: StoreRecord) -> RecordComparison {
    func result(_ outcome: RecordComparison.Outcome) -> RecordComparison {
      RecordComparison(old: old.id, new: new.id, outcome: outcome)
    }
    if old.content == new.content { return result(.same) }
    let before = read(old)
    let after = read(new)
    guard case .success(let oldArchive) = before, case .success(let newArchive) = after else {
      return result(.unreadable(old: before.reason, new: after.reason))
    }
    do throws(ArchiveComparison.LimitExceeded) {
      let differences = try comparison.differences(oldArchive, newArchive)
      return result(differences.isEmpty ? .same : .different(differences))
    } catch {
      return result(.tooLarge(error))
    }
  }

  /// A record's archive, or why it holds none.
  private func read(_ record: StoreRecord) -> Readable {
    switch record.content {
    case .bytes(let bytes):
      do throws(KeyedArchiveError) {
        return .success(try KeyedArchive(bytes: bytes, limits: limits))
      } catch {
        return .failure("not a keyed archive: \(error)")
      }
    case .null: return .failure("the value is NULL")
    case .unsupported(let reason), .refused(let reason): return .failure(reason)
    }
  }

  private static func kindName(_ store: any RecordStore) -> String {
    switch store {
    case is DirectoryStore: return "a folder"
    case is SQLiteStore: return "an SQLite table"
    case is PropertyListStore: return "a property list"
    case is KeychainSnapshotStore: return "a Keychain snapshot"
    default: return "a store of another kind"
    }
  }
}

/// A record's archive, or why it holds none.
private enum Readable {
  case success(KeyedArchive)
  case failure(String)

  var reason: String? {
    if case .failure(let reason) = self { return reason }
    return nil
  }
}

/// What pairs a record with its copy in another store: where it is in its store.
private enum RecordKey: Hashable {
  case file(String)
  case row(SQLiteValue)
  case value(PropertyListKeyPath)

  init(_ id: RecordID) {
    switch id.kind {
    case .file(_, let relativePath): self = .file(relativePath)
    case .row(_, let key, _): self = .row(key)
    case .propertyListValue(let keyPath): self = .value(keyPath)
    }
  }
}

/// The records of one side still waiting for their counterpart, in the order read.
private struct Waiting {
  private var records: [RecordKey: StoreRecord] = [:]
  private var order: [RecordKey] = []

  mutating func add(_ record: StoreRecord, _ key: RecordKey) {
    if records.updateValue(record, forKey: key) == nil { order.append(key) }
  }

  mutating func take(_ key: RecordKey) -> StoreRecord? {
    let record = records.removeValue(forKey: key)
    // Copies read in one order leave nothing waiting after each batch: forget the order too.
    if records.isEmpty { order.removeAll(keepingCapacity: true) }
    return record
  }

  func remaining() -> [StoreRecord] {
    order.compactMap { records[$0] }
  }
}
