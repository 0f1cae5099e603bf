import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

@testable import ArchiveHarness

/// The verify report streamed case by case is the writer's document, byte for byte, and a failed
/// run leaves a regular output path as it was.
@Suite("The streamed JSON report")
struct JSONReportStreamTests {
  static let digest = String(repeating: "d", count: 64)
  static let run = RunParameters(
    manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0.1.0",
    platform: "Linux")

  /// The shipped manifests verified with the harness paths in process, on `concurrency` threads.
  static func verifier(concurrency: Int, runner: (any DecodePathRunner)? = nil) -> Verifier {
    let registry = ManifestCase.registry
    return Verifier(
      registry: registry, runner: runner ?? InProcessPathRunner(registry: registry),
      paths: [.legacy, .secure], concurrency: concurrency)
  }

  /// The report a verifier streams, as the text the stream hands on.
  static func streamed(
    _ verifier: Verifier, shard: VerificationShard? = nil, notes: [String] = []
  ) throws -> String {
    var text = ""
    let stream = JSONReportStream(
      shard: shard, manifestsDigest: digest, run: run, sink: { text += $0 })
    try verifier.verify(
      ManifestCase.loaded.manifests, archivesDirectory: ManifestCase.archives, shard: shard
    ) { (item: VerificationCase) throws(FileOutputError) in
      try stream.write(item)
    }
    try stream.finish(notes: notes)
    return text
  }

  /// The same run rendered whole by the writer.
  static func written(
    _ verifier: Verifier, shard: VerificationShard? = nil, notes: [String] = []
  ) -> String {
    var report = verifier.verify(
      ManifestCase.loaded.manifests, archivesDirectory: ManifestCase.archives, shard: shard)
    report.manifestsDigest = digest
    report.run = run
    report.notes = notes
    return JSONReportWriter().render(report)
  }

  /// A report's cases streamed with its shard, digest, run and notes.
  static func streamed(_ report: VerificationReport) throws -> String {
    var text = ""
    let stream = JSONReportStream(
      shard: report.shard, manifestsDigest: report.manifestsDigest, run: report.run,
      sink: { text += $0 })
    for item in report.cases {
      try stream.write(item)
    }
    try stream.finish(notes: report.notes)
    return text
  }

  /// A folder of its own for a test that writes files.
  static func scratchFolder() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "report-stream-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test("The shipped manifests streamed give the writer's JSON, byte for byte")
  func shippedManifestsMatchTheWriter() throws {
    let verifier = Self.verifier(concurrency: 1)
    let streamed = try Self.streamed(verifier)
    #expect(ReportTimes.zeroed(streamed) == ReportTimes.zeroed(Self.written(verifier)))
    #expect(streamed.hasSuffix("}\n"))
  }

