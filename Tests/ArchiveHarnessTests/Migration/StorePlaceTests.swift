import ArchiveCoder
import Foundation
import Testing

@testable import ArchiveHarness

/// Places on the command line, as reports print records: what they name, and what they read.
@Suite("Store places: STORE:TABLE[KEY], STORE:ENTITY[Z_PK].ATTRIBUTE, PLIST:KEYPATH")
struct StorePlaceTests {
  @Test("Keys read as reports print them: quoted text, numbers, x'hex', bare words")
  func keyLiterals() {
    #expect(StorePlace.keyValue("'a-legacy'") == .text("a-legacy"))
    #expect(StorePlace.keyValue("'it''s'") == .text("it's"))
    #expect(StorePlace.keyValue("42") == .integer(42))
    #expect(StorePlace.keyValue("1.5") == .real(1.5))
    #expect(StorePlace.keyValue("x'0aFF'") == .blob([0x0a, 0xff]))
    #expect(StorePlace.keyValue("a-legacy") == .text("a-legacy"))
    for malformed in ["", "'open", "'a'b'", "x'abc'", "a'b"] {
      #expect(StorePlace.keyValue(malformed) == nil, "\(malformed)")
    }
  }

  @Test("A Core Data attribute is read by Z_PK, with or without the column's name")
  func coreDataAttribute() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for text in ["\(path):Book[Z_PK=2].cover", "\(path):Book[2].cover"] {
      let place = try StorePlace(parsing: text)
      #expect(
        place.kind
          == .row(
            database: path, table: "Book", keyColumn: text.contains("Z_PK") ? "Z_PK" : nil,
            key: .integer(2), column: "cover"))
      let record = try place.read()
      #expect(record.id.description == "\(path):Book[Z_PK=2].cover")
      #expect(record.bytes == MigrationFixtures.profile(id: 2))
    }
    #expect(try StorePlace(parsing: "\(path):Book[4].cover").read().content == .null)
  }

  @Test("A table of a Core Data store is still read by table and column")
  func coreDataTable() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let record = try StorePlace(parsing: "\(path):ZBOOK[Z_PK=3].ZCOVER").read()
    #expect(record.bytes == MigrationFixtures.profile(id: 3))
  }

  @Test("A missing row, entity or attribute is an error at the place")
  func missingRecord() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let row = #expect(throws: MigrationError.self) {
      try StorePlace(parsing: "\(path):Book[9].cover").read()
    }
    #expect(row?.code == .recordNotFound)
    #expect(row?.place.description == "\(path):Book[Z_PK=9].cover")
    let attribute = #expect(throws: MigrationError.self) {
      try StorePlace(parsing: "\(path):Book[1].spine").read()
    }
    #expect(attribute?.place.file == "\(path):Book[1].spine", "\(String(describing: attribute))")
  }

  @Test("Two identical archives compare the same; a record that is no archive is not compared")
  func recordComparison() {
    let profile = MigrationFixtures.profile(id: 1)
    let id = RecordID.file(path: "a", relativePath: "a")
    let comparison = StoreComparison()
    let same = comparison.compare(
      StoreRecord(id: id, content: .bytes(profile)),
      StoreRecord(id: id, content: .bytes(MigrationFixtures.profile(id: 1))))
    #expect(!same.differs)
    let renamed = comparison.compare(
      StoreRecord(id: id, content: .bytes(profile)),
      StoreRecord(id: id, content: .bytes(MigrationFixtures.profile(module: "ProfileKit", id: 1))))
    guard case .different(let differences) = renamed.outcome else {
      Issue.record("\(renamed.outcome)")
      return
    }
    #expect(differences.first?.kind == .typeChanged)
    let unreadable = comparison.compare(
      StoreRecord(id: id, content: .bytes(profile)), StoreRecord(id: id, content: .null))
    guard case .unreadable(let old, let new) = unreadable.outcome else {
      Issue.record("\(unreadable.outcome)")
      return
    }
    #expect(old == nil)
    #expect(new == "the value is NULL")
  }
}
