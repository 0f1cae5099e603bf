import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `--entity Book --attribute cover` for `--table ZBOOK --key-column Z_PK --value-column ZCOVER`.
@Suite("migrate-dry-run and migrate by Core Data entity and attribute")
struct CoreDataEntityTests {
  private static let renames = [
    "--rename-only", "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile",
    "--class-map", "ProfilesApp.Address=ProfileKit.Address",
  ]

  /// A JSON plan's records without the members that name the place, and its summary.
  private func comparable(_ json: String) throws -> (
    records: [JSONDocument], summary: JSONDocument?
  ) {
    let document = try JSONDocument(parsing: json)
    guard case .array(let records)? = document["records"] else { return ([], nil) }
    let stripped = records.map { record -> JSONDocument in
      guard case .object(let members) = record else { return record }
      return .object(members.filter { !["record", "entity", "attribute"].contains($0.key) })
    }
    return (stripped, document["summary"])
  }

  @Test("--entity/--attribute plans exactly what --table/--key-column/--value-column plans")
  func entityEqualsTable() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let byEntity = try CommandRunner.run(
      [
        "migrate-dry-run", "--store", path, "--entity", "Book", "--attribute", "cover",
        "--format", "json",
      ] + Self.renames)
    let byTable = try CommandRunner.run(
      [
        "migrate-dry-run", "--store", path, "--table", "ZBOOK", "--key-column", "Z_PK",
        "--value-column", "ZCOVER", "--format", "json",
      ] + Self.renames)
    #expect(byEntity.status == byTable.status, "\(byEntity.stderr)\(byTable.stderr)")
    #expect(byEntity.status == 0)
    let entity = try comparable(byEntity.stdout)
    let table = try comparable(byTable.stdout)
    #expect(entity.records == table.records)
    #expect(entity.summary == table.summary)
    #expect(entity.records.count == 4)
    let violations = try JSONSchemas.violations(of: byEntity.stdout, against: .migrationPlan)
    #expect(violations.isEmpty, "\(violations)")
    let first = try JSONDocument(parsing: byEntity.stdout)["records"]
    guard case .array(let records)? = first, let record = records.first else {
      Issue.record("no records")
      return
    }
    #expect(record["record"] == .string("\(path):Book[Z_PK=1].cover"))
    #expect(record["entity"] == .string("Book"))
    #expect(record["attribute"] == .string("cover"))
    #expect(record["table"] == .string("ZBOOK"))
  }

  @Test("Records are named ENTITY[Z_PK=N].attribute in the text plan")
  func textNaming() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", path, "--entity", "Book", "--attribute", "cover"]
        + Self.renames)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("will-rewrite     \(path):Book[Z_PK=1].cover  "))
    #expect(run.stdout.contains("skipped          \(path):Book[Z_PK=4].cover"))
  }

  @Test(
    "A sub-entity reads only its own rows of the shared table; its parent names each row's own entity"
  )
  func inheritance() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let note = try SQLiteStore(path: path, entity: "Note", attribute: "body", readOnly: true)
    let notes = try MigrationFixtures.run(note).plans.keys.sorted()
    #expect(notes == ["\(path):Note[Z_PK=1].body", "\(path):Note[Z_PK=3].body"])
    #expect(try note.recordCount() == 2)
    let item = try SQLiteStore(path: path, entity: "Item", attribute: "payload", readOnly: true)
    let items = try MigrationFixtures.run(item).plans.keys.sorted()
    #expect(
      items == [
        "\(path):Note[Z_PK=1].payload", "\(path):Note[Z_PK=3].payload",
        "\(path):Photo[Z_PK=2].payload", "\(path):Photo[Z_PK=4].payload",
      ])
    #expect(item.table == "ZITEM" && item.keyColumn == "Z_PK" && item.valueColumn == "ZPAYLOAD")
  }

  @Test("An entity that does not exist is refused, listing the entities there are")
  func wrongEntity() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", path, "--entity", "Magazine", "--attribute", "cover"]
        + Self.renames)
    #expect(run.status == 2)
    #expect(run.stderr.contains("[invalid-identifier] no entity 'Magazine'"))
    #expect(run.stderr.contains("the entities are: Book, Item, Note, Photo"))
  }

  @Test("An attribute that does not exist is refused, listing the entity's attributes")
  func wrongAttribute() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", path, "--entity", "Book", "--attribute", "covr"]
        + Self.renames)
    #expect(run.status == 2)
    #expect(run.stderr.contains("the entity 'Book' (table ZBOOK) has no attribute 'covr'"))
    #expect(run.stderr.contains("its attributes are: title, cover, meta"))
  }

  @Test("--entity on a store that is not Core Data is refused, naming --table")
  func notCoreData() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try MigrationFixtures.makeDatabase(at: folder + "/store.sqlite")
    let run = try CommandRunner.run(
      [
        "migrate-dry-run", "--store", folder + "/store.sqlite", "--entity", "Book",
        "--attribute", "cover",
      ] + Self.renames)
    #expect(run.status == 2)
    #expect(run.stderr.contains("Z_PRIMARYKEY"))
    #expect(run.stderr.contains("--table"))
  }

  @Test("--entity without --attribute is a usage error")
  func entityWithoutAttribute() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try CommandRunner.run(
      ["migrate-dry-run", "--store", path, "--entity", "Book"] + Self.renames)
    #expect(run.status == 2)
    #expect(run.stderr.contains("--entity and --attribute go together"))
  }

  @Test("--entity with --table is a usage error")
  func entityWithTable() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try CommandRunner.run(
      [
        "migrate-dry-run", "--store", path, "--entity", "Book", "--attribute", "cover",
        "--table", "ZBOOK",
      ] + Self.renames)
    #expect(run.status == 2)
    #expect(run.stderr.contains("leave out --table"))
  }

  @Test("migrate by entity rewrites the attribute; rollback restores every byte")
  func migrateAndRollBack() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try CoreDataFixtures.column("ZBODY", of: "ZITEM", at: path)
    let payloadBefore = try CoreDataFixtures.column("ZPAYLOAD", of: "ZITEM", at: path)
    let run = try CommandRunner.run(
      [
        "migrate", "--store", path, "--entity", "Note", "--attribute", "body", "--backup",
        folder + "/backup",
      ] + Self.renames)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("summary: 2 rewritten"))
    let after = try CoreDataFixtures.column("ZBODY", of: "ZITEM", at: path)
    #expect(after != before)
    #expect(after[2] == .some(nil) && after[4] == .some(nil))
    // Photo rows and other columns are untouched.
    #expect(try CoreDataFixtures.column("ZPAYLOAD", of: "ZITEM", at: path) == payloadBefore)
    let journalLine = try #require(
      run.stdout.split(separator: "\n").first { $0.hasPrefix("journal: ") })
    let journal = String(journalLine.dropFirst("journal: ".count))
    let header = try #require(
      try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").first)
    #expect(header.contains("\"table\":\"ZITEM\"") && header.contains("\"valueColumn\":\"ZBODY\""))
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 0, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stdout.contains("rollback: 2 restored"))
    #expect(try CoreDataFixtures.column("ZBODY", of: "ZITEM", at: path) == before)
  }
}
