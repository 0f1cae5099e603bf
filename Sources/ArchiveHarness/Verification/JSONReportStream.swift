import ArchiveFormat
import _ArchiveHarnessSystem

/// Writes the JSON report of a verify run case by case, while the run goes on, so memory does not
/// grow with the number of entries.
///
/// The text is the one `JSONReportWriter` renders for the same report,
/// byte for byte. Keys are sorted, and `cases` sorts before every member that
/// needs the whole run (`notes`, `summary`), so the document is written in
/// order: `{`, the members known at the start that sort before `cases` (none
/// today), each case as it comes, then the other members, the summary's
/// counts kept as the cases went by. Only the case being written and a
/// 64 KiB buffer are held.
///
/// Written to a path, the report follows the project's one write rule
/// (`OutputDestination` in `FileOutput`): a regular file is written to a temporary file
/// beside it and renamed into place by ``finish(notes:)``, so a run that fails
/// or stops leaves the path as it was; a device or a FIFO receives the text as
/// it comes.
///
/// ```swift
/// let stream = try JSONReportStream(path: "verify.json", manifestsDigest: digest)
/// do {
///   try verifier.verify(manifests, archivesDirectory: "LegacyArchives") { item in
///     try stream.write(item)
///   }
///   try stream.finish()
/// } catch {
///   stream.discard()  // verify.json is as it was
/// }
/// ```
package final class JSONReportStream {
  private let output: ReportOutput
  private var writer: JSONWriter
  private let renderer = JSONReportWriter()
  /// The members known at the start that sort after `cases`, written by ``finish(notes:)``.
  private var laterMembers: [(String, JSONValue)] = []
  /// How many cases were written with each status.
  package private(set) var counts: [VerificationCase.Status: Int] = [:]
  /// How many cases were written.
  package private(set) var total = 0

  /// Opens a path for the report, by the project's one write rule, and writes the document's start.
  ///
  /// - Parameters:
  ///   - path: The path; `-` is standard output.
  ///   - shard: The slice of the entries the run covers, or `nil` for all of them.
  ///   - manifestsDigest: The `ManifestsDigest` of the manifests the run read.
  ///   - run: What the run was given and where it ran.
  ///   - containment: Whether a trap while decoding is contained (`Verifier.containment`).
  /// - Throws: `FileOutputError` when the path is refused or cannot be opened.
  package convenience init(
    path: String, shard: VerificationShard? = nil, manifestsDigest: String? = nil,
    run: RunParameters? = nil, containment: Containment? = nil
  ) throws(FileOutputError) {
    let file = try SafeFileWriter.open(path)
    self.init(
      output: ReportOutput(file: file, sink: nil), shard: shard, manifestsDigest: manifestsDigest,
      run: run, containment: containment)
  }

  /// Creates a stream that hands the text to a closure in chunks, and writes the document's start.
  ///
  /// - Parameters:
  ///   - shard: The slice of the entries the run covers, or `nil` for all of them.
  ///   - manifestsDigest: The `ManifestsDigest` of the manifests the run read.
  ///   - run: What the run was given and where it ran.
  ///   - containment: Whether a trap while decoding is contained (`Verifier.containment`).
  ///   - sink: Receives the text in chunks, in order; together they are the document.
  package convenience init(
    shard: VerificationShard? = nil, manifestsDigest: String? = nil, run: RunParameters? = nil,
    containment: Containment? = nil, sink: @escaping (String) -> Void
  ) {
    self.init(
      output: ReportOutput(file: nil, sink: sink), shard: shard, manifestsDigest: manifestsDigest,
      run: run, containment: containment)
  }

  private init(
    output: ReportOutput, shard: VerificationShard?, manifestsDigest: String?, run: RunParameters?,
    containment: Containment?
  ) {
    self.output = output
    writer = JSONWriter(sortedKeys: true, pretty: true) { [output] in output.send($0) }
    writer.beginObjectInKeyOrder()
    let known = Self.sorted(
      renderer.runMembers(
        shard: shard, manifestsDigest: manifestsDigest, run: run, containment: containment))
    for (key, value) in known where Self.precedesCases(key) {
      writer.key(key)
      writer.write(value)
    }
    laterMembers = known.filter { !Self.precedesCases($0.0) }
    writer.key("cases")
    writer.beginArray()
  }

  /// Where the report goes: the path and how it is written, or `nil` for a closure.
  package var destination: OutputDestination? { output.file?.destination }

  /// Whether every case written so far passed.
  package var passed: Bool { (counts[.passed] ?? 0) == total }

  /// Writes the next case.
  ///
  /// - Parameter item: The case, in report order.
  /// - Throws: `FileOutputError` when writing failed, now or for an earlier case, or the
  ///   stream is finished or discarded.
  package func write(_ item: VerificationCase) throws(FileOutputError) {
    try output.checkOpen()
    writer.write(renderer.caseJSON(item))
    counts[item.status, default: 0] += 1
    total += 1
    try output.checkWritten()
  }

  /// Writes the rest of the document and, for a regular file, puts it in place.
  ///
  /// - Parameter notes: The report's notes, such as what a privacy scan covered.
  /// - Throws: `FileOutputError` when a write or the rename failed; the path is then as it
  ///   was (a device or a FIFO has what was written before).
  package func finish(notes: [String] = []) throws(FileOutputError) {
    try output.checkOpen()
    writer.endArray()
    let closing = renderer.closingMembers(notes: notes, total: total, counts: counts)
    for (key, value) in Self.sorted(laterMembers + closing) {
      writer.key(key)
      writer.write(value)
    }
    writer.endObject()
    writer.endLine()
    try output.finish()
  }

  /// Abandons the report: a temporary file is removed and the path left as it was.
  package func discard() {
    output.discard()
  }

  /// Whether a top-level key sorts before `cases`, as the writer's sorted keys order them.
  private static func precedesCases(_ key: String) -> Bool {
    key.utf8.lexicographicallyPrecedes("cases".utf8)
  }

  /// Members in the writer's sorted-key order: by the keys' UTF-8 bytes.
  private static func sorted(_ members: [(String, JSONValue)]) -> [(String, JSONValue)] {
    members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
  }
}
