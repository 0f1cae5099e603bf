import ArchiveFormat
import Foundation

/// Writes a survey as text for people or as JSON (`schemas/survey.schema.json`) for tools.
///
/// Every place comes with the `migrate-dry-run` command to run next for it; for an encrypted
/// store the command holds the placeholder `--key-file KEY_FILE`, never the key.
///
/// ```swift
/// let report = try StoreSurvey(path: "cache.sqlite").run()
/// print(SurveyReportWriter(format: .text).render(report), terminator: "")
/// ```
package struct SurveyReportWriter: Sendable {
  /// The output formats.
  package enum Format: String, Sendable, CaseIterable {
    /// For people; may change between versions.
    case text
    /// Stable, with `serializationVersion`.
    case json
  }

  /// The JSON format's version.
  package static let serializationVersion: Int64 = 1

  /// The format.
  package var format: Format
  /// The running tool's name, which the commands start with.
  package var toolName: String
  /// Class sets and `$top` key sets listed per place; the rest are summed in one line.
  package var listLimit: Int

  /// Creates a writer.
  package init(format: Format, toolName: String = ToolName.standard, listLimit: Int = 10) {
    self.format = format
    self.toolName = toolName
    self.listLimit = listLimit
  }

  /// The report's text.
  package func render(_ report: SurveyReport) -> String {
    switch format {
    case .text: text(report)
    case .json: json(report).render(sortedKeys: true, pretty: true) + "\n"
    }
  }

  /// The arguments that open the store in a command: for an encrypted one the key's
  /// placeholder and the settings its version's defaults do not give.
  package static func storeArguments(for report: SurveyReport) -> [String] {
    guard let settings = report.encryption else { return [] }
    var arguments = ["--key-file", "KEY_FILE"]
    guard !settings.isDefault else { return arguments }
    let base = SQLCipherSettings.defaults(compatibility: settings.compatibility)
    arguments += ["--cipher-compatibility", String(settings.compatibility)]
    if settings.pageSize != base.pageSize {
      arguments += ["--cipher-page-size", String(settings.pageSize)]
    }
    if settings.kdfIterations != base.kdfIterations {
      arguments += ["--cipher-kdf-iter", String(settings.kdfIterations)]
    }
    if settings.kdfAlgorithm != base.kdfAlgorithm {
      arguments += ["--cipher-kdf-algorithm", settings.kdfAlgorithm.pragmaName(kdf: true)]
    }
    if let hmac = settings.hmacAlgorithm, hmac != base.hmacAlgorithm {
      arguments += ["--cipher-hmac-algorithm", hmac.pragmaName(kdf: false)]
    }
    if settings.plaintextHeaderSize != 0 {
      arguments += ["--cipher-plaintext-header-size", String(settings.plaintextHeaderSize)]
      if let salt = settings.salt { arguments += ["--cipher-salt", Hex.encode(salt)] }
    }
    return arguments
  }

  /// A place's next command as one line a shell reads back as the same words.
  package func command(for place: SurveyPlaceReport, in report: SurveyReport) -> String? {
    guard
      let arguments = place.dryRunArguments(
        store: report.store, storeArguments: Self.storeArguments(for: report))
    else { return nil }
    return ([toolName] + arguments).map(Self.shellWord).joined(separator: " ")
  }

  /// The `migrate-dry-run` of the whole store with a manifest that says where its archives are
  /// (`survey --author` writes one), as a shell reads it.
  ///
  /// - Parameters:
  ///   - manifest: The manifest's path.
  ///   - report: The survey, for the store's path and the arguments that open it.
  /// - Returns: The command line.
  package func dryRunCommand(manifest: String, in report: SurveyReport) -> String {
    ([toolName, "migrate-dry-run", "--store", report.store] + Self.storeArguments(for: report)
      + ["--manifest", manifest]).map(Self.shellWord).joined(separator: " ")
  }

  /// The `manifest author` that drafts a Keychain snapshot's `<keychainSnapshot>` and its
  /// items' `<archive keychainItem>` entries, with the snapshot's folder as `--archives`; nil
  /// for a store of another kind.
  ///
  /// ```swift
  /// writer.keychainAuthorCommand(in: report)
  /// // archive-harness manifest author --archives Keychain app-v1.json --output MANIFEST
  /// ```
  package func keychainAuthorCommand(in report: SurveyReport) -> String? {
    guard report.kind == .keychainSnapshot else { return nil }
    let folder = (report.store as NSString).deletingLastPathComponent
    return
      ([
        toolName, "manifest", "author", "--archives", folder.isEmpty ? "." : folder,
        (report.store as NSString).lastPathComponent,
      ].map(Self.shellWord) + ["--output", "MANIFEST"]).joined(separator: " ")
  }

  /// A word as a POSIX shell reads it back: bare when it is safe, else in single quotes.
  package static func shellWord(_ word: String) -> String {
    let safe = word.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A) || "_-./:=,@+%".utf8.contains(byte)
    }
    if safe && !word.isEmpty { return word }
    return "'" + word.replacingAll("'", with: "'\\''") + "'"
  }

  // MARK: Text

  private func text(_ report: SurveyReport) -> String {
    var out = "survey of \(report.store): "
    switch report.kind {
    case .sqlite:
      out += "an SQLite database"
      if let settings = report.encryption { out += ", encrypted (\(settings))" }
    case .folder: out += "a folder"
    case .file: out += "one archive file"
    case .propertyList: out += "a property list"
    case .keychainSnapshot: out += "a Keychain snapshot"
    }
    out += "\n"
    if let sample = report.sampleLimit {
      out += "sample: at most \(sample) archives read per place for their classes\n"
    }
    if let coreData = report.coreData { out += coreDataText(coreData) }
    let archivePlaces = report.archivePlaces
    let others = report.places.filter { !$0.holdsArchives }
    out += "\n"
    if archivePlaces.isEmpty {
      out += "no keyed archives\n"
    } else {
      let count = archivePlaces.count
      out += "keyed archives in \(count) \(count == 1 ? "place" : "places"):\n"
    }
    for place in archivePlaces {
      out += "\n" + placeText(place, report: report)
    }
    if !others.isEmpty {
      out += "\nother places (values, no keyed archives):\n"
      for place in others {
        out += "  \(title(place))  \(countsText(place))\n"
      }
    }
    for skipped in report.skippedTables {
      out += "not read: \(skipped.table): \(skipped.reason)\n"
    }
    out += "\nread: "
    switch report.kind {
    case .sqlite:
      out +=
        "\(plural(report.tables, "table")), \(plural(report.columns, "column")), \(plural(report.rows, "row"))\n"
    case .folder, .file, .propertyList, .keychainSnapshot:
      out += "\(plural(report.files, "file"))\n"
    }
    return out
  }

  private func coreDataText(_ schema: CoreDataSchema) -> String {
    var parts: [String] = []
    if !schema.versionIdentifiers.isEmpty {
      parts.append("model version identifiers \(schema.versionIdentifiers.joined(separator: ", "))")
    }
    if let version = schema.version { parts.append("Z_VERSION \(version)") }
    if let hashes = schema.versionHashesVersion { parts.append("hashes version \(hashes)") }
    if let uuid = schema.uuid { parts.append("UUID \(uuid)") }
    var out =
      "Core Data store: " + (parts.isEmpty ? "no model version" : parts.joined(separator: "; "))
    out += "\n"
    if let problem = schema.metadataProblem { out += "  metadata: \(problem)\n" }
    let entities = schema.entities.map { entity in
      var text = entity.name
      if let parent = entity.superID.flatMap(schema.entity(id:)) { text += " < \(parent.name)" }
      return text + " (\(entity.table))"
    }
    out += "  entities: " + (entities.isEmpty ? "none" : entities.joined(separator: ", ")) + "\n"
    return out
  }

  private func title(_ place: SurveyPlaceReport) -> String {
    switch place.place {
    case .column(let table, let column):
      return place.entity == nil || place.attribute == nil
        ? place.name : "\(place.name) (table \(table), column \(column))"
    case .folder(let relativePath):
      return relativePath == "." ? "the store's folder" : "folder \(relativePath)"
    case .file(let path):
      return path
    case .keyPath(let keyPath):
      return "key path \(keyPath)"
    }
  }

  private func placeText(_ place: SurveyPlaceReport, report: SurveyReport) -> String {
    var out = title(place) + "\n"
    if case .column = place.place {
      if let key = place.keyColumn {
        out += "  key: \(key.column), \(key.kind.explanation)\n"
      } else if let problem = place.keyProblem {
        out += "  key: none: \(problem)\n"
      }
      if place.entitiesSeen.count > 1
        || (place.entitiesSeen.first.map { $0 != place.entity } ?? false)
      {
        out += "  rows of entities: \(place.entitiesSeen.joined(separator: ", "))\n"
      }
    }
    out += "  \(countsText(place))\n"
    for example in place.damagedExamples {
      out += "  damaged: \(example.record): \(example.reason)\n"
    }
    out += frequenciesText("class sets", place.classSets, empty: "(no objects: a plain value)")
    out += frequenciesText("$top keys", place.topKeys, empty: "(none)")
    if place.nestedArchives > 0 {
      out +=
        "  nested archives: \(place.nestedArchives) in Data values, of "
        + place.nestedClassNames.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        .prefix(listLimit).joined(separator: ", ")
        + (place.nestedClassNames.count > listLimit
          ? " and \(place.nestedClassNames.count - listLimit) more classes" : "") + "\n"
    }
    if let command = command(for: place, in: report) {
      out += "  next: \(command)\n"
    } else if let reason = place.noCommandReason {
      out += "  next: no migrate-dry-run: \(reason)\n"
    }
    return out
  }

  private func frequenciesText(_ name: String, _ frequencies: SurveyFrequencies, empty: String)
    -> String
  {
    let (shown, remainder) = frequencies.mostFrequent(listLimit)
    guard !shown.isEmpty || remainder != nil else { return "" }
    var out = "  \(name) (records):\n"
    let width = String(shown.first?.records ?? 0).count
    for entry in shown {
      let count = String(entry.records)
      let padded = String(repeating: " ", count: max(0, width - count.count)) + count
      out +=
        "    \(padded)  \(entry.names.isEmpty ? empty : entry.names.joined(separator: ", "))\n"
    }
    if let remainder {
      let sets = remainder.isLowerBound ? "at least \(remainder.sets)" : String(remainder.sets)
      out += "    and \(sets) more (\(plural(remainder.records, "record")))\n"
    }
    return out
  }

  private func countsText(_ place: SurveyPlaceReport) -> String {
    var parts: [String] = []
    if place.archives > 0 {
      parts.append("\(plural(place.archives, "archive"))\(formatsText(place))")
    }
    if place.damagedArchives > 0 { parts.append("\(place.damagedArchives) damaged") }
    if place.notRead > 0 { parts.append("\(place.notRead) not read (past --sample)") }
    if place.nulls > 0 { parts.append("\(place.nulls) NULL") }
    if place.otherBlobs > 0 {
      let kinds = SurveyOtherKind.allCases.compactMap { kind in
        place.otherKinds[kind].map { "\($0) \(kind.rawValue)" }
      }
      parts.append("\(place.otherBlobs) other (\(kinds.joined(separator: ", ")))")
    }
    if place.nonBlobValues > 0 {
      parts.append(
        "\(place.nonBlobValues) \(place.place.kindName == "folder" ? "not read (links, devices, too large)" : "non-blob")"
      )
    }
    return "\(plural(place.values, "value")): " + parts.joined(separator: ", ")
  }

  private func formatsText(_ place: SurveyPlaceReport) -> String {
    let formats = [PropertyListFormat.binary, .xml].compactMap { format in
      place.formats[format].map { "\($0) \(format.rawValue)" }
    }
    return formats.isEmpty ? "" : " (\(formats.joined(separator: ", ")))"
  }

  private func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  // MARK: JSON

  private func json(_ report: SurveyReport) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("serializationVersion", .integer(Self.serializationVersion)),
      ("store", .string(report.store)),
      ("kind", .string(report.kind.rawValue)),
      ("places", .array(report.places.map { placeJSON($0, report: report) })),
    ]
    if let settings = report.encryption {
      members.append(("encryption", .string(settings.description)))
    }
    if let coreData = report.coreData { members.append(("coreData", coreDataJSON(coreData))) }
    if let sample = report.sampleLimit { members.append(("sample", .integer(Int64(sample)))) }
    var read: [(String, JSONValue)] = []
    switch report.kind {
    case .sqlite:
      read = [
        ("tables", .integer(Int64(report.tables))), ("columns", .integer(Int64(report.columns))),
        ("rows", .integer(Int64(report.rows))),
      ]
    case .folder, .file, .propertyList, .keychainSnapshot:
      read = [("files", .integer(Int64(report.files)))]
    }
    members.append(("read", .object(read)))
    if !report.skippedTables.isEmpty {
      members.append(
        (
          "skippedTables",
          .array(
            report.skippedTables.map {
              .object([("table", .string($0.table)), ("reason", .string($0.reason))])
            })
        ))
    }
    return .object(members)
  }

  private func coreDataJSON(_ schema: CoreDataSchema) -> JSONValue {
    var members: [(String, JSONValue)] = [
      (
        "entities",
        .array(
          schema.entities.map { entity in
            .object([
              ("id", .integer(entity.id)), ("name", .string(entity.name)),
              ("super", entity.superID.map(JSONValue.integer) ?? .null),
              ("table", .string(entity.table)),
            ])
          })
      ),
      ("versionIdentifiers", .array(schema.versionIdentifiers.map(JSONValue.string))),
    ]
    if let version = schema.version { members.append(("version", .integer(version))) }
    if let uuid = schema.uuid { members.append(("uuid", .string(uuid))) }
    if let hashes = schema.versionHashesVersion {
      members.append(("versionHashesVersion", .integer(hashes)))
    }
    if let problem = schema.metadataProblem {
      members.append(("metadataProblem", .string(problem)))
    }
    return .object(members)
  }

  private func placeJSON(_ place: SurveyPlaceReport, report: SurveyReport) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("place", .string(place.place.description)),
      ("kind", .string(place.place.kindName)),
      ("holdsArchives", .bool(place.holdsArchives)),
      ("values", .integer(Int64(place.values))),
      ("archives", .integer(Int64(place.archives))),
      ("damagedArchives", .integer(Int64(place.damagedArchives))),
      ("notRead", .integer(Int64(place.notRead))),
      ("nestedArchives", .integer(Int64(place.nestedArchives))),
      (
        "nestedClasses",
        .array(
          place.nestedClassNames.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(
            JSONValue.string))
      ),
      ("nulls", .integer(Int64(place.nulls))),
      ("otherBlobs", .integer(Int64(place.otherBlobs))),
      ("nonBlobValues", .integer(Int64(place.nonBlobValues))),
      (
        "formats",
        .object(
          [PropertyListFormat.binary, .xml].map {
            ($0.rawValue, .integer(Int64(place.formats[$0] ?? 0)))
          })
      ),
      (
        "otherKinds",
        .object(
          SurveyOtherKind.allCases.compactMap { kind in
            place.otherKinds[kind].map { (kind.rawValue, .integer(Int64($0))) }
          })
      ),
      (
        "damagedExamples",
        .array(
          place.damagedExamples.map {
            .object([("record", .string($0.record)), ("reason", .string($0.reason))])
          })
      ),
    ]
    switch place.place {
    case .column(let table, let column):
      members.append(("table", .string(table)))
      members.append(("column", .string(column)))
      if let key = place.keyColumn {
        members.append(
          ("key", .object([("column", .string(key.column)), ("kind", .string(key.kind.rawValue))]))
        )
      }
      if let problem = place.keyProblem { members.append(("keyProblem", .string(problem))) }
      if let entity = place.entity { members.append(("entity", .string(entity))) }
      if let attribute = place.attribute { members.append(("attribute", .string(attribute))) }
      if !place.entitiesSeen.isEmpty {
        members.append(("entitiesSeen", .array(place.entitiesSeen.map(JSONValue.string))))
      }
    case .folder(let relativePath):
      members.append(("folder", .string(relativePath)))
    case .file(let path):
      members.append(("file", .string(path)))
    case .keyPath(let keyPath):
      members.append(("keyPath", .string(keyPath)))
    }
    members += frequenciesJSON("classSets", "classes", place.classSets)
    members += frequenciesJSON("topKeys", "keys", place.topKeys)
    if let command = command(for: place, in: report) {
      members.append(("command", .string(command)))
    } else if let reason = place.noCommandReason {
      members.append(("noCommand", .string(reason)))
    }
    return .object(members)
  }

  private func frequenciesJSON(_ name: String, _ namesKey: String, _ frequencies: SurveyFrequencies)
    -> [(String, JSONValue)]
  {
    let (shown, remainder) = frequencies.mostFrequent(listLimit)
    var members: [(String, JSONValue)] = [
      (
        name,
        .array(
          shown.map {
            .object([
              (namesKey, .array($0.names.map(JSONValue.string))),
              ("records", .integer(Int64($0.records))),
            ])
          })
      )
    ]
    if let remainder {
      let more = "more" + name.prefix(1).uppercased() + name.dropFirst()
      members.append(
        (
          more,
          .object([
            ("sets", .integer(Int64(remainder.sets))),
            ("records", .integer(Int64(remainder.records))),
            ("atLeast", .bool(remainder.isLowerBound)),
          ])
        ))
    }
    return members
  }
}
