import ArchiveFormat
import Dispatch

/// Counts what each place of a store holds, as sources of records feed it values.
///
/// A source (`SQLiteSurveySource`, `DirectorySurveySource`; a property-list store's key
/// paths later) names a place once, then hands over each value: NULL, a value that cannot hold
/// bytes, or bytes. Bytes are recognised at once from their first bytes; those that start like
/// a property list are copied and read in bunches, on every processor, with the project's
/// bounded readers. Memory holds one bunch (a few MiB) and a bounded tally per place.
final class SurveyCensus {
  /// What a census is told to do.
  struct Options {
    /// Archives read per place, at most; `nil` reads every one.
    var sampleLimit: Int?
    /// Different class sets (and `$top` key sets) tracked per place.
    var setCapacity = 1000
    /// The readers' limits.
    var limits = ArchiveLimits.default
    /// Bytes of candidates held before they are read.
    var bunchBytes = 8 << 20
    /// Candidates held before they are read.
    var bunchCount = 4096
    /// Threads that read a bunch.
    var workers = MigrationEngine.defaultWorkerCount
  }

  /// A value that starts like a property list, waiting to be read.
  private struct Candidate {
    var place: Int
    var record: SurveyRecordName
    var bytes: [UInt8]
    var format: PropertyListFormat
  }

  let options: Options
  private(set) var places: [SurveyPlaceReport] = []
  private var placeIndex: [SurveyPlace: Int] = [:]
  private var readPerPlace: [Int] = []
  private var pending: [Candidate] = []
  private var pendingBytes = 0

  init(options: Options) {
    self.options = options
  }

  /// The index of a place, which the other calls take; the place is added on first use.
  func place(_ place: SurveyPlace) -> Int {
    if let index = placeIndex[place] { return index }
    places.append(SurveyPlaceReport(place: place, classSetCapacity: options.setCapacity))
    readPerPlace.append(0)
    placeIndex[place] = places.count - 1
    return places.count - 1
  }

  /// Changes what a place's report says besides its counts (key column, Core Data names).
  func update(_ index: Int, _ change: (inout SurveyPlaceReport) -> Void) {
    change(&places[index])
  }

  /// Counts an SQL NULL.
  func countNull(at index: Int) {
    places[index].values += 1
    places[index].nulls += 1
  }

  /// Counts a value that cannot hold bytes (an SQL integer or real, a link in a folder).
  func countNonBlob(at index: Int) {
    places[index].values += 1
    places[index].nonBlobValues += 1
  }

  /// Counts a value's bytes, where they lie; they are copied only when they start like a
  /// property list.
  ///
  /// - Parameters:
  ///   - bytes: The value; valid for the call only.
  ///   - index: The place.
  ///   - isBlob: Whether the value is a BLOB (or a file), not TEXT.
  ///   - record: Names the record, for a damaged value's example; called only for candidates.
  func count(
    _ bytes: UnsafeRawBufferPointer, at index: Int, isBlob: Bool,
    record: () -> SurveyRecordName
  ) {
    places[index].values += 1
    if isBlob { places[index].blobValues += 1 }
    switch SurveyRecognition.recognise(bytes) {
    case .other(let kind):
      places[index].otherBlobs += 1
      places[index].otherKinds[kind, default: 0] += 1
    case .propertyList(let format):
      if let limit = options.sampleLimit, readPerPlace[index] >= limit {
        places[index].notRead += 1
        places[index].formats[format, default: 0] += 1
        return
      }
      readPerPlace[index] += 1
      if bytes.count > options.limits.propertyList.maximumInputSize {
        damaged(
          at: index, record: record(),
          reason:
            "\(bytes.count) bytes exceed the reader's input-size limit of \(options.limits.propertyList.maximumInputSize)"
        )
        return
      }
      enqueue(
        Candidate(place: index, record: record(), bytes: Array(bytes), format: format))
    }
  }

  /// Counts a value held in an array, without copying it.
  func count(_ bytes: [UInt8], at index: Int, isBlob: Bool, record: () -> SurveyRecordName) {
    let recognition = bytes.withUnsafeBytes { SurveyRecognition.recognise($0) }
    guard case .propertyList(let format) = recognition,
      options.sampleLimit.map({ readPerPlace[index] < $0 }) ?? true,
      bytes.count <= options.limits.propertyList.maximumInputSize
    else {
      bytes.withUnsafeBytes { count($0, at: index, isBlob: isBlob, record: record) }
      return
    }
    places[index].values += 1
    if isBlob { places[index].blobValues += 1 }
    readPerPlace[index] += 1
    enqueue(Candidate(place: index, record: record(), bytes: bytes, format: format))
  }

