import ArchiveCoder
import ArchiveFormat

/// What `diff` found: the two inputs, every record that differs, and how many were the same.
///
/// ```swift
/// var report = DiffReport(kind: .archives, old: "v1.archive", new: "v2.archive")
/// report.add(StoreComparison().compare(oldRecord, newRecord))
/// print(DiffReportWriter(format: .text, toolName: "archive-harness").render(report))
/// ```
package struct DiffReport: Sendable {
  /// What was compared.
  package enum Kind: String, Sendable {
    /// Two archives (files or store places).
    case archives
    /// Two copies of a store, record by record.
    case stores
  }

  /// What was compared.
  package var kind: Kind
  /// The old input, as it was named.
  package var old: String
  /// The new input, as it was named.
  package var new: String
  /// The records that differ, in the order compared.
  package private(set) var records: [RecordComparison] = []
  /// How many records were the same.
  package private(set) var sameCount = 0

  /// Creates an empty report.
  package init(kind: Kind, old: String, new: String) {
    self.kind = kind
    self.old = old
    self.new = new
  }

  /// Adds a record's result: kept when it differs, counted when it is the same.
  package mutating func add(_ record: RecordComparison) {
    if record.differs {
      records.append(record)
    } else {
      sameCount += 1
    }
  }

  /// Whether anything differs.
  package var differs: Bool { !records.isEmpty }

  /// The counts the summaries give.
  struct Counts {
    var different = 0
    var onlyInOld = 0
    var onlyInNew = 0
    var unreadable = 0
    var tooLarge = 0
    var byKind: [ArchiveDifference.Kind: Int] = [:]
  }

  var counts: Counts {
    var counts = Counts()
    for record in records {
      switch record.outcome {
      case .same: break
      case .different(let differences):
        counts.different += 1
        for difference in differences { counts.byKind[difference.kind, default: 0] += 1 }
      case .onlyInOld: counts.onlyInOld += 1
      case .onlyInNew: counts.onlyInNew += 1
      case .unreadable: counts.unreadable += 1
      case .tooLarge: counts.tooLarge += 1
      }
    }
    return counts
  }
}

