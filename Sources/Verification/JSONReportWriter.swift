import JSONOutput

/// Writes a report as JSON for tools: `serializationVersion` 1, sorted keys, one object per case.
public struct JSONReportWriter: Sendable {
  /// Creates a writer.
  public init() {}

  /// The report as JSON text, with a trailing newline.
  public func render(_ report: VerificationReport) -> String {
    document(report).render(sortedKeys: true) + "\n"
  }

  /// The report as a JSON value.
  public func document(_ report: VerificationReport) -> JSONValue {
    let counts = report.counts
    let cases: [JSONValue] = report.cases.map { item in
      .object([
        ("manifest", .string(item.manifest)),
        ("archive", .string(item.archive)),
        ("location", .string(item.location)),
        ("status", .string(item.status.rawValue)),
        ("paths", .object(item.paths.map { ($0.path, pathJSON($0)) })),
        (
          "expectations",
          .array(
            item.expectations.map { expectation in
              .object([
                ("keyPath", .string(expectation.keyPath)),
                ("status", .string(expectation.passed ? "passed" : "failed")),
                ("expected", .string(expectation.expected)),
                ("actual", .string(expectation.actual)),
                ("location", .string(expectation.location)),
              ])
            })
        ),
        ("notes", .array(item.notes.map(JSONValue.string))),
      ])
    }
    return .object([
      ("serializationVersion", .integer(1)),
      ("cases", .array(cases)),
      ("notes", .array(report.notes.map(JSONValue.string))),
      (
        "summary",
        .object(
          [("total", .integer(Int64(report.cases.count)))]
            + VerificationCase.Status.allCases.map {
              ($0.rawValue, .integer(Int64(counts[$0] ?? 0)))
            })
      ),
    ])
  }

  private func pathJSON(_ path: PathResult) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("outcome", .string(path.outcome)),
      ("matches", .bool(path.matches)),
    ]
    members.append(("category", path.category.map(JSONValue.string) ?? .null))
    members.append(("message", path.message.map(JSONValue.string) ?? .null))
    members.append(("expected", path.expected.map(JSONValue.string) ?? .null))
    if let object = path.object {
      members.append(("object", .string(object)))
    }
    return .object(members)
  }
}
