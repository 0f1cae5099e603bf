import ArchiveFormat
import Foundation
import _ArchiveHarnessSystem

/// Writes a migration plan or result as it streams: one entry per record, then the summary.
///
/// Text is for people and may change between versions; JSON (with
/// `serializationVersion` and sorted keys) is stable; JUnit has one
/// `<testcase>` per record, failing for refused ones (an accepted refusal is
/// skipped, a changed category fails); HTML is one
/// self-contained page with the counts per decision and a table of the
/// records that can show only the refused ones. Output is buffered and
/// handed to the sink in chunks, so a store of a million records does not
/// cost a million writes, and nothing is kept per record.
///
/// ```swift
/// let report = MigrationReportWriter(format: .json, sink: { print($0, terminator: "") })
/// report.begin(store: "cache.sqlite", mode: "rename-only", operation: .dryRun)
/// report.record(plan)
/// report.finish(summary, notes: [])
/// ```
package final class MigrationReportWriter {
  /// The output formats.
  package enum Format: String, Sendable, CaseIterable {
    /// Plan lines and a summary, for people.
    case text
    /// One JSON document, stable.
    case json
    /// JUnit XML, one test case per record.
    case junit
    /// One self-contained HTML page: counts per decision and a filterable table of records.
    case html
  }

  /// What the run did.
  package enum Operation: String, Sendable {
    /// `migrate-dry-run`.
    case dryRun = "dry-run"
    /// `migrate`.
    case migrate
  }

  /// The JSON format's version.
  package static let serializationVersion: Int64 = 1

  private let format: Format
  private let sink: (String) -> Void
  private let toolName: String
  private var buffer = ""
  private var firstRecord = true
  private var store = ""
  private var operation = Operation.dryRun
  private var junitBody: ScratchFile?
  private var mode = ""
  private let started = Date()

  /// Creates a writer.
  ///
  /// - Parameters:
  ///   - format: The output format.
  ///   - sink: Receives the output in chunks.
  ///   - toolName: The running tool's name, for the HTML title and the JUnit suite: a team's
  ///     own harness executable's.
  package init(
    format: Format, sink: @escaping (String) -> Void, toolName: String = ToolName.standard
  ) {
    self.format = format
    self.sink = sink
    self.toolName = toolName
  }

  /// Starts the report.
  package func begin(store: String, mode: String, operation: Operation) {
    self.store = store
    self.mode = mode
    self.operation = operation
    switch format {
    case .text:
      let verb = operation == .dryRun ? "plan for" : "migrating"
      emit("\(verb) \(store) (\(mode))\n")
    case .json:
      emit(
        "{\"mode\":\(JSONValue.string(mode).render(sortedKeys: true, pretty: false)),\"operation\":\"\(operation.rawValue)\",\"records\":["
      )
    case .junit, .html:
      // The rows wait in an unnamed scratch file until the totals for the header are known.
      junitBody = try? ScratchFile(prefix: "archive-harness-\(format.rawValue)")
    }
  }

  /// Adds one record.
  package func record(_ plan: RecordPlan) {
    let place = plan.record.id.description
    switch format {
    case .text:
      var line = plan.outcome.name.padding(toLength: 17, withPad: " ", startingAt: 0) + place
      switch plan.outcome {
      case .willRewrite(let summary), .rewritten(let summary):
        line += "  " + summary
      case .alreadyCurrent:
        break
      case .refused(let refusal):
        line += "  \(refusal)\n" + String(repeating: " ", count: 17)
        line += "today: \(refusal.currentReadConsequence)"
      case .skipped(let reason):
        line += "  " + reason
      case .accepted(let refusal, let accepted):
        line += "  \(refusal)\n" + String(repeating: " ", count: 17)
        line += "accepted (\(accepted.category)) at \(accepted.place): \(accepted.reason)"
      case .categoryChanged(let refusal, let accepted):
        line += "  \(refusal)\n" + String(repeating: " ", count: 17)
        line += Self.categoryChangeText(refusal, accepted) + "\n"
        line += String(repeating: " ", count: 17) + "today: \(refusal.currentReadConsequence)"
      }
      emit(line + "\n")
    case .json:
      emit(firstRecord ? "\n" : ",\n")
      Self.appendCompact(Self.json(plan), to: &buffer)
      if buffer.utf8.count >= 1 << 16 { flush() }
      firstRecord = false
    case .junit:
      var text = "    <testcase classname=\"\(xml(store))\" name=\"\(xml(place))\" time=\"0\">"
      switch plan.outcome {
      case .refused(let refusal):
        text +=
          "\n      <failure message=\"\(xml(refusal.description))\">\(xml(refusal.description)); today: \(xml(refusal.currentReadConsequence))</failure>\n    "
      case .skipped(let reason):
        text += "\n      <skipped message=\"\(xml(reason))\"/>\n    "
      case .willRewrite(let summary), .rewritten(let summary):
        text += "\n      <system-out>\(xml(plan.outcome.name + ": " + summary))</system-out>\n    "
      case .alreadyCurrent:
        break
      case .accepted(let refusal, let accepted):
        let message = "accepted (\(accepted.category)): \(accepted.reason); \(refusal)"
        text += "\n      <skipped message=\"\(xml(message))\"/>\n    "
      case .categoryChanged(let refusal, let accepted):
        let message = "\(Self.categoryChangeText(refusal, accepted)); \(refusal)"
        text +=
          "\n      <failure message=\"\(xml(message))\">\(xml(message)); today: \(xml(refusal.currentReadConsequence))</failure>\n    "
      }
      text += "</testcase>\n"
      try? junitBody?.append(Array(text.utf8))
    case .html:
      try? junitBody?.append(Array(MigrationHTMLPage.row(plan).utf8))
    }
  }

  /// Ends the report with the summary and notes (journal, backup, nothing-to-do).
  package func finish(_ summary: MigrationSummary, notes: [(String, String)]) {
    switch format {
    case .text:
      var parts: [String] = []
      if operation == .dryRun {
        parts.append("\(summary.willRewrite) will-rewrite")
      } else {
        parts.append("\(summary.rewritten) rewritten")
      }
      parts.append("\(summary.alreadyCurrent) already-current")
      parts.append("\(summary.refused) refused")
      parts.append("\(summary.skipped) skipped")
      if summary.accepted > 0 { parts.append("\(summary.accepted) accepted") }
      if summary.categoryChanged > 0 {
        parts.append("\(summary.categoryChanged) category-changed")
      }
      emit("\nsummary: \(parts.joined(separator: ", ")) (\(summary.total) records)\n")
      for (name, value) in notes { emit("\(name): \(value)\n") }
      for stale in summary.acceptedNoLongerRefused {
        emit("warning: \(stale.accepted.place): \(stale.message)\n")
      }
    case .json:
      var members: [(String, JSONValue)] = [
        ("accepted", .integer(Int64(summary.accepted))),
        (
          "acceptedNoLongerRefused",
          .array(
            summary.acceptedNoLongerRefused.map { stale in
              .object([
                ("key", .string(stale.accepted.key)),
                ("category", .string(stale.accepted.category.rawValue)),
                ("place", .string(stale.accepted.place.description)),
                ("now", stale.outcome.map { .string($0.name) } ?? .string("absent")),
              ])
            })
        ),
        ("alreadyCurrent", .integer(Int64(summary.alreadyCurrent))),
        ("categoryChanged", .integer(Int64(summary.categoryChanged))),
        ("interrupted", .bool(summary.interrupted)),
        ("refused", .integer(Int64(summary.refused))),
        ("skipped", .integer(Int64(summary.skipped))),
        ("total", .integer(Int64(summary.total))),
      ]
      if operation == .dryRun {
        members.append(("willRewrite", .integer(Int64(summary.willRewrite))))
      } else {
        members.append(("rewritten", .integer(Int64(summary.rewritten))))
      }
      // A note named like a count (`interrupted`) is already in the summary as data.
      for (name, value) in notes where !members.contains(where: { $0.0 == name }) {
        members.append((name, .string(value)))
      }
      emit(
        (firstRecord ? "" : "\n")
          + "],\"serializationVersion\":\(Self.serializationVersion),\"store\":\(JSONValue.string(store).render(sortedKeys: true, pretty: false)),\"summary\":\(JSONValue.object(members).render(sortedKeys: true, pretty: false))}\n"
      )
    case .junit:
      let seconds = String(format: "%.3f", Date().timeIntervalSince(started))
      // An accepted refusal is a skipped case; a changed category fails like a refusal.
      let failures = summary.refused + summary.categoryChanged
      let skipped = summary.skipped + summary.accepted
      emit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
      emit(
        "<testsuites tests=\"\(summary.total)\" failures=\"\(failures)\" skipped=\"\(skipped)\" time=\"\(seconds)\">\n"
      )
      emit(
        "  <testsuite name=\"\(xml("\(toolName) migrate \(operation.rawValue)"))\" tests=\"\(summary.total)\" failures=\"\(failures)\" skipped=\"\(skipped)\" time=\"\(seconds)\">\n"
      )
      emitBody()
      emit("  </testsuite>\n</testsuites>\n")
    case .html:
      emit(
        MigrationHTMLPage.head(
          store: store, mode: mode, operation: operation, summary: summary, notes: notes,
          toolName: toolName))
      emitBody()
      emit(MigrationHTMLPage.tail)
    }
    flush()
  }

  /// Emits the rows kept in the scratch file, in chunks that end on whole characters.
  private func emitBody() {
    if let junitBody {
      var offset = 0
      let chunkSize = 1 << 16
      while var chunk = try? junitBody.read(from: offset, count: chunkSize), !chunk.isEmpty {
        // Cut a full chunk before the character that starts last, which may continue past it.
        if chunk.count == chunkSize,
          let start = chunk.lastIndex(where: { $0 & 0xC0 != 0x80 }), start > 0
        {
          chunk.removeSubrange(start...)
        }
        emit(String(decoding: chunk, as: UTF8.self))
        offset += chunk.count
      }
    }
    junitBody = nil
  }

  /// The JSON object for one record.
  static func json(_ plan: RecordPlan) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("record", .string(plan.record.id.description)),
      ("outcome", .string(plan.outcome.name)),
    ]
    switch plan.record.id.kind {
    case .file(_, let relative):
      members.append(("file", .string(relative)))
    case .propertyListValue(let keyPath):
      members.append(("keyPath", .string(keyPath.description)))
    case .row(let table, let key, let rowid):
      members.append(("table", .string(table)))
      if let keyHash = plan.record.id.keyHash {
        members.append(("keyHash", .string(keyHash)))
      } else {
        members.append(("key", MigrationJournal.json(key)))
      }
      if let rowid { members.append(("rowid", .integer(rowid))) }
      if let entity = plan.record.id.entity {
        members.append(("entity", .string(entity.name)))
        members.append(("attribute", .string(entity.attribute)))
      }
    }
    switch plan.outcome {
    case .willRewrite(let summary), .rewritten(let summary):
      members.append(("changes", .string(summary)))
    case .refused(let refusal):
      members += refusalMembers(refusal)
    case .accepted(let refusal, let accepted), .categoryChanged(let refusal, let accepted):
      members += refusalMembers(refusal)
      members.append(
        (
          "accepted",
          .object([
            ("category", .string(accepted.category.rawValue)),
            ("reason", .string(accepted.reason)),
            ("place", .string(accepted.place.description)),
          ])
        ))
    case .skipped(let reason):
      members.append(("reason", .string(reason)))
    case .alreadyCurrent:
      break
    }
    return .object(members)
  }

  /// The members every refusal has: the step, the reason, the category if any, the app's read.
  private static func refusalMembers(_ refusal: RecordRefusal) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [
      ("step", .string(refusal.step.rawValue)),
      ("reason", .string(refusal.reason)),
      (
        "currentRead",
        refusal.currentReadFails.map {
          $0
            ? .object([
              ("secureStoreCache", .string("returns nil and logs")),
              ("secureKeyValueStore", .string("throws typeConversionFailed")),
            ]) : .string("succeeds")
        } ?? .string("unknown")
      ),
    ]
    if let category = refusal.category {
      members.append(("category", .string(category.rawValue)))
    }
    members.append(("cause", .string(refusal.cause.description)))
    return members
  }

  /// `accepted as 'malformed' at manifest.xml:5:3, but the refusal is now 'truncated'`.
  static func categoryChangeText(_ refusal: RecordRefusal, _ accepted: AcceptedRefusal) -> String {
    let now = refusal.category.map { "'\($0)'" } ?? "of no rejection category"
    return "accepted as '\(accepted.category)' at \(accepted.place), but the refusal is now \(now)"
  }

  /// Appends a record's JSON with sorted keys and no spaces, as `render(sortedKeys: true, pretty: false)` does.
  ///
  /// Records are small and a store has millions of them; this escapes by UTF-8
  /// bytes, which costs a fraction of the general renderer's per-scalar path.
  static func appendCompact(_ value: JSONValue, to output: inout String) {
    switch value {
    case .object(let members):
      output += "{"
      let sorted = members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
      for (index, member) in sorted.enumerated() {
        if index > 0 { output += "," }
        appendString(member.0, to: &output)
        output += ":"
        appendCompact(member.1, to: &output)
      }
      output += "}"
    case .array(let elements):
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        appendCompact(element, to: &output)
      }
      output += "]"
    case .string(let text):
      appendString(text, to: &output)
    default:
      output += value.render(sortedKeys: true, pretty: false)
    }
  }

  private static func appendString(_ text: String, to output: inout String) {
    var needsEscape = false
    for byte in text.utf8
    where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
      needsEscape = true
      break
    }
    if !needsEscape {
      output += "\""
      output += text
      output += "\""
    } else {
      output += JSONValue.string(text).render(sortedKeys: true, pretty: false)
    }
  }

  private func emit(_ text: String) {
    buffer += text
    if buffer.utf8.count >= 1 << 16 { flush() }
  }

  /// Hands what is buffered to the sink now, so that a sink that cannot take text is found
  /// out (as `migrate` does after ``begin(store:mode:operation:)``, before any record changes).
  package func flush() {
    guard !buffer.isEmpty else { return }
    sink(buffer)
    buffer = ""
  }

  private func xml(_ text: String) -> String {
    XMLText.escaped(text)
  }
}
