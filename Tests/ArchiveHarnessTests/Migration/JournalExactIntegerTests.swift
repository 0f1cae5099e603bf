import ArchiveFormat
import Foundation
import Testing

@testable import ArchiveHarness

/// The migrate journal is read through `JSONDocument`: rowids and integer keys above 2^53 come
/// back exactly, so a rollback puts back the row the run changed, never its neighbour.
@Suite("Journal: exact integers")
struct JournalExactIntegerTests {
  /// 2^53: the last integer a double holds with all its neighbours.
  static let twoToThe53: Int64 = 9_007_199_254_740_992
  /// 2^53 + 1, which a double rounds to 2^53.
  static let aboveTwoToThe53: Int64 = 9_007_199_254_740_993

  /// Creates `store(id INTEGER PRIMARY KEY, value BLOB)` with a legacy profile at each id.
  private static func makeIntegerKeyedDatabase(at path: String, ids: [Int64]) throws {
    let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
    try database.execute("PRAGMA journal_mode=DELETE")
    try database.execute("CREATE TABLE store (id INTEGER PRIMARY KEY, value BLOB)")
    let insert = try database.prepare("INSERT INTO store (id, value) VALUES (?1, ?2)")
    for id in ids {
      try insert.bind(.integer(id), at: 1)
      try insert.bind(.blob(MigrationFixtures.profile(id: id % 1000)), at: 2)
      _ = try insert.step()
      insert.reset()
    }
  }

  /// The SHA-256 of every row's value, by rowid (short, for readable failures).
  private static func rows(at path: String) throws -> [Int64: String] {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    let select = try database.prepare("SELECT rowid, value FROM store")
    var result: [Int64: String] = [:]
    while try select.step() { result[select.integer(0)] = SHA256Checksum.hex(select.bytes(1)) }
    return result
  }

  /// Migrates the table `store` keyed by `keyColumn`, and returns the journal's path.
  private static func migrate(_ path: String, keyColumn: String, folder: String) throws -> String {
    let store = try SQLiteStore(
      path: path, table: "store", keyColumn: keyColumn, valueColumn: "value", readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/backup/run", journalPath: nil)
    _ = try MigrationFixtures.run(store, writer: writer)
    return try #require(writer.journalPath)
  }

  /// Rewrites every line of a journal with `change` and seals the chain again, so only what
  /// `change` did is wrong with it.
  private static func rewrite(_ journal: String, _ change: (String) -> String) throws {
    var text = ""
    var previous = ""
    for line in try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n") {
      let (sealed, sum) = MigrationJournal.seal(
        change(
          String(line).replacingOccurrences(
            of: #","sum":"[0-9a-f]{32}"\}$"#, with: "}", options: .regularExpression)),
        after: previous)
      text += sealed + "\n"
      previous = sum
    }
    try text.write(toFile: journal, atomically: false, encoding: .utf8)
  }

  @Test("A journal's rowids and integer keys above 2^53 read back exactly")
  func journalReadsRowidsExactly() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try Self.makeIntegerKeyedDatabase(at: path, ids: [Self.twoToThe53, Self.aboveTwoToThe53])
    let journal = try Self.migrate(path, keyColumn: "id", folder: folder)
    #expect(
      try String(contentsOfFile: journal, encoding: .utf8).contains(
        #""rowid":9007199254740993"#))
    let read = try MigrationJournal.read(journal)
    #expect(read.problems.isEmpty)
    let updates = read.entries.filter { $0["op"]?.stringValue == "update" }
    #expect(
      Set(updates.compactMap { $0["rowid"]?.int64Value })
        == [Self.twoToThe53, Self.aboveTwoToThe53])
    #expect(
      Set(updates.compactMap { MigrationJournal.sqliteValue($0["key"]) })
        == [.integer(Self.twoToThe53), .integer(Self.aboveTwoToThe53)])
    #expect(updates.allSatisfy { $0.line > 1 })
  }