/// Writes a `DiffReport` as text (nothing at all when nothing differs, as `diff` does),
/// JSON (`schemas/diff.schema.json`) or one self-contained HTML page, the old and the new
/// values side by side.
///
/// ```swift
/// let text = DiffReportWriter(format: .html, toolName: "archive-harness").render(report)
/// ```
package struct DiffReportWriter: Sendable {
  /// The output formats.
  package enum Format: String, CaseIterable, Sendable {
    /// One line a difference, for people; nothing when nothing differs.
    case text
    /// JSON, stable (`schemas/diff.schema.json`).
    case json
    /// One self-contained page, old and new side by side.
    case html
  }

  /// The format written.
  package var format: Format
  /// The running tool's name, for the HTML title.
  package var toolName: String

  /// Creates a writer.
  package init(format: Format, toolName: String) {
    self.format = format
    self.toolName = toolName
  }

  /// The report in the writer's format.
  package func render(_ report: DiffReport) -> String {
    switch format {
    case .text: return text(report)
    case .json: return json(report).render(sortedKeys: true) + "\n"
    case .html: return html(report)
    }
  }

  // MARK: Text

  private func text(_ report: DiffReport) -> String {
    guard report.differs else { return "" }
    var text = "--- \(report.old)\n+++ \(report.new)\n"
    let indent = report.kind == .stores ? "  " : ""
    for record in report.records {
      let name = Self.name(record)
      switch record.outcome {
      case .same:
        continue
      case .different(let differences):
        if report.kind == .stores { text += "\(name)\n" }
        for difference in differences { text += indent + difference.description + "\n" }
      case .onlyInOld:
        text += "only in \(report.old): \(name)\n"
      case .onlyInNew:
        text += "only in \(report.new): \(name)\n"
      case .unreadable(let old, let new):
        text += "\(name): not compared: " + Self.reasons(old: old, new: new) + "\n"
      case .tooLarge(let error):
        text += "\(name): not compared: \(error)\n"
      }
    }
    return text + summary(report) + "\n"
  }

  /// The closing line: the differences by kind for two archives; the records by outcome for
  /// two stores.
  private func summary(_ report: DiffReport) -> String {
    let counts = report.counts
    let kinds = ArchiveDifference.Kind.allCases.compactMap { kind -> String? in
      guard let count = counts.byKind[kind], count > 0 else { return nil }
      return "\(count) \(kind == .typeChanged ? "changed in type" : kind.rawValue)"
    }
    let total = counts.byKind.values.reduce(0, +)
    let differences = "\(total) difference\(total == 1 ? "" : "s")"
    guard report.kind == .stores else {
      return differences + (kinds.isEmpty ? "" : ": " + kinds.joined(separator: ", "))
    }
    let outcomes = [
      (counts.different, "different"), (counts.onlyInOld, "only in \(report.old)"),
      (counts.onlyInNew, "only in \(report.new)"),
      (counts.unreadable + counts.tooLarge, "not compared"),
    ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    let records = report.records.count + report.sameCount
    return "\(report.records.count) of \(records) records differ ("
      + outcomes.joined(separator: ", ") + "); \(differences)"
      + (kinds.isEmpty ? "" : " (" + kinds.joined(separator: ", ") + ")")
  }

  /// A record's name: the new store's place, or the old one's when only it holds the record.
  static func name(_ record: RecordComparison) -> String {
    (record.new ?? record.old)?.description ?? "?"
  }

  private static func reasons(old: String?, new: String?) -> String {
    [old.map { "old: \($0)" }, new.map { "new: \($0)" }].compactMap { $0 }
      .joined(separator: "; ")
  }

  // MARK: JSON

  private func json(_ report: DiffReport) -> JSONValue {
    let counts = report.counts
    let differences = JSONValue.object(
      ArchiveDifference.Kind.allCases.map {
        ($0.rawValue, .integer(Int64(counts.byKind[$0] ?? 0)))
      })
    let summary = JSONValue.object([
      ("records", .integer(Int64(report.records.count + report.sameCount))),
      ("same", .integer(Int64(report.sameCount))),
      ("different", .integer(Int64(counts.different))),
      ("onlyInOld", .integer(Int64(counts.onlyInOld))),
      ("onlyInNew", .integer(Int64(counts.onlyInNew))),
      ("notCompared", .integer(Int64(counts.unreadable + counts.tooLarge))),
      ("differences", differences),
    ])
    return .object([
      ("serializationVersion", .integer(1)), ("kind", .string(report.kind.rawValue)),
      ("old", .string(report.old)), ("new", .string(report.new)), ("summary", summary),
      ("records", .array(report.records.map(Self.json))),
    ])
  }

  private static func json(_ record: RecordComparison) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("old", record.old.map { .string($0.description) } ?? .null),
      ("new", record.new.map { .string($0.description) } ?? .null),
    ]
    switch record.outcome {
    case .same:
      members.append(("outcome", .string("same")))
    case .different(let differences):
      members.append(("outcome", .string("different")))
      members.append(("differences", .array(differences.map(json))))
    case .onlyInOld:
      members.append(("outcome", .string("only-in-old")))
    case .onlyInNew:
      members.append(("outcome", .string("only-in-new")))
    case .unreadable(let old, let new):
      members.append(("outcome", .string("not-compared")))
      members.append(
        (
          "reasons",
          .object([
            ("old", old.map(JSONValue.string) ?? .null),
            ("new", new.map(JSONValue.string) ?? .null),
          ])
        ))
    case .tooLarge(let error):
      members.append(("outcome", .string("not-compared")))
      members.append(("reasons", .object([("comparison", .string(error.description))])))
    }
    return .object(members)
  }

  private static func json(_ difference: ArchiveDifference) -> JSONValue {
    .object([
      ("kind", .string(difference.kind.rawValue)),
      ("keyPath", .string(difference.keyPath.displayText)),
      ("old", difference.old.map(json) ?? .null), ("new", difference.new.map(json) ?? .null),
    ])
  }

  private static func json(_ value: ComparedValue) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("type", .string(value.typeName)), ("description", .string(value.description)),
    ]
    switch value {
    case .leaf(let leaf):
      if let scalar = scalar(leaf) { members.append(("value", scalar)) }
    case .array(let count), .set(let count), .dictionary(let count):
      members.append(("count", .integer(Int64(count))))
    case .instance(let name, let mapped):
      members.append(("className", .string(name)))
      if let mapped { members.append(("mappedTo", .string(mapped))) }
    case .sharedInstance(let name, let path):
      members.append(("className", .string(name)))
      members.append(("firstReachedAt", .string(path.displayText)))
    case .null:
      break
    }
    return .object(members)
  }

  /// A leaf's value as JSON: strings, numbers, booleans, a URL's text, a date's seconds since
  /// 2001-01-01; `nil` for bytes (the description gives their count).
  private static func scalar(_ leaf: ArchiveLeaf) -> JSONValue? {
    switch leaf {
    case .string(let text), .url(let text): return .string(text)
    case .integer(let number): return .integer(number)
    case .unsignedInteger(let number): return .unsignedInteger(number)
    case .real(let number), .date(let number): return number.isFinite ? .number(number) : nil
    case .bool(let flag): return .bool(flag)
    case .null, .data, .uuid, .object: return nil
    }
  }

  // MARK: HTML

  private func html(_ report: DiffReport) -> String {
    let counts = report.counts
    var page = HTMLPage.opening(title: "\(toolName) diff", style: Self.style)
    page += "<section class=\"summary\" aria-label=\"Summary\"><dl>\n"
    let terms: [(String, String)] = [
      ("Old", Self.escape(report.old)), ("New", Self.escape(report.new)),
      ("Records", "\(report.records.count + report.sameCount)"),
      ("Same", "\(report.sameCount)"), ("Different", "\(counts.different)"),
      ("Only in old", "\(counts.onlyInOld)"), ("Only in new", "\(counts.onlyInNew)"),
      ("Not compared", "\(counts.unreadable + counts.tooLarge)"),
    ]
    for (term, value) in terms where report.kind == .stores || !term.hasPrefix("Only") {
      page += "<div><dt>\(term)</dt><dd>\(value)</dd></div>\n"
    }
    for kind in ArchiveDifference.Kind.allCases {
      page +=
        "<div><dt>\(Self.heading(kind))</dt><dd id=\"count-\(kind)\">\(counts.byKind[kind] ?? 0)</dd></div>\n"
    }
    page += "</dl></section>\n"
    if !report.differs {
      page += "<p class=\"same\">Nothing differs.</p>\n"
    }
    for record in report.records {
      page += Self.section(record, report: report)
    }
    return page + HTMLPage.closing(script: "")
  }

  /// One record: a table of its differences, the old value beside the new one.
  private static func section(_ record: RecordComparison, report: DiffReport) -> String {
    let name = escape(Self.name(record))
    var text = "<section class=\"record\">\n<h2>\(name)</h2>\n"
    switch record.outcome {
    case .same:
      return ""
    case .onlyInOld:
      return text + "<p class=\"only\">Only in \(escape(report.old)).</p>\n</section>\n"
    case .onlyInNew:
      return text + "<p class=\"only\">Only in \(escape(report.new)).</p>\n</section>\n"
    case .unreadable(let old, let new):
      return text
        + "<p class=\"unreadable\">Not compared: \(escape(reasons(old: old, new: new)))</p>\n</section>\n"
    case .tooLarge(let error):
      return text
        + "<p class=\"unreadable\">Not compared: \(escape(error.description))</p>\n</section>\n"
    case .different(let differences):
      let oldName = escape(record.old?.description ?? report.old)
      let newName = escape(record.new?.description ?? report.new)
      text += """
        <table>
        <thead><tr><th scope="col">Key path</th><th scope="col">Difference</th>\
        <th scope="col">Old: \(oldName)</th><th scope="col">New: \(newName)</th></tr></thead>
        <tbody>

        """
      for difference in differences {
        let kind = difference.kind.rawValue
        text += "<tr class=\"difference \(kind)\">"
        text += "<th scope=\"row\" class=\"path\">\(escape(difference.keyPath.displayText))</th>"
        text += "<td data-label=\"Difference\" class=\"kind\">\(kind)</td>"
        text +=
          "<td data-label=\"Old\" class=\"old\">\(escape(difference.old?.description ?? ""))</td>"
        text +=
          "<td data-label=\"New\" class=\"new\">\(escape(difference.new?.description ?? ""))</td></tr>\n"
      }
      return text + "</tbody>\n</table>\n</section>\n"
    }
  }

  private static func heading(_ kind: ArchiveDifference.Kind) -> String {
    switch kind {
    case .added: "Added"
    case .removed: "Removed"
    case .changed: "Changed"
    case .typeChanged: "Changed in type"
    }
  }

  private static func escape(_ text: String) -> String { XMLText.escaped(text) }

  private static let style =
    HTMLPage.baseStyle + """
      h2{font-size:1rem;margin:1.5rem 0 .5rem;overflow-wrap:anywhere}
      table{table-layout:fixed}
      th,td{overflow-wrap:anywhere}
      thead th:nth-child(1){width:20%}thead th:nth-child(2){width:10%}
      thead th:nth-child(3),thead th:nth-child(4){width:35%}
      .path,.kind{font-family:monospace}
      tr.removed td.old{background:#fbe1e1}
      tr.added td.new{background:#e3f4e3}
      tr.changed td.old,tr.changed td.new,tr.type-changed td.old,tr.type-changed td.new{background:#f4efd9}

      """ + HTMLPage.phoneStyle("difference")
}
