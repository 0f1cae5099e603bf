import ArchiveFormat

/// Merges the JSON reports of `verify --shard K/N` runs into the report of one unsharded run.
///
/// The shards must come from the same manifests (the same `manifestsDigest`),
/// have the same N, and be each of 1…N exactly once; anything else is refused
/// with `ShardMergeError`. Cases come back in the unsharded order: manifest,
/// then the entry's place in it. The summary is counted again; the run's
/// parameters (`run`) are the first shard's. `VerificationReportReader`
/// reads the merged report back for the HTML, JUnit and text writers.
///
/// ```swift
/// let merged = try ShardReportMerger().merge([("a.json", first), ("b.json", second)])
/// print(merged.render(sortedKeys: true))
/// ```
package struct ShardReportMerger: Sendable {
  /// Creates a merger.
  package init() {}

  /// Merges shard reports.
  ///
  /// - Parameter reports: Each report's file name (for errors) and its parsed JSON.
  /// - Returns: The merged report, in the shape `verify --format json` writes, without a shard.
  /// - Throws: `ShardMergeError` when the reports are not the N shards of one run.
  package func merge(_ reports: [(file: String, document: JSONDocument)]) throws(ShardMergeError)
    -> JSONValue
  {
    guard let first = reports.first else { throw ShardMergeError("no shard reports to merge") }
    var digest: String? = nil
    var count: Int? = nil
    var seen: [Int: String] = [:]
    var cases: [JSONDocument] = []
    var notes: [String] = []
    for report in reports {
      guard
        report.document["serializationVersion"]?.int64Value
          == JSONReportWriter.serializationVersion
      else {
        throw ShardMergeError("\(report.file): not a verify --format json report of this version")
      }
      guard case .string(let manifests)? = report.document["manifestsDigest"] else {
        throw ShardMergeError("\(report.file): the report names no manifestsDigest")
      }
      guard let index = report.document["shard"]?["index"]?.int64Value,
        let total = report.document["shard"]?["count"]?.int64Value,
        let shardIndex = Int(exactly: index), let shardCount = Int(exactly: total)
      else {
        throw ShardMergeError("\(report.file): not a shard report (no shard K/N)")
      }
      if let digest, digest != manifests {
        throw ShardMergeError(
          "\(report.file): made from other manifests than \(first.file) (manifestsDigest differs)")
      }
      if let count, count != shardCount {
        throw ShardMergeError(
          "\(report.file): shard \(shardIndex)/\(shardCount), but \(first.file) is one of \(count)")
      }
      if let earlier = seen[shardIndex] {
        throw ShardMergeError("\(report.file): shard \(shardIndex) again, already in \(earlier)")
      }
      digest = manifests
      count = shardCount
      seen[shardIndex] = report.file
      guard case .array(let items)? = report.document["cases"] else {
        throw ShardMergeError("\(report.file): the report has no cases")
      }
      cases += items
      if case .array(let reportNotes)? = report.document["notes"] {
        for case .string(let note) in reportNotes where !notes.contains(note) {
          notes.append(note)
        }
      }
    }
    let missing = (1...(count ?? 1)).filter { seen[$0] == nil }
    guard missing.isEmpty else {
      throw ShardMergeError(
        "missing shard \(missing.map(String.init).joined(separator: ", ")) of \(count ?? 1)")
    }
    let ordered = cases.map { (key: Self.orderKey($0), value: $0) }
      .sorted { $0.key < $1.key }.map(\.value)
    var counts: [VerificationCase.Status: Int64] = [:]
    for item in ordered {
      if case .string(let status)? = item["status"],
        let known = VerificationCase.Status(rawValue: status)
      {
        counts[known, default: 0] += 1
      }
    }
    var run: [(String, JSONValue)] = []
    if let parameters = first.document["run"] { run.append(("run", Self.value(parameters))) }
    if let containment = first.document["containment"] {
      run.append(("containment", Self.value(containment)))
    }
    return .object(
      run + [
        ("manifestsDigest", .string(digest ?? "")),
        ("serializationVersion", .integer(JSONReportWriter.serializationVersion)),
        ("cases", .array(ordered.map(Self.value))),
        ("notes", .array(notes.map(JSONValue.string))),
        (
          "summary",
          .object(
            [("total", .integer(Int64(ordered.count)))]
              + VerificationCase.Status.allCases.map { ($0.rawValue, .integer(counts[$0] ?? 0)) })
        ),
      ])
  }

  /// Manifest, then the entry's line and column in it (`FILE:LINE:COLUMN`).
  private static func orderKey(_ item: JSONDocument) -> OrderKey {
    guard case .string(let manifest)? = item["manifest"] else { return OrderKey() }
    var key = OrderKey(manifest: manifest)
    if case .string(let location)? = item["location"] {
      let parts = location.split(separator: ":").suffix(2).compactMap { Int($0) }
      if parts.count == 2 {
        key.line = parts[0]
        key.column = parts[1]
      }
    }
    if case .string(let archive)? = item["archive"] { key.archive = archive }
    return key
  }

  /// A parsed value as a value to write: integers stay exact integers, doubles stay doubles.
  private static func value(_ document: JSONDocument) -> JSONValue {
    switch document {
    case .object(let members):
      return .object(members.sorted { $0.key < $1.key }.map { ($0.key, value($0.value)) })
    case .array(let elements): return .array(elements.map(value))
    case .string(let text): return .string(text)
    case .integer(let number): return .integer(number)
    case .unsignedInteger(let number): return .unsignedInteger(number)
    case .number(let number): return .number(number)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    }
  }
}

/// Where a case sorts in a merged report.
private struct OrderKey: Comparable {
  var manifest = ""
  var line = 0
  var column = 0
  var archive = ""

  static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
    (lhs.manifest, lhs.line, lhs.column, lhs.archive)
      < (rhs.manifest, rhs.line, rhs.column, rhs.archive)
  }
}
