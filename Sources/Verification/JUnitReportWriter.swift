import TextOutput

/// Writes a report as JUnit XML for CI systems: one `<testcase>` per archive entry.
///
/// The shape follows swift-testing's recorder: `<testsuites>` holding one
/// `<testsuite>` per manifest, each `<testcase classname= name=>` with a
/// `<failure message=>` when the case did not pass.
public struct JUnitReportWriter: Sendable {
  /// Creates a writer.
  public init() {}

  /// The report as JUnit XML text.
  public func render(_ report: VerificationReport) -> String {
    var manifests: [String] = []
    var byManifest: [String: [VerificationCase]] = [:]
    for item in report.cases {
      if byManifest[item.manifest] == nil { manifests.append(item.manifest) }
      byManifest[item.manifest, default: []].append(item)
    }
    let failures = report.cases.filter { $0.status != .passed }.count
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml +=
      "<testsuites name=\"archive-harness verify\" tests=\"\(report.cases.count)\" failures=\"\(failures)\">\n"
    for manifest in manifests {
      let cases = byManifest[manifest] ?? []
      let suiteFailures = cases.filter { $0.status != .passed }.count
      xml +=
        "  <testsuite name=\"\(XMLText.escaped(manifest))\" tests=\"\(cases.count)\" failures=\"\(suiteFailures)\" skipped=\"0\" time=\"0\">\n"
      for item in cases {
        xml +=
          "    <testcase classname=\"\(XMLText.escaped(manifest))\" name=\"\(XMLText.escaped(item.archive))\" time=\"0\""
        guard item.status != .passed else {
          xml += "/>\n"
          continue
        }
        let reasons = failureLines(item)
        xml +=
          ">\n      <failure message=\"\(XMLText.escaped(reasons.first ?? item.status.rawValue))\">"
        xml += XMLText.escaped(reasons.joined(separator: "\n"))
        xml += "</failure>\n    </testcase>\n"
      }
      xml += "  </testsuite>\n"
    }
    xml += "</testsuites>\n"
    return xml
  }

  /// The lines that explain a case's failure, most important first.
  public func failureLines(_ item: VerificationCase) -> [String] {
    var lines: [String] = []
    for path in item.paths where !path.matches {
      let what = [path.outcome.description, path.category?.description].compactMap { $0 }
        .joined(separator: " ")
      let expected = path.expected?.description ?? "nothing"
      var line = "\(path.path): expected \(expected), got \(what)"
      if path.isUnexpectedPass { line = "object-substitution hole: " + line }
      if let message = path.message { line += ": \(message)" }
      lines.append(line)
    }
    for expectation in item.expectations where !expectation.passed {
      lines.append(
        "\(expectation.location): \(expectation.keyPath): expected \(expectation.expected), got \(expectation.actual)"
      )
    }
    return lines
  }
}
