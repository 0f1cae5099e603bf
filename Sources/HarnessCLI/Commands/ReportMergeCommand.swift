import JSONOutput
import Verification

/// `archive-harness report merge A.json B.json …`: the shard reports of one run, as one report.
enum ReportMergeCommand {
  static let spec = CommandSpec(
    name: "report merge",
    abstract: "Merge the JSON reports of verify --shard K/N runs into one report.",
    discussion: """
        The reports must be every shard 1…N of one run over the same manifests
        (the same manifestsDigest), each once. The merged report lists the cases
        in the order an unsharded run does and counts the summary again.
      """,
    arguments: [files], options: [format, VerifyCommand.output],
    exitStatus: """
        0  merged, and every case passed
        1  merged, and a case failed or is a hole
        2  the reports cannot be merged (other manifests, a missing or repeated shard), or are unreadable
      """)

  /// The merged report's formats.
  enum Format: String, CaseIterable, ArgumentValue {
    /// One JSON document, as `verify --format json` writes it.
    case json
  }

  static let files = Argument.repeating("report", help: "The JSON reports of the shards.")
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Report format.", default: Format.json)

  static let command = Command(spec: spec) { arguments, context in
    var reports: [(file: String, document: JSONDocument)] = []
    for file in arguments[files] {
      let bytes = try FileReading.bytes(at: file, limit: 256 << 20)
      do {
        reports.append((file, try JSONDocument(parsing: String(decoding: bytes, as: UTF8.self))))
      } catch {
        throw CommandFailure(place: file, category: .unreadable, message: "not JSON: \(error)")
      }
    }
    let merged: JSONValue
    do {
      merged = try ShardReportMerger().merge(reports)
    } catch let error as ShardMergeError {
      throw CommandFailure(place: "report merge", category: .unmergeable, message: error.message)
    }
    try OutputWriting.write(
      merged.render(sortedKeys: true) + "\n", to: arguments[VerifyCommand.output],
      console: context.console)
    var passed = true
    if case .object(let members) = merged,
      case .object(let summary)? = members.first(where: { $0.0 == "summary" })?.1
    {
      passed = summary.allSatisfy { name, value in
        name == "total" || name == "passed" || value == .integer(0)
      }
    }
    return passed ? .success : .findings
  }
}
