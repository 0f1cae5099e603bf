import ArchiveCoder
import ArchiveFormat

/// Writes a report as one self-contained HTML page: a summary, the matrix of paths, and filters.
///
/// The page loads nothing: its styles and its small filter script are inline,
/// and it names no network address. Every string from an archive or a manifest
/// is escaped with `XMLText`, so markup in an archived string shows as text.
/// Statuses carry a word as well as a colour. The page may change between
/// versions; tools should read `--format json`.
///
/// ```swift
/// let parameters = HTMLReportWriter.Parameters(
///   manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0.1.0",
///   platform: "Linux")
/// let page = HTMLReportWriter(parameters: parameters, toolName: "profile-harness").render(report)
/// ```
package struct HTMLReportWriter: Sendable {
  /// What the run was given and where it ran, shown in the summary.
  package typealias Parameters = RunParameters

  /// The paths, one matrix column each.
  package static let columns: [DecodePath] = DecodePath.allCases

  /// What the summary shows.
  package var parameters: Parameters
  /// The running tool's name, as the page's title names the run: `NAME verify`.
  package var toolName: String

  /// Creates a writer.
  ///
  /// - Parameters:
  ///   - parameters: What the run was given and where it ran.
  ///   - toolName: The running tool's name, such as `profile-harness`.
  package init(parameters: Parameters, toolName: String = ToolName.standard) {
    self.parameters = parameters
    self.toolName = toolName
  }

  /// The report as an HTML document.
  ///
  /// - Parameter report: The report.
  /// - Returns: The page, with a trailing newline.
  package func render(_ report: VerificationReport) -> String {
    var page = HTMLPage.opening(title: "\(toolName) verify", style: Self.style)
    page += summary(report)
    page += """
      <form class="filters" role="search" onsubmit="return false">
      <label><input type="checkbox" id="failed-only"> Failed only</label>
      <label>Search <input type="search" id="search" placeholder="archive, class or category"></label>
      <output id="shown" aria-live="polite">\(report.cases.count)</output> of \(report.cases.count) shown
      </form>
      <table id="matrix">
      <caption>One row per archive entry, one column per decode path</caption>
      <thead><tr><th scope="col">Archive</th><th scope="col">Status</th>
      """
    for path in Self.columns {
      page += "<th scope=\"col\">\(escape(path.description))</th>"
    }
    page += "<th scope=\"col\">Findings</th></tr></thead>\n"
    var groupStart = 0
    while groupStart < report.cases.count {
      let first = report.cases[groupStart]
      var groupEnd = groupStart
      while groupEnd < report.cases.count, report.cases[groupEnd].manifest == first.manifest {
        groupEnd += 1
      }
      let title = [first.producer, first.manifest].compactMap { $0 }.joined(separator: " — ")
      page +=
        "<tbody><tr class=\"group\"><th scope=\"colgroup\" colspan=\"\(Self.columns.count + 3)\">"
      page += escape(title) + "</th></tr>\n"
      for item in report.cases[groupStart..<groupEnd] {
        page += row(item)
      }
      page += "</tbody>\n"
      groupStart = groupEnd
    }
    page += "</table>\n" + HTMLPage.closing(script: Self.script)
    return page
  }

  /// The number of notes that name a Linux Foundation deviation.
  static func deviationCount(_ report: VerificationReport) -> Int {
    report.cases.reduce(0) { count, item in
      count + item.notes.filter { $0.hasPrefix(deviationPrefix) }.count
    }
  }

  private static let deviationPrefix = "Linux Foundation deviation"

  private func summary(_ report: VerificationReport) -> String {
    let counts = report.counts
    let items: [(String, String)] = [
      ("Entries", "\(report.cases.count)"),
      ("Passed", "\(counts[.passed] ?? 0)"),
      ("Failed", "\(counts[.failed] ?? 0)"),
      ("HOLEs", "\(counts[.unexpectedPass] ?? 0)"),
      ("Linux Foundation deviations", "\(Self.deviationCount(report))"),
      ("Manifests", parameters.manifests),
      ("Archives", parameters.archives),
      ("Harness version", parameters.harnessVersion),
      ("Platform", parameters.platform),
    ]
    var text = "<section class=\"summary\" aria-label=\"Summary\"><dl>\n"
    for (term, value) in items {
      text += "<div><dt>\(escape(term))</dt><dd>\(escape(value))</dd></div>\n"
    }
    text += "</dl>\n"
    for note in report.notes {
      text += "<p class=\"note\">note: \(escape(note))</p>\n"
    }
    return text + "</section>\n"
  }

  private func row(_ item: VerificationCase) -> String {
    var searchable = [item.archive, item.manifest]
    searchable += item.strictnessFindings.map { "\($0.rule) \($0.className)" }
    searchable += item.storeFindings.map { "\($0.check) \($0.place)" }
    for path in item.paths {
      if let category = path.category { searchable.append(category.description) }
      if let object = path.object { searchable.append(object.className) }
      searchable.append(path.outcome.description)
    }
    let search = searchable.joined(separator: " ").lowercased()
    var text =
      "<tr class=\"entry\" data-status=\"\(escape(item.status.rawValue))\" data-search=\"\(escape(search))\">"
    text += "<th scope=\"row\">\(escape(item.archive))</th>"
    text += "<td data-label=\"Status\" class=\"\(statusClass(item.status))\">"
    text += "\(statusWord(item.status))</td>"
    if item.paths.isEmpty {
      // A store check reads no archive on the decode paths.
      text += "<td colspan=\"\(Self.columns.count)\" class=\"none\">store check</td>"
    }
    for column in Self.columns where !item.paths.isEmpty {
      text += "<td data-label=\"\(escape(column.description))\""
      guard let result = item.paths.first(where: { $0.path == .decode(column) }) else {
        text += " class=\"none\">not run</td>"
        continue
      }
      text += " class=\"\(pathClass(result))\">" + cell(result) + "</td>"
    }
    text += "<td data-label=\"Findings\">" + findings(item) + "</td></tr>\n"
    return text
  }

  private func cell(_ result: PathResult) -> String {
    var text = "<span class=\"mark\">\(pathWord(result))</span> "
    text += escape(result.outcome.description)
    if let category = result.category {
      text += " <span class=\"category\">[\(escape(category.description))]</span>"
    }
    if !result.matches, let expected = result.expected {
      text += "<br><small>expected \(escape(expected.description))</small>"
    }
    // A crash always shows its message: the signal and the runtime's own `Fatal error` line.
    if !result.matches || result.outcome == .crashed, let message = result.message {
      text += "<br><small>\(escape(message))</small>"
    }
    return text
  }

  private func findings(_ item: VerificationCase) -> String {
    var text = "<small class=\"location\">\(escape(item.location.description))</small>"
    for result in item.paths where result.path == .structure || result.path == .privacy {
      text += "<p class=\"bad\">✗ \(escape(result.path.description)): "
      text += "\(escape(result.message ?? result.outcome.description))</p>"
    }
    let failed = item.expectations.filter { !$0.passed }
    if !failed.isEmpty {
      text += "<ul class=\"expectations\">"
      for expectation in failed {
        text += "<li class=\"bad\">✗ <code>\(escape(expectation.keyPath))</code>: expected "
        text += "<code>\(escape(expectation.expected.description))</code>, actual "
        text += "<code>\(escape(expectation.actual.description))</code> "
        text += "<small>(\(escape(expectation.location.description)))</small></li>"
      }
      text += "</ul>"
    }
    for finding in item.strictnessFindings {
      let error = finding.severity == .error
      text += "<p class=\"\(error ? "bad" : "warning")\">\(error ? "✗ error" : "warning"): "
      text += "[\(escape(finding.rule.rawValue))] <code>\(escape(finding.keyPath))</code>: "
      text += "\(escape(finding.message))</p>"
    }
    for finding in item.storeFindings {
      let error = finding.severity == .error
      text += "<p class=\"\(error ? "bad" : "warning")\">\(error ? "✗ error" : "warning"): "
      text +=
        "[\(escape(finding.check.rawValue))] <code>\(escape(finding.place.description))</code>: "
      text += "\(escape(finding.message))</p>"
    }
    for note in item.notes {
      let kind = note.contains("allowedClasses") ? "advice" : "note"
      text += "<p class=\"\(kind)\">\(escape(note))</p>"
    }
    if let object = item.paths.first(where: { $0.object != nil })?.object {
      text += "<details><summary>Decoded object (\(escape(object.className)))</summary><pre>"
      text += escape(object.jsonValue.render(sortedKeys: true, pretty: true)) + "</pre></details>"
    }
    return text
  }

  private func escape(_ text: String) -> String { XMLText.escaped(text) }

  private func statusWord(_ status: VerificationCase.Status) -> String {
    switch status {
    case .passed: "PASS"
    case .failed: "FAIL"
    case .unexpectedPass: "HOLE"
    }
  }

  private func statusClass(_ status: VerificationCase.Status) -> String {
    switch status {
    case .passed: "ok"
    case .failed: "bad"
    case .unexpectedPass: "hole"
    }
  }

  private func pathWord(_ result: PathResult) -> String {
    if result.isUnexpectedPass { return "HOLE" }
    guard result.matches else { return "✗ unexpected" }
    return result.expected == nil ? escape(PathResult.noExpectation) : "✓ as expected"
  }

  private func pathClass(_ result: PathResult) -> String {
    if result.isUnexpectedPass { return "hole" }
    return result.matches ? "ok" : "bad"
  }

  private static let style =
    HTMLPage.baseStyle + """
      tr.group th{background:#dde4ee}
      .ok{background:#e3f4e3}.bad{background:#fbe1e1}.hole{background:#f7c6c6;font-weight:700}
      .none{color:#666}.category{font-family:monospace}
      .advice,.warning{background:#fff5cc;padding:.2rem}
      pre{white-space:pre-wrap;overflow-wrap:anywhere;max-width:40rem}

      """ + HTMLPage.phoneStyle("entry")

  private static let script = """
    (function(){
    var only=document.getElementById("failed-only"),search=document.getElementById("search");
    var rows=document.querySelectorAll("tr.entry"),shown=document.getElementById("shown");
    function apply(){var query=search.value.toLowerCase(),count=0;
    rows.forEach(function(row){var hide=(only.checked&&row.dataset.status==="passed")||
    (query!==""&&row.dataset.search.indexOf(query)<0);row.hidden=hide;if(!hide){count++;}});
    document.querySelectorAll("#matrix tbody").forEach(function(group){
    var head=group.querySelector("tr.group");if(head){
    head.hidden=group.querySelector("tr.entry:not([hidden])")===null;}});
    shown.textContent=String(count);}
    if(location.hash==="#failed-only"){only.checked=true;}
    if(location.hash.indexOf("#search=")===0){
    search.value=decodeURIComponent(location.hash.slice(8));}
    only.addEventListener("change",apply);search.addEventListener("input",apply);apply();
    })();
    """
}
