import ArchiveFormat
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An append-only journal of one `migrate` run, as JSON lines, synced before the changes it names.
///
/// The first line describes the run (store, kind, backup); then one line per
/// replaced record, written and synced before the record is replaced; then an
/// `end` line that counts the change lines before it. A run killed at any
/// moment leaves a valid journal: every line but possibly a torn last one is
/// complete, and a line only promises that a change may have happened, which
/// `MigrationRollback` checks by checksum.
///
/// Every line ends with a `sum` member: the first 32 hex digits of the SHA-256
/// of the previous line's sum, a newline, and the line as written without its
/// `sum`. A changed, deleted or reordered line breaks the chain at the next
/// line, and a torn or cut journal lacks its `end` line; ``read(_:)`` reports
/// each, and a rollback that finds one exits non-zero. The file is owner-only (0600).
///
/// ```json
/// {"backup":"/b/run/store.sqlite","journal":"archive-harness-migrate","kind":"sqlite",…,"sum":"1c…"}
/// {"key":{"integer":42},"new":"9f…","old":"3a…","op":"update","sum":"77…"}
/// {"changes":1,"interrupted":false,"op":"end","rewritten":1,"sum":"e0…"}
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
  package static let formatVersion: Int64 = 2
  /// The value of the first line's `journal` member.
  package static let formatName = "archive-harness-migrate"

  /// The journal's path.
  package let path: String
  private let descriptor: Int32
  /// The sum of the last line written, which the next line's sum covers.
  private var previousSum = ""
  /// How many change lines were written.
  private(set) var changeCount = 0

  /// Creates the journal file (it must not exist) and writes and syncs its header.
  init(creatingAt path: String, header: [(String, JSONValue)]) throws(MigrationError) {
    self.path = path
    // A journal is always a new file: it is synced line by line before each
    // change, and a rollback reads it back, so it cannot be renamed into place
    // at the end, nor go to a device or a FIFO. Whatever is at the path is refused.
    do {
      descriptor = try AtomicFile.openNew(path, mode: 0o600, append: true)
    } catch {
      throw MigrationError(.journal, file: path, "cannot create the journal: \(error.message)")
    }
    var members: [(String, JSONValue)] = [
      ("journal", .string(Self.formatName)), ("version", .integer(Self.formatVersion)),
    ]
    members += header
    try append([.object(members)], counting: false)
    try DurableFile.syncDirectory(DurableFile.directory(of: path))
  }

  deinit {
    close(descriptor)
  }

  /// Appends change lines and syncs them to disk before returning.
  func append(_ lines: [JSONValue]) throws(MigrationError) {
    try append(lines, counting: true)
  }

  /// Appends the `end` line, with the count of change lines before it.
  func end(members: [(String, JSONValue)]) throws(MigrationError) {
    try append(
      [.object([("op", .string("end")), ("changes", .integer(Int64(changeCount)))] + members)],
      counting: false)
  }

  private func append(_ lines: [JSONValue], counting: Bool) throws(MigrationError) {
    guard !lines.isEmpty else { return }
    var text = ""
    for line in lines {
      let (sealed, sum) = Self.seal(
        line.render(sortedKeys: true, pretty: false), after: previousSum)
      text += sealed
      text += "\n"
      previousSum = sum
    }
    if counting { changeCount += lines.count }
    do {
      try AtomicFile.writeAll(Array(text.utf8), to: descriptor, path: path)
    } catch {
      throw MigrationError(.journal, file: path, error.message)
    }
    guard fsync(descriptor) == 0 else {
      throw MigrationError(.journal, file: path, "cannot fsync: \(MigrationError.systemMessage())")
    }
  }

  /// The line with its `sum` member appended, and that sum.
  ///
  /// - Parameters:
  ///   - body: The line's JSON object as rendered, without a sum.
  ///   - previous: The previous line's sum; empty for the first line.
  /// - Returns: The line to write, and the sum the next line's covers.
  static func seal(_ body: String, after previous: String) -> (line: String, sum: String) {
    let sum = chainSum(Array(body.utf8), after: previous)
    guard body.hasSuffix("}") else { return (body, sum) }
    let separator = body == "{}" ? "" : ","
    return (String(body.dropLast()) + separator + "\"sum\":\"" + sum + "\"}", sum)
  }

  private static func chainSum(_ body: [UInt8], after previous: String) -> String {
    String(SHA256Checksum.hex(Array(previous.utf8) + [0x0A] + body).prefix(32))
  }

  /// A line's body and the sum it carries, or `nil` when it does not end with a `sum` member.
  private static func unseal(_ line: ArraySlice<UInt8>) -> (body: [UInt8], sum: String)? {
    // `,"sum":"` + 32 hex digits + `"}`
    let suffixLength = 8 + 32 + 2
    guard line.count > suffixLength else { return nil }
    let tail = Array(line.suffix(suffixLength))
    guard tail.starts(with: Array(",\"sum\":\"".utf8)), tail.suffix(2) == [0x22, 0x7D] else {
      return nil
    }
    let sum = String(decoding: tail[8..<40], as: UTF8.self)
    guard sum.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
      return nil
    }
    return (Array(line.dropLast(suffixLength)) + [0x7D], sum)
  }

  /// A change line of a journal, with its line number for errors that name it.
  ///
  /// ```swift
  /// for entry in try MigrationJournal.read(path).entries where entry["op"]?.stringValue == "update" {
  ///   print(entry.line, entry["rowid"]?.int64Value ?? -1)
  /// }
  /// ```
  struct Entry: Sendable {
    /// The 1-based line of the journal the entry is on.
    var line: Int
    /// The line's members, its `sum` among them.
    var members: [String: JSONDocument]

    /// The member with the given name, or `nil`.
    subscript(name: String) -> JSONDocument? { members[name] }

    /// The entry's place in the journal: `PATH:LINE`.
    func place(in journalPath: String) -> Place {
      Place(file: journalPath, line: line, column: 0)
    }
  }

  /// Reads a journal: its header, its entries, and what is wrong with its lines.
  ///
  /// Lines are read by `JSONDocument`, so integers (a rowid, an index, a key) come back
  /// exactly, beyond 2^53 too, and `true` is never `1`. A line that is not JSON, or a header
  /// that is not a journal's, stops the
  /// read. A journal with no complete line has the problem
  /// `MigrationRollback.JournalProblem.noHeader` and no header members. A torn last line, a broken checksum chain, a missing `end` line or an
  /// `end` line whose count differs are returned as problems: every complete
  /// entry is still returned, since a rollback checks each record by its checksums.
  ///
  /// - Throws: `MigrationError` with code `MigrationError.Code.journal` and
  ///   `PATH:LINE` for a line that is not a JSON object or a wrong header; `PATH:LINE:COLUMN`,
  ///   the column counted in bytes, for a line that is not JSON.
  static func read(_ path: String) throws(MigrationError) -> (
    header: [String: JSONDocument], entries: [Entry],
    problems: [MigrationRollback.JournalProblem]
  ) {
    let read: [UInt8]?
    do {
      read = try DurableFile.readFile(path, limit: 1 << 30).bytes
    } catch {
      throw MigrationError(.journal, file: path, "cannot read the journal: \(error.message)")
    }
    guard let bytes = read else {
      throw MigrationError(.journal, file: path, "the journal is larger than 1 GiB")
    }
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    var problems: [MigrationRollback.JournalProblem] = []
    // The last element is empty when the file ends in a newline; otherwise it is a torn line.
    if let last = lines.popLast(), !last.isEmpty {
      problems.append(.tornLine(line: lines.count + 1))
    }
    var header: [String: JSONDocument]?
    var entries: [Entry] = []
    var sealed = true
    var previousSum = ""
    var end: (line: Int, changes: Int?)?
    for (index, line) in lines.enumerated() where !line.isEmpty {
      let number = index + 1
      let place = Place(file: path, line: number, column: 0)
      let object = try Self.object(line, path: path, number: number)
      if header == nil {
        guard object["journal"]?.stringValue == formatName else {
          throw MigrationError(
            .journal, place: place,
            "not an archive-harness migrate journal (no \"journal\": \"\(formatName)\" header)")
        }
        sealed = (object["version"]?.int64Value ?? 1) >= 2
        if !sealed { problems.append(.unsealed) }
        header = object
      } else if object["op"]?.stringValue == "end" {
        end = (number, object["changes"]?.int64Value.flatMap { Int(exactly: $0) })
      } else {
        if end != nil { problems.append(.brokenChain(line: number)) }
        entries.append(Entry(line: number, members: object))
      }
      if sealed {
        if let (body, sum) = unseal(line), chainSum(body, after: previousSum) == sum {
          previousSum = sum
        } else {
          problems.append(.brokenChain(line: number))
          // Carry on from this line's own sum, so one deleted line is reported once.
          previousSum = unseal(line)?.sum ?? ""
        }
      }
    }
    guard let header else {
      // No complete header: the run was killed before it could change anything, or the
      // journal was cut to nothing. Either way there is nothing to roll back from it.
      return ([:], [], problems + [.noHeader])
    }
    if sealed {
      if let end {
        if let counted = end.changes, counted != entries.count {
          problems.append(.countMismatch(line: end.line, counted: counted, found: entries.count))
        }
      } else {
        problems.append(.noEnd(lastLine: lines.count))
      }
    }
    return (header, entries, problems)
  }

  /// A journal line's members, read by `JSONDocument`.
  ///
  /// - Throws: `MigrationError` (`journal`) at `PATH:LINE` for a line that is not UTF-8 or not
  ///   an object, and at `PATH:LINE:COLUMN` (a byte column) for one that is not JSON.
  private static func object(_ line: ArraySlice<UInt8>, path: String, number: Int)
    throws(MigrationError) -> [String: JSONDocument]
  {
    let place = Place(file: path, line: number, column: 0)
    // The project's one strict UTF-8 check (String(validating:as:) needs iOS 18).
    guard let text = String(validUTF8: line) else {
      throw MigrationError(.journal, place: place, "the line is not UTF-8 text")
    }
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: text)
    } catch {
      throw MigrationError(
        .journal, place: Place(file: path, line: number, column: error.offset + 1),
        "the line is not JSON: \(error.message)")
    }
    guard case .object(let members) = document else {
      throw MigrationError(.journal, place: place, "the line is not a JSON object")
    }
    return members
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
  ///
  /// An index is a non-negative integer written as one: `true`, `1.5` or `1e0` where an index
  /// should be makes the entry malformed.
  static func keyPath(_ value: JSONDocument?) -> PropertyListKeyPath? {
    guard case .array(let elements)? = value else { return nil }
    var components: [PropertyListKeyPath.Component] = []
    for element in elements {
      if let key = element.stringValue {
        components.append(.key(key))
      } else if let number = element.int64Value, let index = Int(exactly: number), index >= 0 {
        components.append(.index(index))
      } else {
        return nil
      }
    }
    return PropertyListKeyPath(components)
  }

  /// The key column's value that a journal entry stores, or `nil` when the entry is malformed.
  ///
  /// An `integer` is read exactly (`{"integer": 9007199254740993}` is that key, not the
  /// double next to it); `true` or `1.5` there makes the entry malformed. A `real` is any number.
  static func sqliteValue(_ value: JSONDocument?) -> SQLiteValue? {
    guard case .object(let object)? = value else { return nil }
    if let member = object["integer"] {
      return member.int64Value.map(SQLiteValue.integer)
    }
    if let member = object["real"] { return member.doubleValue.map(SQLiteValue.real) }
    if let member = object["text"] { return member.stringValue.map(SQLiteValue.text) }
    if let member = object["blob"] {
      return member.stringValue.flatMap(Hex.decode).map(SQLiteValue.blob)
    }
    if object["null"] != nil { return .null }
    return nil
  }
}
