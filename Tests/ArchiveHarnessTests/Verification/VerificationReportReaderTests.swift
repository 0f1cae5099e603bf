import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Testing

/// A JSON report read back renders as the report it was written from, in every format.
@Suite("Reading JSON reports back")
struct VerificationReportReaderTests {
  static let run = RunParameters(
    manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0.1.0",
    platform: "Linux <b>x86_64</b>")

  /// The schema tests' report of every kind of value, with producers and run parameters.
  static let report: VerificationReport = {
    var report = JSONReportSchemaTests.report
    report.run = run
    for index in report.cases.indices {
      report.cases[index].producer = index == 0 ? "ProfilesApp 1.0" : nil
    }
    // Paths in the order a run records them: structure, then the decode paths.
    report.cases[0].paths.insert(
      PathResult(
        path: .structure, outcome: .rejected, category: .rejection(.malformed),
        message: "structure: <b>bold</b>", matches: false), at: 0)
    report.cases[0].paths.insert(
      PathResult(
        path: .decode(.secure), outcome: .decoded, matches: true,
        object: .array(className: "NSMutableArray", elements: [.integer(1), .string("x")])),
      at: 2)
    report.cases[0].paths.removeAll { $0.path == .decode(.secure) && $0.object == nil }
    return report
  }()

  /// The line of a case's `FILE:LINE:COLUMN`, which orders an unsharded run's cases.
  static func line(_ item: VerificationCase) -> Int {
    item.location.line
  }

  static func readBack(_ report: VerificationReport) throws -> VerificationReport {
    try VerificationReportReader().report(
      JSONDocument(parsing: JSONReportWriter().render(report)))
  }

  @Test("Text, JUnit and HTML of a report read back equal those of the report")
  func everyFormatRoundTrips() throws {
    let read = try Self.readBack(Self.report)
    #expect(
      TextReportWriter(verbose: true).render(read)
        == TextReportWriter(verbose: true).render(Self.report))
    #expect(JUnitReportWriter().render(read) == JUnitReportWriter().render(Self.report))
    let writer = HTMLReportWriter(parameters: Self.run)
    #expect(writer.render(read) == writer.render(Self.report))
    #expect(read.run == Self.run)
    #expect(read.cases.map(\.producer) == Self.report.cases.map(\.producer))
  }

  @Test("A privacy finding (verify --privacy) reads back as the privacy part, personal-data")
  func privacyFindingRoundTrips() throws {
    var report = Self.report
    report.cases[0].paths.append(
      PathResult(
        path: .privacy, outcome: .rejected, category: .personalData,
        message: "title: an email address", matches: false))
    let read = try Self.readBack(report)
    let privacy = try #require(read.cases[0].paths.first { $0.path == .privacy })
    #expect(privacy.category == .personalData)
    #expect(privacy.outcome == .rejected)
    #expect(
      TextReportWriter(verbose: true).render(read) == TextReportWriter(verbose: true).render(report)
    )
  }

  @Test("Merged shards read back render as the unsharded report, in every format")
  func mergedShardsRenderAsUnsharded() throws {
    let cases = ShardReportMergerTests.all + Self.report.cases
    let unsharded = VerificationReport(
      cases: cases.sorted { (Self.line($0), $0.archive) < (Self.line($1), $1.archive) },
      notes: Self.report.notes, manifestsDigest: ShardReportMergerTests.digest, run: Self.run)
    let shards = try (1...3).map { index in
      let shard = try #require(VerificationShard(index: index, count: 3))
      var part = unsharded
      part.shard = shard
      part.cases = unsharded.cases.filter {
        shard.contains(manifest: $0.manifest, archive: $0.archive)
      }
      return ("shard-\(index).json", try JSONDocument(parsing: JSONReportWriter().render(part)))
    }
    let merged = try ShardReportMerger().merge(shards.reversed())
    let read = try VerificationReportReader().report(
      JSONDocument(parsing: merged.render(sortedKeys: true)))
    #expect(read.cases.map(\.name) == unsharded.cases.map(\.name))
    #expect(read.cases.map(\.status) == unsharded.cases.map(\.status))
    #expect(TextReportWriter().render(read) == TextReportWriter().render(unsharded))
    #expect(JUnitReportWriter().render(read) == JUnitReportWriter().render(unsharded))
    let writer = HTMLReportWriter(parameters: try #require(read.run))
    #expect(writer.render(read) == HTMLReportWriter(parameters: Self.run).render(unsharded))
  }

  @Test("A report of another serialization version is refused at its version")
  func refusesOtherVersion() throws {
    let document = try JSONDocument(
      parsing: #"{"serializationVersion": 2, "cases": [], "notes": []}"#)
    let error = #expect(throws: VerificationReportReadError.self) {
      try VerificationReportReader().report(document)
    }
    #expect(error?.place == Place(.keyPath("$.serializationVersion")))
  }

  @Test("An unknown outcome is refused with its place")
  func refusesUnknownOutcome() throws {
    let text = JSONReportWriter().render(ShardReportMergerTests.unsharded)
      .replacingFirst(#""outcome": "decoded""#, with: #""outcome": "exploded""#)
    let error = #expect(throws: VerificationReportReadError.self) {
      try VerificationReportReader().report(JSONDocument(parsing: text))
    }
    #expect(error?.place.position == .keyPath("$.cases[0].paths.legacy.outcome"))
  }

  @Test("A decoded object without $class is refused")
  func refusesObjectWithoutClass() throws {
    let text = JSONReportWriter().render(ShardReportMergerTests.unsharded)
      .replacingFirst(
        #""matches": true"#, with: #""matches": true, "object": {"key": 1, "value": 2}"#)
    #expect(throws: VerificationReportReadError.self) {
      try VerificationReportReader().report(JSONDocument(parsing: text))
    }
  }
}

extension String {
  /// The text with its first occurrence of `target` replaced.
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = range(of: target) else { return self }
    return replacingCharacters(in: range, with: replacement)
  }
}
