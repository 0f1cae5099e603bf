import Foundation
import HarnessFileOutput
import HarnessJSONOutput
import HarnessTextOutput
import HarnessVocabulary

#if canImport(Glibc)
  import Glibc
#endif

/// An append-only journal of one `migrate` run, as JSON lines, synced before the changes it names.
///
/// The first line describes the run (store, kind, backup); then one line per
/// replaced record, written and synced before the record is replaced; then an
/// `end` line. A run killed at any moment leaves a valid journal: every line
/// but possibly a torn last one is complete, and a line only promises that a
/// change may have happened, which `MigrationRollback` checks by checksum.
///
/// ```json
/// {"backup":"/b/run/store.sqlite","journal":"archive-harness-migrate","kind":"sqlite",…}
/// {"key":{"integer":42},"new":"9f…","old":"3a…","op":"update"}
/// {"interrupted":false,"op":"end","rewritten":1}
/// ```
///
/// The header's `kind` says which store it describes, and what a change line names the record by:
/// - `directory`: `path`, the file relative to the store, and `backup`, its copy under `originals/`;
/// - `sqlite`: `key` (`{"integer": 42}`, `{"text": "a"}`, …) and, for rowid tables, `rowid`; the header
///   names `table`, `keyColumn`, `valueColumn` and, for an encrypted store, `cipher`;
/// - `plist`: `keyPath`, an array of dictionary keys (strings) and array indexes (integers)
///   from the root; the header names the file's `format` (`binary` or `xml`), and `backup` is
///   the copy of the whole file.
package final class MigrationJournal {
  /// The journal format's version.
  package static let formatVersion: Int64 = 1
  /// The value of the first line's `journal` member.
  package static let formatName = "archive-harness-migrate"

  /// The journal's path.
  package let path: String
  private let descriptor: Int32

  /// Creates the journal file (it must not exist) and writes and syncs its header.
  init(creatingAt path: String, header: [(String, JSONValue)]) throws(MigrationError) {
    self.path = path
    // A journal is always a new file: it is synced line by line before each
    // change, and a rollback reads it back, so it cannot be renamed into place
    // at the end, nor go to a device or a FIFO. Whatever is at the path is refused.
    do {
      descriptor = try AtomicFile.openNew(path, mode: 0o644, append: true)
    } catch {
      throw MigrationError(.journal, file: path, "cannot create the journal: \(error.message)")
    }
    var members: [(String, JSONValue)] = [
      ("journal", .string(Self.formatName)), ("version", .integer(Self.formatVersion)),
    ]
    members += header
    try append([.object(members)])
    try DurableFile.syncDirectory(DurableFile.directory(of: path))
  }

  deinit {
    close(descriptor)
  }

  /// Appends lines and syncs them to disk before returning.
  func append(_ lines: [JSONValue]) throws(MigrationError) {
    guard !lines.isEmpty else { return }
    var text = ""
    for line in lines {
      text += line.render(sortedKeys: true, pretty: false)
      text += "\n"
    }
    do {
      try AtomicFile.writeAll(Array(text.utf8), to: descriptor, path: path)
    } catch {
      throw MigrationError(.journal, file: path, error.message)
    }
    guard fsync(descriptor) == 0 else {
      throw MigrationError(.journal, file: path, "cannot fsync: \(MigrationError.systemMessage())")
    }
  }

  /// Reads a journal: its header and its entries; a torn last line (a crash mid-append) is ignored.
  ///
  /// - Throws: ``MigrationError`` with code ``MigrationError/Code/journal`` and
  ///   `PATH:LINE` for a line that is not a JSON object or a wrong header.
  static func read(_ path: String) throws(MigrationError) -> (
    header: [String: Any], entries: [[String: Any]]
  ) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw MigrationError(.journal, file: path, "cannot read the journal")
    }
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // The last element is empty when the file ends in a newline; otherwise it is a torn line.
    lines.removeLast()
    var header: [String: Any]?
    var entries: [[String: Any]] = []
    for (number, line) in lines.enumerated() where !line.isEmpty {
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
      else {
        throw MigrationError(
          .journal, place: Place(file: path, line: number + 1, column: 0),
          "the line is not a JSON object")
      }
      if header == nil {
        guard object["journal"] as? String == formatName else {
          throw MigrationError(
            .journal, place: Place(file: path, line: number + 1, column: 0),
            "not an archive-harness migrate journal (no \"journal\": \"\(formatName)\" header)")
        }
        header = object
      } else {
        entries.append(object)
      }
    }
    guard let header else {
      throw MigrationError(.journal, file: path, "the journal is empty")
    }
    return (header, entries)
  }

  /// A key column's value as the journal stores it: `{"integer": 42}`, `{"text": "a"}`, `{"blob": "hex"}`.
  static func json(_ value: SQLiteValue) -> JSONValue {
    switch value {
    case .integer(let number): return .object([("integer", .integer(number))])
    case .real(let number): return .object([("real", .number(number))])
    case .text(let text): return .object([("text", .string(text))])
    case .blob(let bytes): return .object([("blob", .string(Hex.encode(bytes)))])
    case .null: return .object([("null", .bool(true))])
    }
  }

  /// A property-list key path as the journal stores it: `["profile", "current"]`, `["recent", 2]`.
  static func json(_ keyPath: PropertyListKeyPath) -> JSONValue {
    .array(
      keyPath.components.map { component in
        switch component {
        case .key(let key): .string(key)
        case .index(let index): .integer(Int64(index))
        }
      })
  }

  /// The property-list key path a journal entry stores, or `nil` when the entry is malformed.
  static func keyPath(_ object: Any?) -> PropertyListKeyPath? {
    guard let array = object as? [Any] else { return nil }
    var components: [PropertyListKeyPath.Component] = []
    for element in array {
      if let key = element as? String {
        components.append(.key(key))
      } else if let number = element as? NSNumber, let index = Int(exactly: number.doubleValue),
        index >= 0
      {
        components.append(.index(index))
      } else {
        return nil
      }
    }
    return PropertyListKeyPath(components)
  }

  /// The key column's value that a journal entry stores, or `nil` when the entry is malformed.
  static func sqliteValue(_ object: Any?) -> SQLiteValue? {
    guard let object = object as? [String: Any] else { return nil }
    if let number = object["integer"] as? NSNumber { return .integer(number.int64Value) }
    if let number = object["real"] as? NSNumber { return .real(number.doubleValue) }
    if let text = object["text"] as? String { return .text(text) }
    if let hex = object["blob"] as? String, let bytes = Hex.decode(hex) { return .blob(bytes) }
    if object["null"] != nil { return .null }
    return nil
  }
}
