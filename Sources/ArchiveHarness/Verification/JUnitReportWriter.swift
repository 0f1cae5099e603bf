import ArchiveFormat

/// Writes a report as JUnit XML for CI systems: one `<testcase>` per archive entry.
///
/// The shape follows swift-testing's recorder: `<testsuites>` holding one
/// `<testsuite>` per manifest, each `<testcase classname= name= time=>` with a
/// `<failure message=>` when the case did not pass. A suite and its cases are named by the
/// manifest's path relative to the manifests folder (`RunParameters.manifests`), however
/// the folder was given; each case's `time` is its verification's wall time. A path that
/// crashed, expected or not, has the crash's message (the signal and the runtime's own
/// `Fatal error` line) in the case's `<system-err>`.
///
/// ```swift
/// let xml = JUnitReportWriter(toolName: "profile-harness").render(report)
/// // <testsuites name="profile-harness verify" …><testsuite name="ProfilesApp-1.0.xml" …>
/// ```
package struct JUnitReportWriter: Sendable {
  /// The running tool's name, as the report names the run: `NAME verify`.
  package var toolName: String

  /// Creates a writer.
  ///
  /// - Parameter toolName: The running tool's name, such as `profile-harness`.
  package init(toolName: String = ToolName.standard) {
    self.toolName = toolName
  }

  /// The report as JUnit XML text.
  package func render(_ report: VerificationReport) -> String {
    var manifests: [String] = []
    var byManifest: [String: [VerificationCase]] = [:]
    for item in report.cases {
      if byManifest[item.manifest] == nil { manifests.append(item.manifest) }
      byManifest[item.manifest, default: []].append(item)
    }
    let failures = report.cases.filter { $0.status != .passed }.count
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml +=
      "<testsuites name=\"\(XMLText.escaped("\(toolName) verify"))\" tests=\"\(report.cases.count)\" failures=\"\(failures)\">\n"
    for manifest in manifests {
      let cases = byManifest[manifest] ?? []
      let suiteFailures = cases.filter { $0.status != .passed }.count
      let name = XMLText.escaped(Self.relative(manifest, to: report.run?.manifests))
      let suiteTime = Self.seconds(cases.reduce(Int64(0)) { $0 + ($1.milliseconds ?? 0) })
      xml +=
        "  <testsuite name=\"\(name)\" tests=\"\(cases.count)\" failures=\"\(suiteFailures)\" skipped=\"0\" time=\"\(suiteTime)\">\n"
      for item in cases {
        xml +=
          "    <testcase classname=\"\(name)\" name=\"\(XMLText.escaped(item.archive))\" time=\"\(Self.seconds(item.milliseconds ?? 0))\""
        let crashes = item.paths.filter { $0.outcome == .crashed }.map {
          "\($0.path): \($0.message ?? $0.category?.description ?? $0.outcome.description)"
        }
        guard item.status != .passed || !crashes.isEmpty else {
          xml += "/>\n"
          continue
        }
        xml += ">\n"
        if item.status != .passed {
          let reasons = failureLines(item)
          xml +=
            "      <failure message=\"\(XMLText.escaped(reasons.first ?? item.status.rawValue))\">"
          xml += XMLText.escaped(reasons.joined(separator: "\n"))
          xml += "</failure>\n"
        }
        if !crashes.isEmpty {
          xml +=
            "      <system-err>\(XMLText.escaped(crashes.joined(separator: "\n")))</system-err>\n"
        }
        xml += "    </testcase>\n"
      }
      xml += "  </testsuite>\n"
    }
    xml += "</testsuites>\n"
    return xml
  }

  /// The lines that explain a case's failure, most important first.
  package func failureLines(_ item: VerificationCase) -> [String] {
    var lines: [String] = []
    for path in item.paths where !path.matches {
      let what = [path.outcome.description, path.category?.description].compactMap { $0 }
        .joined(separator: " ")
      var line = "\(path.path): \(path.expectationPhrase), got \(what)"
      if path.isUnexpectedPass { line = "object-substitution hole: " + line }
      if let message = path.message { line += ": \(message)" }
      lines.append(line)
    }
    for expectation in item.expectations where !expectation.passed {
      lines.append(
        "\(expectation.location): \(expectation.keyPath): expected \(expectation.expected), got \(expectation.actual)"
      )
    }
    for finding in item.strictnessFindings where finding.severity == .error {
      lines.append("strictness: [\(finding.rule)] \(finding)")
    }
    for finding in item.storeFindings where finding.severity == .error {
      lines.append("\(finding.place): [\(finding.check)] \(finding.message)")
    }
    return lines
  }

  /// A manifest's path relative to the manifests folder, when it lies inside it: `manifests/A.xml`
  /// and `/work/repo/manifests/A.xml` are both `A.xml` for their folders; else the path as is.
  ///
  /// - Parameters:
  ///   - manifest: The manifest's path, as the run gave it.
  ///   - folder: The manifests folder, as the run gave it; `nil` when not recorded.
  /// - Returns: The relative path.
  static func relative(_ manifest: String, to folder: String?) -> String {
    guard var folder, !folder.isEmpty else { return manifest }
    while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
    let prefix = folder == "/" ? "/" : folder + "/"
    var path = manifest
    if folder == "." {
      while path.hasPrefix("./") { path.removeFirst(2) }
      return path
    }
    guard path.hasPrefix(prefix), path.count > prefix.count else { return manifest }
    path.removeFirst(prefix.count)
    return path
  }

  /// Milliseconds as JUnit's seconds, such as `0.031`.
  static func seconds(_ milliseconds: Int64) -> String {
    let whole = milliseconds / 1000
    let fraction = String(milliseconds % 1000)
    return "\(whole)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