  @Test("Rollback restores the row at rowid 2^53 + 1 and its neighbour at 2^53, each its own")
  func rollbackRestoresRowAboveTwoToThe53() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try Self.makeIntegerKeyedDatabase(at: path, ids: [Self.twoToThe53, Self.aboveTwoToThe53])
    let before = try Self.rows(at: path)
    #expect(before[Self.twoToThe53] != before[Self.aboveTwoToThe53])
    let journal = try Self.migrate(path, keyColumn: "id", folder: folder)
    let migrated = try Self.rows(at: path)
    #expect(migrated[Self.twoToThe53] != before[Self.twoToThe53])
    #expect(migrated[Self.aboveTwoToThe53] != before[Self.aboveTwoToThe53])
    var outcomes: [String: MigrationRollback.Outcome] = [:]
    let summary = try MigrationRollback.run(journalPath: journal) { outcomes[$0] = $1 }
    // Read through a double, both lines would name row 2^53: one restore, one "already original".
    #expect(summary.restored == 2)
    #expect(summary.alreadyOriginal == 0)
    #expect(summary.conflicts == 0)
    #expect(try Self.rows(at: path) == before)
    #expect(outcomes.keys.contains { $0.contains("9007199254740993") })
  }

  @Test("Rollback by rowid 2^53 + 1 restores that row when another row has the same key")
  func rollbackPicksRowidAboveTwoToThe53AmongSameKeys() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
    try database.execute("PRAGMA journal_mode=DELETE")
    try database.execute("CREATE TABLE store (key TEXT, value BLOB)")
    let insert = try database.prepare("INSERT INTO store (rowid, key, value) VALUES (?1, ?2, ?3)")
    // Only the row at 2^53 + 1 holds a legacy archive; the one at 2^53 is already current.
    for (rowid, value) in [
      (Self.twoToThe53, MigrationFixtures.profile(module: "ProfileKit", id: 1)),
      (Self.aboveTwoToThe53, MigrationFixtures.profile(id: 2)),
    ] {
      try insert.bind(.integer(rowid), at: 1)
      try insert.bind(.text("same"), at: 2)
      try insert.bind(.blob(value), at: 3)
      _ = try insert.step()
      insert.reset()
    }
    let before = try Self.rows(at: path)
    let journal = try Self.migrate(path, keyColumn: "key", folder: folder)
    let migrated = try Self.rows(at: path)
    #expect(migrated[Self.twoToThe53] == before[Self.twoToThe53])
    let rewritten = try #require(migrated[Self.aboveTwoToThe53])
    #expect(rewritten != before[Self.aboveTwoToThe53])
    // The neighbour now holds the migrated bytes too: a rollback that rounded the journal's
    // rowid to 2^53 would find them there and put the original into the wrong row.
    try database.execute(
      "UPDATE store SET value = (SELECT value FROM store WHERE rowid = \(Self.aboveTwoToThe53)) "
        + "WHERE rowid = \(Self.twoToThe53)")
    #expect(try Self.rows(at: path)[Self.twoToThe53] == rewritten)
    let summary = try MigrationRollback.run(journalPath: journal) { _, _ in }
    #expect(summary.restored == 1)
    #expect(summary.conflicts == 0)
    let after = try Self.rows(at: path)
    #expect(after[Self.aboveTwoToThe53] == before[Self.aboveTwoToThe53])
    #expect(after[Self.twoToThe53] == rewritten)
  }

  @Test("A journal rowid of true is malformed, named by its line, not rowid 1")
  func booleanRowidIsMalformed() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try Self.makeIntegerKeyedDatabase(at: path, ids: [1, Self.aboveTwoToThe53])
    let journal = try Self.migrate(path, keyColumn: "id", folder: folder)
    let migrated = try Self.rows(at: path)
    try Self.rewrite(journal) {
      $0.replacingOccurrences(
        of: #""rowid":[0-9]+"#, with: #""rowid":true"#, options: .regularExpression)
    }
    let read = try MigrationJournal.read(journal)
    #expect(read.problems.isEmpty)
    // The rollback reads the journal last line first.
    let lastUpdate = try #require(read.entries.last { $0["op"]?.stringValue == "update" })
    #expect(lastUpdate["rowid"] == .bool(true))
    let error = #expect(throws: MigrationError.self) {
      _ = try MigrationRollback.run(journalPath: journal) { _, _ in }
    }
    #expect(error?.code == .journal)
    #expect(error?.message == "an update entry's rowid is not an integer: true")
    #expect(error?.place == Place(file: journal, line: lastUpdate.line, column: 0))
    #expect(try Self.rows(at: path) == migrated)
  }

  @Test("A journal rowid written as 1e3 is malformed, not rowid 1000")
  func exponentRowidIsMalformed() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try Self.makeIntegerKeyedDatabase(at: path, ids: [1000])
    let journal = try Self.migrate(path, keyColumn: "id", folder: folder)
    let migrated = try Self.rows(at: path)
    try Self.rewrite(journal) {
      $0.replacingOccurrences(of: #""rowid":1000"#, with: #""rowid":1e3"#)
    }
    let error = #expect(throws: MigrationError.self) {
      _ = try MigrationRollback.run(journalPath: journal) { _, _ in }
    }
    #expect(error?.code == .journal)
    #expect(error?.message == "an update entry's rowid is not an integer: 1000.0")
    #expect(try Self.rows(at: path) == migrated)
  }

  @Test("A journal line that is not JSON is refused at its line and byte column")
  func lineThatIsNotJSONNamesItsColumn() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journal = folder + "/journal.jsonl"
    let header = MigrationJournal.seal(
      #"{"journal":"archive-harness-migrate","kind":"sqlite","version":2}"#, after: "")
    try (header.line + "\n" + #"{"op":"update","rowid":}"# + "\n").write(
      toFile: journal, atomically: false, encoding: .utf8)
    let error = #expect(throws: MigrationError.self) {
      _ = try MigrationJournal.read(journal)
    }
    #expect(error?.code == .journal)
    #expect(error?.place == Place(file: journal, line: 2, column: 24))
    #expect(error?.message == "the line is not JSON: an unexpected character")
  }

  @Test("A journal rowid beyond 64 bits is refused at its line and byte column")
  func rowidBeyond64BitsIsRefused() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journal = folder + "/journal.jsonl"
    let header = MigrationJournal.seal(
      #"{"journal":"archive-harness-migrate","kind":"sqlite","version":2}"#, after: "")
    try (header.line + "\n" + #"{"op":"update","rowid":18446744073709551616}"# + "\n").write(
      toFile: journal, atomically: false, encoding: .utf8)
    let error = #expect(throws: MigrationError.self) {
      _ = try MigrationJournal.read(journal)
    }
    #expect(error?.place == Place(file: journal, line: 2, column: 24))
    #expect(error?.message.contains("an integer outside the 64-bit range") == true)
  }
}