  @Test("The shipped manifests streamed in every worker path give the writer's JSON")
  func workerPathsMatchTheWriter() throws {
    let verifier = ManifestCase.verifier
    #expect(
      ReportTimes.zeroed(try Self.streamed(verifier))
        == ReportTimes.zeroed(Self.written(verifier)))
  }

  @Test("A shard and the report's notes are written as the writer writes them")
  func shardAndNotesMatchTheWriter() throws {
    let verifier = Self.verifier(concurrency: 1)
    let shard = try #require(VerificationShard(parsing: "2/3"))
    let notes = ["privacy scan: 8 archives, 0 findings, 0 reviewed"]
    #expect(
      ReportTimes.zeroed(try Self.streamed(verifier, shard: shard, notes: notes))
        == ReportTimes.zeroed(Self.written(verifier, shard: shard, notes: notes)))
  }

  @Test("Failing, not-run, privacy and hostile cases stream as the writer writes them")
  func failingAndHostileCasesMatchTheWriter() throws {
    var report = JSONReportSchemaTests.report
    report.cases.append(
      VerificationCase(
        manifest: "m\"an\\ifest\u{0}.xml", archive: "</script><script>alert(1)</script>",
        location: Place(parsing: "m.xml:\u{1F}:\u{7F}"),
        paths: [
          PathResult(
            path: .decode(.legacy), outcome: .decoded, expected: .rejected(.classNotAllowed),
            matches: false, object: .string("line\nbreak \u{8} tab\t \"quoted\" é 🗝")),
          PathResult(
            path: .decode(.secure), outcome: .rejected, category: .rejection(.malformed),
            message: "\u{2028}\u{FEFF}", matches: false),
        ], expectations: [], notes: ["\\u0000 is not a NUL", ""], producer: "App \u{0}1.0"))
    report.shard = VerificationShard(parsing: "1/1")
    report.manifestsDigest = Self.digest
    report.run = Self.run
    #expect(report.cases.contains { $0.status == .unexpectedPass })
    #expect(report.cases.contains { $0.status == .failed })
    #expect(try Self.streamed(report) == JSONReportWriter().render(report))
  }

  @Test("An empty run streams the writer's document with no cases")
  func emptyRunMatchesTheWriter() throws {
    let report = VerificationReport(cases: [], manifestsDigest: Self.digest)
    #expect(try Self.streamed(report) == JSONReportWriter().render(report))
  }

  @Test("The streamed report of the shipped manifests follows the verify schema")
  func streamedReportFollowsTheSchema() throws {
    let text = try Self.streamed(Self.verifier(concurrency: 2))
    let violations = try JSONSchemas.violations(of: text, against: .verify)
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
  }

  @Test("Four threads stream the cases in manifest and entry order, the text one thread gives")
  func fourThreadsKeepTheOrder() throws {
    let serial = ReportTimes.zeroed(try Self.streamed(Self.verifier(concurrency: 1)))
    let parallel = ReportTimes.zeroed(try Self.streamed(Self.verifier(concurrency: 4)))
    #expect(parallel == serial)
    guard case .array(let cases)? = try JSONDocument(parsing: parallel)["cases"] else {
      Issue.record("the report has no cases")
      return
    }
    let expected = ManifestCase.all.map { JSONDocument.string($0.archive) }
    #expect(cases.map { $0["archive"] } == expected)
  }

  @Test("Cases that finish before an earlier one are handed on in report order")
  func outOfOrderFinishesAreReordered() throws {
    let first = try #require(ManifestCase.loaded.manifests.first?.archives.first)
    let held = try Array(
      Data(contentsOf: URL(fileURLWithPath: ManifestCase.archives + "/" + first.path)))
    let runner = HoldingRunner(
      inner: InProcessPathRunner(registry: ManifestCase.registry), held: held)
    var order: [String] = []
    try Self.verifier(concurrency: 4, runner: runner).verify(
      ManifestCase.loaded.manifests, archivesDirectory: ManifestCase.archives
    ) { (item: VerificationCase) throws(FileOutputError) in
      order.append(item.archive)
    }
    #expect(order == ManifestCase.all.map(\.archive))
    // The first entry was held until a later one had finished: it finished out of order.
    #expect(runner.releasedByOthers)
  }

  @Test("A stream hands text on before the run ends, not the whole document at the end")
  func textGoesOutWhileTheRunGoes() throws {
    let verifier = Self.verifier(concurrency: 1)
    let report = verifier.verify(
      ManifestCase.loaded.manifests, archivesDirectory: ManifestCase.archives)
    var received = 0
    let stream = JSONReportStream(sink: { received += $0.utf8.count })
    // Enough cases for several of the writer's 64 KiB chunks.
    for _ in 0..<40 {
      for item in report.cases {
        try stream.write(item)
      }
    }
    #expect(received > 64 << 10)
    let beforeFinish = received
    try stream.finish()
    #expect(received > beforeFinish)
  }

  @Test("A finished stream writes the document to a regular file by the one write rule")
  func finishedStreamWritesTheFile() throws {
    let directory = try Self.scratchFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.json").path
    try "previous\n".write(toFile: path, atomically: false, encoding: .utf8)
    let report = JSONReportSchemaTests.report
    let stream = try JSONReportStream(path: path)
    #expect(stream.destination?.method == .atomicReplacement)
    for item in report.cases {
      try stream.write(item)
    }
    // Until the stream is finished, the path keeps what it had.
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous\n")
    try stream.finish(notes: report.notes)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == JSONReportWriter().render(report))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
  }

  @Test("An error in the middle of a run leaves an existing regular file as it was")
  func errorMidRunKeepsTheExistingFile() throws {
    let directory = try Self.scratchFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.json").path
    try "previous\n".write(toFile: path, atomically: false, encoding: .utf8)
    let stream = try JSONReportStream(path: path, manifestsDigest: Self.digest)
    #expect(throws: StopRun.self) {
      try Self.runThenStop(after: 3, into: stream)
    }
    stream.discard()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
  }

  @Test("An error in the middle of a run creates no file at a new path")
  func errorMidRunCreatesNoFile() throws {
    let directory = try Self.scratchFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.json").path
    let stream = try JSONReportStream(path: path)
    #expect(throws: StopRun.self) {
      try Self.runThenStop(after: 5, into: stream)
    }
    stream.discard()
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test("A stream dropped before it is finished leaves no file behind")
  func droppedStreamLeavesNoFile() throws {
    let directory = try Self.scratchFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.json").path
    do {
      let stream = try JSONReportStream(path: path)
      try stream.write(JSONReportSchemaTests.report.cases[0])
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test("A finished stream refuses another case")
  func finishedStreamRefusesACase() throws {
    let stream = JSONReportStream(sink: { _ in })
    try stream.finish()
    #expect(throws: FileOutputError.self) {
      try stream.write(JSONReportSchemaTests.report.cases[0])
    }
  }

  @Test("A folder as the output path is refused before anything is written")
  func folderIsRefused() throws {
    let directory = try Self.scratchFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(throws: FileOutputError.self) {
      _ = try JSONReportStream(path: directory.path)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  /// Why a test's run stopped.
  struct StopRun: Error {}

  /// Verifies the shipped manifests on two threads into a stream and stops after some cases.
  static func runThenStop(after count: Int, into stream: JSONReportStream) throws {
    var written = 0
    try verifier(concurrency: 2).verify(
      ManifestCase.loaded.manifests, archivesDirectory: ManifestCase.archives
    ) { (item: VerificationCase) throws(any Error) in
      try stream.write(item)
      written += 1
      if written == count { throw StopRun() }
    }
  }

  /// A runner that holds back every path of one archive until paths of other archives have run,
  /// so its entry finishes after later ones.
  private final class HoldingRunner: DecodePathRunner, @unchecked Sendable {
    private let inner: InProcessPathRunner
    private let held: [UInt8]
    private let others = DispatchSemaphore(value: 0)
    private let released = Locked(false)

    init(inner: InProcessPathRunner, held: [UInt8]) {
      self.inner = inner
      self.held = held
    }

    /// Whether the held archive went on because other archives' paths ran, not after the timeout.
    var releasedByOthers: Bool { released.withLock { $0 } }

    func outcome(
      _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
      topKeys: [String]
    ) throws(WorkerProtocolError) -> DecodeOutcome {
      if bytes == held {
        // Eight paths of other archives first: on three other threads, one of them has finished
        // an entry. The timeout only keeps a broken test from hanging.
        var signalled = 0
        while signalled < 8, others.wait(timeout: .now() + 30) == .success {
          signalled += 1
        }
        released.withLock { $0 = $0 || signalled == 8 }
      }
      let outcome = try inner.outcome(
        bytes, path: path, allowedClasses: allowedClasses, classMap: classMap, topKeys: topKeys)
      if bytes != held { others.signal() }
      return outcome
    }
  }
}