  private func enqueue(_ candidate: Candidate) {
    pendingBytes += candidate.bytes.count
    pending.append(candidate)
    if pendingBytes >= options.bunchBytes || pending.count >= options.bunchCount { flush() }
  }

  private func damaged(at index: Int, record: SurveyRecordName, reason: String) {
    places[index].damagedArchives += 1
    if places[index].damagedExamples.count < SurveyPlaceReport.maximumExamples {
      places[index].damagedExamples.append((record.description, reason))
    }
  }

  /// Reads every waiting candidate and counts what each is.
  func flush() {
    guard !pending.isEmpty else { return }
    let candidates = pending
    pending = []
    pendingBytes = 0
    let results = Self.examine(candidates.map(\.bytes), options: options)
    for (candidate, result) in zip(candidates, results) {
      let index = candidate.place
      switch result {
      case .archive(let facts):
        places[index].archives += 1
        places[index].formats[facts.format, default: 0] += 1
        places[index].classSets.add(facts.classes)
        places[index].topKeys.add(facts.topKeys)
        places[index].nestedArchives += facts.nestedArchives
        places[index].classNamesLeftOut +=
          Self.merge(facts.classNames, into: &places[index].classNames)
          + Self.merge(facts.nestedClassNames, into: &places[index].nestedClassNames)
      case .propertyList:
        places[index].otherBlobs += 1
        places[index].otherKinds[.propertyList, default: 0] += 1
      case .damaged(let reason):
        damaged(at: index, record: candidate.record, reason: reason)
      }
    }
  }

  /// Adds names to a place's set up to `SurveyPlaceReport.maximumClassNames`; returns how
  /// many new names were left out.
  private static func merge(_ names: Set<String>, into set: inout Set<String>) -> Int {
    var leftOut = 0
    for name in names where !set.contains(name) {
      if set.count < SurveyPlaceReport.maximumClassNames {
        set.insert(name)
      } else {
        leftOut += 1
      }
    }
    return leftOut
  }

  /// Reads values on every worker thread, each thread a contiguous slice; results in order.
  private static func examine(_ values: [[UInt8]], options: Options) -> [SurveyExamination] {
    let limits = options.limits
    let slices = max(1, min(options.workers, values.count / 8))
    let results = ResultSlots(count: values.count)
    let sliceSize = (values.count + slices - 1) / slices
    DispatchQueue.concurrentPerform(iterations: slices) { slice in
      let start = slice * sliceSize
      let end = min(values.count, start + sliceSize)
      guard start < end else { return }
      for index in start..<end {
        results.set(index, SurveyExamination.examine(values[index], limits: limits))
      }
    }
    return results.values
  }
}

/// One slot per value, each written by exactly one thread before ``values`` is read.
private final class ResultSlots: @unchecked Sendable {
  private let slots: UnsafeMutablePointer<SurveyExamination>
  private let count: Int

  init(count: Int) {
    self.count = count
    slots = .allocate(capacity: max(1, count))
    slots.initialize(repeating: .propertyList, count: count)
  }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  /// Writes a slot; distinct threads write distinct slots.
  func set(_ index: Int, _ value: SurveyExamination) {
    slots[index] = value
  }

  /// The slots, once every writer is done.
  var values: [SurveyExamination] { Array(UnsafeBufferPointer(start: slots, count: count)) }
}

/// Names a record for a damaged value's example: a row by its table and key, or a file.
enum SurveyRecordName: CustomStringConvertible {
  /// A row: the database, the table, the key column and its value (or the rowid).
  /// An encrypted store's row is named by a keyed hash of its key (`RecordKeyNaming`).
  case row(
    database: String, table: String, keyColumn: String, key: SQLiteValue, naming: RecordKeyNaming)
  /// A file, by its path.
  case file(String)

  var description: String {
    switch self {
    case .row(let database, let table, let keyColumn, let key, let naming):
      RecordID.row(
        database: database, table: table, keyColumn: keyColumn, key: key, rowid: nil,
        naming: naming
      )
      .description
    case .file(let path): path
    }
  }
}
