import ArchiveFormat

/// Writes a `TransformerPreflight.Report` as text, JSON (`schemas/coredata-preflight.schema.json`)
/// or a self-contained HTML page, each with the transformer subclass to register.
///
/// ```swift
/// let writer = TransformerPreflightReportWriter(format: .json)
/// print(writer.render(report))
/// ```
package struct TransformerPreflightReportWriter {
  /// The output formats.
  package enum Format: String, Sendable, CaseIterable {
    /// For people; may change between versions.
    case text
    /// Stable, with `serializationVersion`.
    case json
    /// One page that loads nothing, every value escaped.
    case html
  }

  /// The JSON format's version.
  package static let serializationVersion: Int64 = 1
  /// The most lost rows text output lists per attribute.
  static let textListedRows = 20

  /// The format.
  package var format: Format
  /// The tool's name, for the page's title.
  package var toolName: String

  /// Creates a writer.
  package init(format: Format, toolName: String = "archive-harness") {
    self.format = format
    self.toolName = toolName
  }

  /// The report in the format.
  package func render(_ report: TransformerPreflight.Report) -> String {
    switch format {
    case .text: text(report)
    case .json: json(report).render(sortedKeys: false, pretty: true) + "\n"
    case .html: html(report)
    }
  }

  // MARK: The Swift snippet

  /// The `NSSecureUnarchiveFromDataTransformer` subclass that reads every row, and its
  /// registration.
  package static func swiftSnippet(for attribute: TransformerPreflight.AttributeReport) -> String {
    let transformerName: String
    if case .custom(let name) = attribute.attribute.transformer {
      transformerName = name
    } else {
      transformerName =
        identifier(attribute.attribute.entity)
        + identifier(attribute.attribute.attribute).capitalizedFirst
        + "Transformer"
    }
    let className = identifier(transformerName)
    var lines = attribute.minimalAllowedClasses.map { name -> String in
      let swiftName = swiftClassName(name)
      return swiftName == name
        ? "      \(swiftName).self," : "      \(swiftName).self,  // archived as \(name)"
    }
    if lines.isEmpty {
      lines = ["      // no row holds an archive: list the classes the app stores"]
    }
    return """
      @objc(\(className))
      final class \(className): NSSecureUnarchiveFromDataTransformer {
        static let name = NSValueTransformerName(rawValue: "\(className)")

        override static var allowedTopLevelClasses: [AnyClass] {
          [
      \(lines.joined(separator: "\n"))
          ]
        }

        /// Call before loading the persistent container; the model names it as its transformer.
        static func register() {
          ValueTransformer.setValueTransformer(\(className)(), forName: name)
        }
      }
      """
  }

  /// The Swift name of an archived class: `Module.Class` is `Class` in its module.
  static func swiftClassName(_ archived: String) -> String {
    identifier(archived.split(separator: ".").last.map(String.init) ?? archived)
  }

  /// Letters, digits and underscores only; never empty, never starting with a digit.
  static func identifier(_ text: String) -> String {
    let kept = String(text.unicodeScalars.filter { $0.isASCIIIdentifier }.map(Character.init))
    guard let first = kept.first else { return "Value" }
    return first.isNumber ? "_" + kept : kept
  }

  // MARK: Text

  private func text(_ report: TransformerPreflight.Report) -> String {
    var out = "coredata preflight \(report.store)\n  model: \(report.model)\n"
    if report.attributes.isEmpty { out += "  the model has no transformable attributes\n" }
    for attribute in report.attributes {
      let declared = attribute.attribute
      out += "\n\(declared.qualifiedName)  (\(declared.modelPlace))\n"
      out += "  transformer: \(Self.transformerText(declared))\n"
      if let custom = declared.customClassName { out += "  customClassName: \(custom)\n" }
      if let skipped = attribute.skipped {
        out += "  skipped: \(skipped)\n"
        continue
      }
      out += "  column: \(attribute.table).\(attribute.column)\n"
      out +=
        "  checked against (\(attribute.basis.rawValue)): \(attribute.checkedClasses.joined(separator: ", "))\n"
      out +=
        "  rows: \(attribute.rows) (\(attribute.archiveRows) archives, \(attribute.nullRows) NULL, \(attribute.otherRows) other)\n"
      out +=
        "  minimal allowedTopLevelClasses: \(attribute.minimalAllowedClasses.isEmpty ? "(no archive rows)" : attribute.minimalAllowedClasses.joined(separator: ", "))\n"
      if !attribute.leafClasses.isEmpty {
        out +=
          "    property-list leaves among them (a secure read only logs these today): \(attribute.leafClasses.joined(separator: ", "))\n"
      }
      out += "  legacy path: \(Self.countsText(attribute.legacy))\n"
      out += "  secure path: \(Self.countsText(attribute.secure))\n"
      if !attribute.unregisteredClasses.isEmpty {
        out +=
          "  not registered in this harness (checked by class name only): \(attribute.unregisteredClasses.joined(separator: ", "))\n"
      }
      if attribute.lostRowCount == 0 {
        out += "  no row would be lost\n"
      } else {
        out += "  rows that would become nil: \(attribute.lostRowCount)\n"
        for row in attribute.lostRows.prefix(Self.textListedRows) {
          out +=
            "    lost  \(row.entity)[Z_PK=\(row.primaryKey)].\(declared.attribute)  [\(row.kind.rawValue)] \(row.message)\n"
        }
        let shown = min(attribute.lostRows.count, Self.textListedRows)
        if attribute.lostRowCount > shown {
          out +=
            "    … and \(attribute.lostRowCount - shown) more (--format json or html lists up to \(TransformerPreflight.maximumListedRows))\n"
        }
      }
      out += "  transformer that reads every row:\n"
      out +=
        Self.swiftSnippet(for: attribute).split(separator: "\n", omittingEmptySubsequences: false)
        .map { "    " + $0 }.joined(separator: "\n") + "\n"
    }
    out +=
      "\nsummary: \(report.attributes.count) transformable attributes, \(report.lostRowCount) rows would become nil\n"
    return out
  }

  static func transformerText(_ attribute: TransformerPreflight.Attribute) -> String {
    switch attribute.transformer {
    case .deprecatedDefault:
      "\(attribute.declaredTransformer ?? "none") (the deprecated default, NSKeyedUnarchiveFromData)"
    case .secureDefault: attribute.declaredTransformer ?? "NSSecureUnarchiveFromData"
    case .custom(let name): "\(name) (custom)"
    }
  }

  static func transformerKindName(_ kind: TransformerPreflight.TransformerKind) -> String {
    switch kind {
    case .deprecatedDefault: "deprecated-default"
    case .secureDefault: "secure-default"
    case .custom: "custom"
    }
  }

  private static func countsText(_ counts: TransformerPreflight.PathCounts) -> String {
    var parts = ["\(counts.decoded) decoded"]
    if counts.unregistered > 0 { parts.append("\(counts.unregistered) with unregistered classes") }
    for (category, number) in counts.rejected.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      parts.append("\(number) rejected [\(category.rawValue)]")
    }
    return parts.joined(separator: ", ")
  }

  // MARK: JSON

  private func json(_ report: TransformerPreflight.Report) -> JSONValue {
    .object([
      ("serializationVersion", .integer(Self.serializationVersion)),
      ("store", .string(report.store)),
      ("model", .string(report.model)),
      ("attributes", .array(report.attributes.map(Self.attributeJSON))),
      (
        "summary",
        .object([
          ("attributes", .integer(Int64(report.attributes.count))),
          ("lostRows", .integer(Int64(report.lostRowCount))),
        ])
      ),
    ])
  }

  private static func attributeJSON(_ attribute: TransformerPreflight.AttributeReport) -> JSONValue
  {
    let declared = attribute.attribute
    var members: [(String, JSONValue)] = [
      ("entity", .string(declared.entity)),
      ("attribute", .string(declared.attribute)),
      ("modelPlace", .string(declared.modelPlace)),
      ("valueTransformerName", declared.declaredTransformer.map(JSONValue.string) ?? .null),
      ("transformer", .string(transformerKindName(declared.transformer))),
      ("customClassName", declared.customClassName.map(JSONValue.string) ?? .null),
    ]
    if let skipped = attribute.skipped {
      members.append(("skipped", .string(skipped)))
      return .object(members)
    }
    members += [
      ("table", .string(attribute.table)),
      ("column", .string(attribute.column)),
      ("basis", .string(attribute.basis.rawValue)),
      ("checkedClasses", .array(attribute.checkedClasses.map(JSONValue.string))),
      (
        "rows",
        .object([
          ("total", .integer(Int64(attribute.rows))),
          ("archives", .integer(Int64(attribute.archiveRows))),
          ("null", .integer(Int64(attribute.nullRows))),
          ("other", .integer(Int64(attribute.otherRows))),
        ])
      ),
      ("minimalAllowedClasses", .array(attribute.minimalAllowedClasses.map(JSONValue.string))),
      ("leafClasses", .array(attribute.leafClasses.map(JSONValue.string))),
      ("unregisteredClasses", .array(attribute.unregisteredClasses.map(JSONValue.string))),
      ("legacy", countsJSON(attribute.legacy)),
      ("secure", countsJSON(attribute.secure)),
      ("lostRowCount", .integer(Int64(attribute.lostRowCount))),
      (
        "lostRows",
        .array(
          attribute.lostRows.map { row in
            .object([
              ("pk", .integer(row.primaryKey)),
              ("entity", .string(row.entity)),
              ("reason", .string(row.kind.rawValue)),
              ("class", row.className.map(JSONValue.string) ?? .null),
              ("keyPath", .string(row.keyPath)),
              ("message", .string(row.message)),
            ])
          })
      ),
      ("swift", .string(swiftSnippet(for: attribute))),
    ]
    return .object(members)
  }

  private static func countsJSON(_ counts: TransformerPreflight.PathCounts) -> JSONValue {
    .object([
      ("decoded", .integer(Int64(counts.decoded))),
      ("unregistered", .integer(Int64(counts.unregistered))),
      (
        "rejected",
        .object(
          counts.rejected.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            ($0.key.rawValue, JSONValue.integer(Int64($0.value)))
          })
      ),
    ])
  }

  // MARK: HTML

  private func html(_ report: TransformerPreflight.Report) -> String {
    let e = XMLText.escaped
    var page = HTMLPage.opening(
      title: "\(toolName) coredata preflight",
      style: HTMLPage.baseStyle
        + "pre{background:#f4f4f4;padding:.5rem;overflow:auto}\n.lost{color:#a00}\n")
    page += "<dl><dt>Store</dt><dd>\(e(report.store))</dd><dt>Model</dt><dd>\(e(report.model))</dd>"
    page += "<dt>Rows that would become nil</dt><dd>\(report.lostRowCount)</dd></dl>\n"
    for attribute in report.attributes {
      let declared = attribute.attribute
      page += "<section>\n<h2>\(e(declared.qualifiedName))</h2>\n<dl>"
      page += "<dt>Declared at</dt><dd>\(e(declared.modelPlace))</dd>"
      page += "<dt>Transformer</dt><dd>\(e(Self.transformerText(declared)))</dd>"
      if let custom = declared.customClassName {
        page += "<dt>customClassName</dt><dd>\(e(custom))</dd>"
      }
      if let skipped = attribute.skipped {
        page += "<dt>Skipped</dt><dd>\(e(skipped))</dd></dl>\n</section>\n"
        continue
      }
      page += "<dt>Column</dt><dd>\(e(attribute.table)).\(e(attribute.column))</dd>"
      page +=
        "<dt>Checked against (\(e(attribute.basis.rawValue)))</dt><dd>\(e(attribute.checkedClasses.joined(separator: ", ")))</dd>"
      page +=
        "<dt>Rows</dt><dd>\(attribute.rows) (\(attribute.archiveRows) archives, \(attribute.nullRows) NULL, \(attribute.otherRows) other)</dd>"
      page +=
        "<dt>Minimal allowedTopLevelClasses</dt><dd>\(e(attribute.minimalAllowedClasses.joined(separator: ", ")))</dd>"
      page += "<dt>Legacy path</dt><dd>\(e(Self.countsText(attribute.legacy)))</dd>"
      page += "<dt>Secure path</dt><dd>\(e(Self.countsText(attribute.secure)))</dd>"
      page += "<dt>Lost</dt><dd class=\"lost\">\(attribute.lostRowCount)</dd></dl>\n"
      if !attribute.lostRows.isEmpty {
        page +=
          "<table><thead><tr><th>Z_PK</th><th>Entity</th><th>Reason</th><th>Class</th><th>Key path</th><th>Why</th></tr></thead><tbody>\n"
        for row in attribute.lostRows {
          page +=
            "<tr class=\"row\"><td data-label=\"Z_PK\">\(row.primaryKey)</td><td data-label=\"Entity\">\(e(row.entity))</td><td data-label=\"Reason\">\(e(row.kind.rawValue))</td><td data-label=\"Class\">\(e(row.className ?? ""))</td><td data-label=\"Key path\">\(e(row.keyPath))</td><td data-label=\"Why\">\(e(row.message))</td></tr>\n"
        }
        page += "</tbody></table>\n"
      }
      page +=
        "<h3>Transformer that reads every row</h3>\n<pre>\(e(Self.swiftSnippet(for: attribute)))</pre>\n</section>\n"
    }
    return page + HTMLPage.closing(script: "")
  }
}

extension String {
  /// The string with its first character uppercased.
  fileprivate var capitalizedFirst: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }
}

extension Unicode.Scalar {
  /// An ASCII letter, digit or underscore.
  fileprivate var isASCIIIdentifier: Bool {
    (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
      || (value >= 0x61 && value <= 0x7A) || value == 0x5F
  }
}
