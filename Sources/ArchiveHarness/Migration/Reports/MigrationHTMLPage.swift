import ArchiveFormat

/// The pieces of `--format html` for a migration plan or result: one self-contained page.
///
/// The page loads nothing: its style and its small filter script are inline.
/// Every string that comes from a store (record names, keys, reasons) is
/// escaped with `XMLText`, so markup in a key or a value shows as text. The
/// records are a real table with column and row headers; a checkbox (or the
/// address `#refused-only`) shows only the refused ones (and those accepted under
/// another category, which fail like them), without a server. An accepted refusal
/// shows the manifest's reason beside the refusal's.
/// `MigrationReportWriter` streams the rows and asks for the rest at the end.
enum MigrationHTMLPage {
  /// The page up to the table's rows: title, counts per decision, notes, the filter, the header.
  static func head(
    store: String, mode: String, operation: MigrationReportWriter.Operation,
    summary: MigrationSummary, notes: [(String, String)], toolName: String
  ) -> String {
    let title = "\(toolName) \(operation == .dryRun ? "migrate-dry-run" : "migrate")"
    var page = HTMLPage.opening(title: title, style: style)
    page += "<section class=\"summary\" aria-label=\"Summary\"><dl>\n"
    var counts: [(String, String, Int)] = []
    if operation == .dryRun {
      counts.append(("will-rewrite", "Will rewrite", summary.willRewrite))
    } else {
      counts.append(("rewritten", "Rewritten", summary.rewritten))
    }
    counts += [
      ("already-current", "Already current", summary.alreadyCurrent),
      ("refused", "Refused", summary.refused), ("skipped", "Skipped", summary.skipped),
      ("accepted", "Accepted refusals", summary.accepted),
      ("category-changed", "Accepted, category changed", summary.categoryChanged),
      ("total", "Records", summary.total),
    ]
    for (name, term, count) in counts {
      page += "<div><dt>\(term)</dt><dd id=\"count-\(name)\">\(count)</dd></div>\n"
    }
    page += "<div><dt>Store</dt><dd>\(escape(store))</dd></div>\n"
    page += "<div><dt>Mode</dt><dd>\(escape(mode))</dd></div>\n"
    if summary.interrupted { page += "<div><dt>Interrupted</dt><dd>yes</dd></div>\n" }
    page += "</dl>\n"
    for (name, value) in notes {
      page += "<p class=\"note\">\(escape(name)): \(escape(value))</p>\n"
    }
    for stale in summary.acceptedNoLongerRefused {
      page +=
        "<p class=\"note warning\">warning: \(escape(stale.accepted.place.description)): \(escape(stale.message))</p>\n"
    }
    page += """
      </section>
      <form class="filters" onsubmit="return false">
      <label><input type="checkbox" id="refused-only"> Refused only</label>
      <output id="shown" aria-live="polite">\(summary.total)</output> of \(summary.total) shown
      </form>
      <table id="records">
      <caption>One row per record: the decision, and for a refused record the step that \
      failed, why, and what the app's own read does with it today</caption>
      <thead><tr><th scope="col">Record</th><th scope="col">Decision</th>\
      <th scope="col">Step</th><th scope="col">Reason</th>\
      <th scope="col">The app's read today</th></tr></thead>
      <tbody>

      """
    return page
  }

  /// One record's row.
  static func row(_ plan: RecordPlan) -> String {
    let decision = plan.outcome.name
    var step = "—"
    var reason = ""
    var today = ""
    switch plan.outcome {
    case .willRewrite(let summary), .rewritten(let summary):
      reason = summary
    case .alreadyCurrent:
      break
    case .refused(let refusal):
      step = refusal.step.rawValue
      reason = refusal.reason
      today = refusal.currentReadConsequence
    case .skipped(let why):
      reason = why
    case .accepted(let refusal, let accepted):
      step = refusal.step.rawValue
      reason =
        "\(refusal.reason); accepted (\(accepted.category)) at \(accepted.place): \(accepted.reason)"
      today = refusal.currentReadConsequence
    case .categoryChanged(let refusal, let accepted):
      step = refusal.step.rawValue
      reason =
        "\(refusal.reason); \(MigrationReportWriter.categoryChangeText(refusal, accepted))"
      today = refusal.currentReadConsequence
    }
    var text = "<tr class=\"record \(decision)\" data-outcome=\"\(decision)\">"
    text += "<th scope=\"row\">\(escape(plan.record.id.description))</th>"
    text += "<td data-label=\"Decision\" class=\"decision\">\(decision)</td>"
    text += "<td data-label=\"Step\" class=\"step\">\(escape(step))</td>"
    text += "<td data-label=\"Reason\" class=\"reason\">\(escape(reason))</td>"
    text += "<td data-label=\"The app's read today\" class=\"today\">\(escape(today))</td></tr>\n"
    return text
  }

  /// The page after the rows.
  static let tail = "</tbody>\n</table>\n" + HTMLPage.closing(script: script)

  private static func escape(_ text: String) -> String { XMLText.escaped(text) }

  private static let style =
    HTMLPage.baseStyle + """
      th,td{overflow-wrap:anywhere}
      tr.refused td.decision,tr.category-changed td.decision{background:#fbe1e1;font-weight:700}
      tr.accepted td.decision{background:#f4efd9}
      tr.will-rewrite td.decision,tr.rewritten td.decision{background:#e3f4e3}
      tr.skipped td.decision{color:#555}
      .step{font-family:monospace}

      """ + HTMLPage.phoneStyle("record")

  private static let script = """
    (function(){
    var only=document.getElementById("refused-only"),shown=document.getElementById("shown");
    var rows=document.querySelectorAll("tr.record");
    function apply(){var count=0;rows.forEach(function(row){
    var hide=only.checked&&row.dataset.outcome!=="refused"&&row.dataset.outcome!=="category-changed";row.hidden=hide;if(!hide){count++;}});
    shown.textContent=String(count);}
    if(location.hash==="#refused-only"){only.checked=true;}
    only.addEventListener("change",apply);apply();
    })();
    """
}
