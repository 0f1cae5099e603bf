import ArchiveCoder
import ArchiveFormat
import ArchiveManifest

/// Writes a report as JSON for tools: `serializationVersion` 3, sorted keys, one object per case.
///
/// Everything is data: outcomes, categories and expectations are values, and
/// a decoded object is written in the shape `decode --format json` uses.
/// The run's parameters (`run`) and each case's producer travel with it, so
/// `VerificationReportReader` can read a report back for the other writers.
/// `schemas/verify.schema.json` describes the document. `JSONReportStream`
/// writes the same text case by case, while a run goes on.
///
/// ```swift
/// let text = JSONReportWriter().render(report)
/// // {"cases": [{"archive": "…", "paths": {"secure": {"outcome": "decoded", …}}, …}], …}
/// ```
package struct JSONReportWriter: Sendable {
  /// The version of the document's shape; version 3 adds the run's parameters and producers.
  package static let serializationVersion: Int64 = 3

  /// Creates a writer.
  package init() {}

  /// The report as JSON text, with a trailing newline.
  package func render(_ report: VerificationReport) -> String {
    document(report).render(sortedKeys: true) + "\n"
  }

  /// The report as a JSON value.
  package func document(_ report: VerificationReport) -> JSONValue {
    let counts = report.counts
    return .object(
      runMembers(
        shard: report.shard, manifestsDigest: report.manifestsDigest, run: report.run,
        containment: report.containment)
        + [("cases", .array(report.cases.map(caseJSON)))]
        + closingMembers(notes: report.notes, total: report.cases.count, counts: counts))
  }

  /// One case as a JSON value: an element of the document's `cases`.
  func caseJSON(_ item: VerificationCase) -> JSONValue {
    .object(
      [
        ("manifest", .string(item.manifest)),
        ("archive", .string(item.archive)),
        ("location", .string(item.location.description)),
        ("status", .string(item.status.rawValue)),
        ("paths", .object(item.paths.map { ($0.path.description, pathJSON($0)) })),
        (
          "expectations",
          .array(
            item.expectations.map { expectation in
              .object([
                ("keyPath", .string(expectation.keyPath)),
                ("status", .string(expectation.passed ? "passed" : "failed")),
                ("expected", expectation.expected.jsonValue),
                ("actual", expectation.actual.jsonValue),
                ("location", .string(expectation.location.description)),
              ])
            })
        ),
        ("notes", .array(item.notes.map(JSONValue.string))),
      ]
        + (item.strictnessFindings.isEmpty
          ? [] : [("strictnessFindings", .array(item.strictnessFindings.map(strictnessJSON)))])
        + (item.storeFindings.isEmpty
          ? [] : [("storeFindings", .array(item.storeFindings.map(storeJSON)))])
        + (item.producer.map { [("producer", JSONValue.string($0))] } ?? [])
        + (item.milliseconds.map { [("durationMilliseconds", JSONValue.integer($0))] } ?? []))
  }

  /// The members known before any case: the shard, the manifests' digest, the run's parameters,
  /// the containment and the serialization version.
  func runMembers(
    shard: VerificationShard?, manifestsDigest: String?, run: RunParameters?,
    containment: Containment? = nil
  ) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = []
    if let containment {
      members.append(("containment", .string(containment.reportValue)))
    }
    if let shard {
      members.append(
        (
          "shard",
          .object([
            ("index", .integer(Int64(shard.index))), ("count", .integer(Int64(shard.count))),
          ])
        ))
    }
    if let manifestsDigest {
      members.append(("manifestsDigest", .string(manifestsDigest)))
    }
    if let run {
      members.append(
        (
          "run",
          .object([
            ("manifests", .string(run.manifests)), ("archives", .string(run.archives)),
            ("harnessVersion", .string(run.harnessVersion)), ("platform", .string(run.platform)),
          ])
        ))
    }
    members.append(("serializationVersion", .integer(Self.serializationVersion)))
    return members
  }

  /// The members known only after the last case: the report's notes and the summary counts.
  func closingMembers(
    notes: [String], total: Int, counts: [VerificationCase.Status: Int]
  ) -> [(String, JSONValue)] {
    [
      ("notes", .array(notes.map(JSONValue.string))),
      (
        "summary",
        .object(
          [("total", .integer(Int64(total)))]
            + VerificationCase.Status.allCases.map {
              ($0.rawValue, .integer(Int64(counts[$0] ?? 0)))
            })
      ),
    ]
  }

  private func pathJSON(_ path: PathResult) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("outcome", .string(path.outcome.rawValue)),
      ("matches", .bool(path.matches)),
      ("category", path.category.map { .string($0.description) } ?? .null),
      ("message", path.message.map(JSONValue.string) ?? .null),
      ("expected", path.expected.map(expectedJSON) ?? .null),
    ]
    if let object = path.object {
      members.append(("object", object.jsonValue))
      members.append(("objectClass", .string(object.className)))
    }
    return .object(members)
  }

  /// A strictness finding: what it is about, the list given and the list to write, and the
  /// words reports print.
  private func storeJSON(_ finding: StoreFinding) -> JSONValue {
    .object([
      ("check", .string(finding.check.rawValue)),
      ("severity", .string(finding.severity.rawValue)),
      ("place", .string(finding.place.description)),
      ("message", .string(finding.message)),
    ])
  }

  private func strictnessJSON(_ finding: StrictnessFinding) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("rule", .string(finding.rule.rawValue)),
      ("severity", .string(finding.severity.rawValue)),
      ("className", .string(finding.className)),
      ("keyPath", .string(finding.keyPath)),
    ]
    if let decoder = finding.decoder { members.append(("decoder", .string(decoder))) }
    if let key = finding.key { members.append(("key", .string(key))) }
    members += [
      ("allowedClasses", .array(finding.allowedClasses.map(JSONValue.string))),
      ("fix", .array(finding.fix.map(JSONValue.string))),
      ("fixText", .string(finding.fixText)),
      ("message", .string(finding.message)),
    ]
    return .object(members)
  }

  private func expectedJSON(_ outcome: OutcomeExpectation.Outcome) -> JSONValue {
    var members: [(String, JSONValue)] = [("outcome", .string(outcome.kind.rawValue))]
    if let category = outcome.category {
      members.append(("category", .string(category.rawValue)))
    }
    return .object(members)
  }
}
