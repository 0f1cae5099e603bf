import ArchiveFormat
import ArchiveHarness
import Testing

/// `report merge`: shard reports of one run become its report; anything else is refused.
@Suite("Merging shard reports")
struct ShardReportMergerTests {
  static let digest = String(repeating: "a", count: 64)

  static func entry(_ archive: String, line: Int, passed: Bool = true) -> VerificationCase {
    VerificationCase(
      manifest: "m.xml", archive: archive, location: Place(parsing: "m.xml:\(line):3"),
      paths: [
        PathResult(path: .decode(.legacy), outcome: .decoded, expected: .decodes, matches: passed)
      ], expectations: [])
  }

  static let all = [
    entry("a.archive", line: 10), entry("b.archive", line: 20, passed: false),
    entry("c.archive", line: 30), entry("d.archive", line: 40),
  ]

  /// All cases in one report, unsharded.
  static let unsharded = VerificationReport(cases: all, manifestsDigest: digest)

  /// The JSON report of one shard of ``all``.
  static func shard(
    _ index: Int, of count: Int, digest: String = digest,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (file: String, document: JSONDocument) {
    let shard = try #require(
      VerificationShard(index: index, count: count), sourceLocation: sourceLocation)
    let report = VerificationReport(
      cases: all.filter { shard.contains(manifest: $0.manifest, archive: $0.archive) },
      notes: ["a manifest note"], shard: shard, manifestsDigest: digest)
    let text = JSONReportWriter().render(report)
    return ("shard-\(index).json", try JSONDocument(parsing: text))
  }

  @Test("The shards merge into the unsharded report, for N = 1…8", arguments: 1...8)
  func mergeEqualsUnsharded(count: Int) throws {
    let shards = try (1...count).reversed().map { try Self.shard($0, of: count) }
    let merged = try ShardReportMerger().merge(shards)
    let unsharded = JSONReportWriter().document(
      VerificationReport(cases: Self.all, notes: ["a manifest note"], manifestsDigest: Self.digest))
    #expect(
      try JSONDocument(parsing: merged.render(sortedKeys: true))
        == JSONDocument(parsing: unsharded.render(sortedKeys: true)))
  }

  @Test("Shards of different manifests are refused")
  func refusesOtherManifests() throws {
    let other = String(repeating: "b", count: 64)
    #expect(throws: ShardMergeError.self) {
      try ShardReportMerger().merge([Self.shard(1, of: 2), Self.shard(2, of: 2, digest: other)])
    }
  }

  @Test("A missing shard is refused")
  func refusesMissingShard() throws {
    let error = #expect(throws: ShardMergeError.self) {
      try ShardReportMerger().merge([Self.shard(1, of: 3), Self.shard(3, of: 3)])
    }
    #expect(error?.message == "missing shard 2 of 3")
  }

  @Test("A repeated shard is refused")
  func refusesRepeatedShard() throws {
    #expect(throws: ShardMergeError.self) {
      try ShardReportMerger().merge([
        Self.shard(1, of: 2), Self.shard(1, of: 2), Self.shard(2, of: 2),
      ])
    }
  }

  @Test("Shards of different counts are refused")
  func refusesOtherCounts() throws {
    #expect(throws: ShardMergeError.self) {
      try ShardReportMerger().merge([Self.shard(1, of: 2), Self.shard(2, of: 3)])
    }
  }

  @Test("A report without a shard is refused")
  func refusesUnshardedReport() throws {
    let text = JSONReportWriter().render(
      VerificationReport(cases: Self.all, manifestsDigest: Self.digest))
    #expect(throws: ShardMergeError.self) {
      try ShardReportMerger().merge([("all.json", JSONDocument(parsing: text))])
    }
  }

  @Test("A report without a manifests digest is refused")
  func refusesReportWithoutDigest() throws {
    let shard = try #require(VerificationShard(index: 1, count: 1))
    let text = JSONReportWriter().render(VerificationReport(cases: Self.all, shard: shard))
    #expect(throws: ShardMergeError.self) {
      try ShardReportMerger().merge([("one.json", JSONDocument(parsing: text))])
    }
  }

  @Test("No reports at all are refused")
  func refusesNothing() {
    #expect(throws: ShardMergeError.self) { try ShardReportMerger().merge([]) }
  }
}
