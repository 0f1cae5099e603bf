import ArchiveFormat
import ArchiveHarness

/// `archive-harness report merge A.json B.json …`: the shard reports of one run, as one report.
enum ReportMergeCommand {
  static let spec = CommandSpec(
    name: "report merge",
    abstract: "Merge the JSON reports of verify --shard K/N runs into one report.",
    discussion: """
        The reports must be every shard 1…N of one run over the same manifests
        (the same manifestsDigest), each once. The merged report lists the cases
        in the order an unsharded run does and counts the summary again. It is
        written by the writers verify uses: json as verify --format json writes
        it, html as one self-contained page with the run's parameters, junit and
        text as verify writes them.
      """,
    arguments: [files], options: [format, VerifyCommand.output], flags: [VerifyCommand.verbose],
    exitStatus: """
        0  merged, and every case passed
        1  merged, and a case failed or is a hole
        2  the reports cannot be merged (other manifests, a missing or repeated shard), or are unreadable
      """)

  static let files = Argument.repeating("report", help: "The JSON reports of the shards.")
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Report format.", default: VerifyCommand.Format.json)

  static let command = Command(spec: spec) { arguments, context in
    try OutputWriting.check(arguments[VerifyCommand.output])
    var reports: [(file: String, document: JSONDocument)] = []
    for file in arguments[files] {
      let bytes = try FileReading.bytes(at: file, limit: 256 << 20)
      do {
        reports.append((file, try JSONDocument(parsing: String(decoding: bytes, as: UTF8.self))))
      } catch {
        throw CommandFailure(file: file, category: .unreadable, message: "not JSON: \(error)")
      }
    }
    let merged: JSONValue
    do {
      merged = try ShardReportMerger().merge(reports)
    } catch let error as ShardMergeError {
      throw CommandFailure(file: "report merge", category: .unmergeable, message: error.message)
    }
    if arguments[format] == .json {
      try OutputWriting.write(
        merged.render(sortedKeys: true) + "\n", to: arguments[VerifyCommand.output],
        console: context.console)
      return summaryPassed(merged) ? .success : .findings
    }
    // Each shard must read back, so a problem names its file and its place in it.
    for (file, document) in reports {
      do {
        _ = try VerificationReportReader().report(document)
      } catch let error as VerificationReportReadError {
        throw CommandFailure(
          place: error.place.in(file), category: .unreadable, message: error.message)
      }
    }
    let report: VerificationReport
    do {
      report = try VerificationReportReader().report(
        JSONDocument(parsing: merged.render(sortedKeys: true)))
    } catch let error as VerificationReportReadError {
      throw CommandFailure(
        file: "report merge", category: .unreadable,
        message: "the merged report does not read back: \(error)")
    }
    try VerifyCommand.write(
      report, as: arguments[format], verbose: arguments[VerifyCommand.verbose],
      to: arguments[VerifyCommand.output], context: context)
    return report.passed ? .success : .findings
  }

  /// Whether a merged report's summary counts no failure and no hole.
  static func summaryPassed(_ merged: JSONValue) -> Bool {
    guard case .object(let members) = merged,
      case .object(let summary)? = members.first(where: { $0.0 == "summary" })?.1
    else { return false }
    return summary.allSatisfy { name, value in
      name == "total" || name == "passed" || value == .integer(0)
    }
  }
}
