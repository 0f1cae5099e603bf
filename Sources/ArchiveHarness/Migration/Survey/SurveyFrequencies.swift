/// How many records had each set of names (a class set, a `$top` key set), within a bound on
/// how many different sets it tracks, so that memory stays flat however varied a store is.
///
/// Once ``capacity`` different sets are tracked, a record with a set not seen before is
/// counted in ``untrackedRecords`` alone.
///
/// ```swift
/// var frequencies = SurveyFrequencies(capacity: 1000)
/// frequencies.add(["NSArray", "ProfileKit.UserProfile"])
/// let (shown, more) = frequencies.mostFrequent(10)
/// ```
package struct SurveyFrequencies: Hashable, Sendable {
  /// One set and the number of records that had it.
  package struct Entry: Hashable, Sendable {
    /// The names, sorted by their UTF-8 bytes.
    package var names: [String]
    /// The records that had exactly these names.
    package var records: Int
  }

  /// What a bounded list leaves out: so many more sets, holding so many records.
  package struct Remainder: Hashable, Sendable {
    /// Sets not listed; a lower bound when ``isLowerBound``.
    package var sets: Int
    /// Records those sets hold.
    package var records: Int
    /// Whether some sets were never tracked, so that there may be more of them than `sets`.
    package var isLowerBound: Bool
  }

  /// The most different sets tracked.
  package let capacity: Int
  private var counts: [[String]: Int] = [:]
  /// Records whose set arrived once ``capacity`` sets were tracked and was not one of them.
  package private(set) var untrackedRecords = 0

  /// Creates an empty tally that tracks at most `capacity` different sets.
  package init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Counts one record's set, or `count` records'.
  package mutating func add(_ names: [String], count: Int = 1) {
    if let existing = counts[names] {
      counts[names] = existing + count
    } else if counts.count < capacity {
      counts[names] = count
    } else {
      untrackedRecords += count
    }
  }

  /// The number of records counted.
  package var total: Int { counts.values.reduce(untrackedRecords, +) }

  /// The `limit` most frequent sets (ties by their names), and what the list leaves out.
  package func mostFrequent(_ limit: Int) -> (shown: [Entry], remainder: Remainder?) {
    let sorted = counts.map { Entry(names: $0.key, records: $0.value) }.sorted { a, b in
      if a.records != b.records { return a.records > b.records }
      return a.names.lexicographicallyPrecedes(b.names) {
        $0.utf8.lexicographicallyPrecedes($1.utf8)
      }
    }
    let shown = Array(sorted.prefix(max(0, limit)))
    let hidden = sorted.dropFirst(shown.count)
    let records = hidden.reduce(untrackedRecords) { $0 + $1.records }
    guard records > 0 else { return (shown, nil) }
    return (
      shown,
      Remainder(
        sets: hidden.count + (untrackedRecords > 0 ? 1 : 0), records: records,
        isLowerBound: untrackedRecords > 0)
    )
  }
}
