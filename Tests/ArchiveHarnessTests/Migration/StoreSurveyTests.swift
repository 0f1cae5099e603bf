import ArchiveFormat
import Foundation
import Testing

@testable import ArchiveHarness

/// The survey as a library: which places hold archives, what else they hold, and their names.
@Suite("StoreSurvey: the places of a store and what they hold")
struct StoreSurveyTests {
  private func place(_ report: SurveyReport, _ place: SurveyPlace) throws -> SurveyPlaceReport {
    try #require(report.places.first { $0.place == place }, "\(report.places.map(\.place))")
  }

  @Test("An SQLite key-value table: archives, a damaged one, NULL, JSON and a plain property list")
  func plainSQLiteStore() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let report = try StoreSurvey(path: path).run()
    #expect(report.kind == .sqlite)
    #expect(report.coreData == nil)
    #expect(report.tables == 1 && report.rows == 7)
    let value = try place(report, .column(table: "store", column: "value"))
    #expect(value.values == 7)
    #expect(value.archives == 3)
    #expect(value.formats[.binary] == 3)
    #expect(value.damagedArchives == 1)
    #expect(value.damagedExamples.first?.record == "\(path):store[key='e-truncated']")
    #expect(value.nulls == 1)
    #expect(value.otherBlobs == 2)
    #expect(value.otherKinds == [.json: 1, .propertyList: 1])
    #expect(value.keyColumn == SurveyKeyColumn(column: "key", kind: .primaryKey))
    let sets = value.classSets.mostFrequent(10).shown
    #expect(sets.first?.names == ["NSArray", "ProfilesApp.Address", "ProfilesApp.UserProfile"])
    #expect(sets.first?.records == 2)
    #expect(sets.dropFirst().first?.names.contains("ProfileKit.UserProfile") == true)
    #expect(value.topKeys.mostFrequent(10).shown.map(\.names) == [["root"]])
    #expect(
      value.dryRunArguments(store: path) == [
        "migrate-dry-run", "--store", path, "--table", "store", "--key-column", "key",
        "--value-column", "value", "--manifest", "MANIFEST.xml",
      ])
    // The key column is not a place; the text column holds no blob, so it is not listed either.
    #expect(report.places.count == 1)
  }

  @Test("A Core Data store: entities, attributes, inheritance by Z_ENT, and the model version")
  func coreDataStore() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let report = try StoreSurvey(path: path).run()
    let model = try #require(report.coreData)
    #expect(model.entities.map(\.name) == ["Book", "Item", "Note", "Photo"])
    #expect(model.entities.map(\.table) == ["ZBOOK", "ZITEM", "ZITEM", "ZITEM"])
    #expect(model.version == 1)
    #expect(model.versionIdentifiers == ["2.1"])
    #expect(model.versionHashesVersion == 3)
    #expect(model.metadataProblem == nil)

    let cover = try place(report, .column(table: "ZBOOK", column: "ZCOVER"))
    #expect(cover.entity == "Book" && cover.attribute == "cover")
    #expect(cover.archives == 3 && cover.nulls == 1)
    #expect(cover.keyColumn == SurveyKeyColumn(column: "Z_PK", kind: .integerPrimaryKey))
    #expect(
      cover.dryRunArguments(store: path)
        == [
          "migrate-dry-run", "--store", path, "--entity", "Book", "--attribute", "cover",
          "--manifest", "MANIFEST.xml",
        ])
    let meta = try place(report, .column(table: "ZBOOK", column: "ZMETA"))
    #expect(!meta.holdsArchives)
    #expect(meta.otherKinds == [.json: 4])
    #expect(meta.dryRunArguments(store: path) == nil)

    let body = try place(report, .column(table: "ZITEM", column: "ZBODY"))
    #expect(body.entity == "Note" && body.attribute == "body" && body.entitiesSeen == ["Note"])
    let image = try place(report, .column(table: "ZITEM", column: "ZIMAGE"))
    #expect(image.entity == "Photo" && image.attribute == "image")
    let payload = try place(report, .column(table: "ZITEM", column: "ZPAYLOAD"))
    #expect(payload.entity == "Item" && payload.entitiesSeen == ["Note", "Photo"])
    #expect(payload.archives == 4)
    // Z_METADATA's plist is a property list, not an archive, and has no entity.
    let plist = try place(report, .column(table: "Z_METADATA", column: "Z_PLIST"))
    #expect(plist.otherKinds == [.propertyList: 1] && plist.entity == nil)
    #expect(report.places.allSatisfy { $0.place != .column(table: "ZBOOK", column: "ZTITLE") })
  }

  @Test("A folder: each folder's own files one place; hidden files and links are not archives")
  func folderStore() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try MigrationFixtures.makeFolder(at: folder + "/store")
    try Data("hidden".utf8).write(to: URL(fileURLWithPath: folder + "/store/.hidden"))
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/store/link.archive", withDestinationPath: "/etc/passwd")
    let report = try StoreSurvey(path: folder + "/store").run()
    #expect(report.kind == .folder)
    #expect(report.files == 8)
    let root = try place(report, .folder(relativePath: "."))
    let nested = try place(report, .folder(relativePath: "nested"))
    // a-legacy, c-null (empty), e-truncated, g-plist and the link at the top; b, d, f nested.
    #expect(root.values == 5 && root.archives == 1 && root.damagedArchives == 1)
    #expect(root.otherKinds == [.empty: 1, .propertyList: 1] && root.nonBlobValues == 1)
    #expect(nested.values == 3 && nested.archives == 2 && nested.otherKinds == [.json: 1])
    #expect(
      nested.dryRunArguments(store: folder + "/store")
        == ["migrate-dry-run", "--store", folder + "/store/nested", "--manifest", "MANIFEST.xml"])
  }

  @Test("One archive file, binary or XML, is a place of its own with no migrate command")
  func singleArchive() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let archive = try KeyedArchive(bytes: MigrationFixtures.profile())
    let xml = Array(XMLPropertyListWriter().write(archive.propertyList).utf8)
    try Data(xml).write(to: URL(fileURLWithPath: folder + "/profile.plist"))
    let report = try StoreSurvey(path: folder + "/profile.plist").run()
    #expect(report.kind == .file)
    let file = try place(report, .file(path: folder + "/profile.plist"))
    #expect(file.archives == 1 && file.formats[.xml] == 1)
    #expect(file.dryRunArguments(store: report.store) == nil)
    #expect(file.noCommandReason?.contains("folder") == true)
  }

  @Test("A property list's Data values that hold archives are places, by key path")
  func propertyListStore() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/com.example.app.plist"
    let plist = PropertyListValue.dictionary([
      "profile": .dictionary(["current": .data(MigrationFixtures.profile())]),
      "recent": .array([.data(MigrationFixtures.profile(id: 2)), .data(Array("plain".utf8))]),
      "count": .integer(3),
    ])
    try Data(BinaryPropertyListWriter().write(plist)).write(to: URL(fileURLWithPath: path))
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let report = try StoreSurvey(path: path).run()
    #expect(report.kind == .propertyList)
    let current = try place(report, .keyPath("profile.current"))
    #expect(current.archives == 1)
    #expect(
      current.dryRunArguments(store: path)?.prefix(3) == ["migrate-dry-run", "--store", path])
    #expect(try place(report, .keyPath("recent[0]")).archives == 1)
    #expect(try place(report, .keyPath("recent[1]")).otherBlobs == 1)
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test("A file that is no archive, database or folder is refused")
  func unknownFile() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/notes.json"
    try Data("{\"a\": 1}".utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: MigrationError.self) { try StoreSurvey(path: path).run() }
    #expect(error?.code == .storeNotFound)
  }

  @Test("A missing store is refused")
  func missingStore() {
    let error = #expect(throws: MigrationError.self) {
      try StoreSurvey(path: "/nonexistent/survey-store").run()
    }
    #expect(error?.code == .storeNotFound)
  }

  @Test(
    "Key columns: INTEGER PRIMARY KEY, unique text, WITHOUT ROWID, and none for a composite key")
  func keyColumns() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/keys.sqlite"
    let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
    let archive = MigrationFixtures.profile()
    for (table, create) in [
      ("rowids", "CREATE TABLE rowids (id INTEGER PRIMARY KEY, data BLOB)"),
      ("named", "CREATE TABLE named (n INTEGER, name TEXT UNIQUE NOT NULL, data BLOB)"),
      ("pairs", "CREATE TABLE pairs (a TEXT, b TEXT, data BLOB, PRIMARY KEY (a, b))"),
      ("norowid", "CREATE TABLE norowid (k TEXT PRIMARY KEY, data BLOB) WITHOUT ROWID"),
      ("bare", "CREATE TABLE bare (data BLOB)"),
    ] {
      try database.execute(create)
      let insert = try database.prepare(
        table == "pairs"
          ? "INSERT INTO pairs VALUES ('x', 'y', ?1)"
          : table == "named"
            ? "INSERT INTO named VALUES (1, 'one', ?1)"
            : table == "norowid"
              ? "INSERT INTO norowid VALUES ('k', ?1)"
              : "INSERT INTO \(table) (data) VALUES (?1)")
      try insert.bind(.blob(archive), at: 1)
      _ = try insert.step()
    }
    let report = try StoreSurvey(path: path).run()
    #expect(
      try place(report, .column(table: "rowids", column: "data")).keyColumn
        == SurveyKeyColumn(column: "id", kind: .integerPrimaryKey))
    #expect(
      try place(report, .column(table: "named", column: "data")).keyColumn
        == SurveyKeyColumn(column: "name", kind: .uniqueText))
    #expect(
      try place(report, .column(table: "norowid", column: "data")).keyColumn
        == SurveyKeyColumn(column: "k", kind: .primaryKey))
    let pairs = try place(report, .column(table: "pairs", column: "data"))
    #expect(pairs.keyColumn == nil && pairs.keyProblem?.contains("2 columns (a, b)") == true)
    #expect(pairs.dryRunArguments(store: path) == nil && pairs.archives == 1)
    // The composite key's text columns are read too; they hold text only, so are not listed.
    let bare = try place(report, .column(table: "bare", column: "data"))
    #expect(bare.keyColumn == nil && bare.noCommandReason?.contains("no primary key") == true)
  }

  @Test("--sample reads at most N archives per place and counts the rest by their first bytes")
  func sample() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try MigrationFixtures.makeDatabase(at: path)
    let report = try StoreSurvey(path: path, sampleLimit: 2).run()
    let value = try place(report, .column(table: "store", column: "value"))
    #expect(value.archives == 2)
    #expect(value.notRead == 3)  // b-current, e-truncated and f-legacy
    #expect(value.values == 7 && value.nulls == 1)
  }

  @Test("Class sets beyond the tracked bound are counted, and the remainder says so")
  func boundedFrequencies() {
    var frequencies = SurveyFrequencies(capacity: 2)
    frequencies.add(["A"])
    frequencies.add(["B"])
    frequencies.add(["B"])
    frequencies.add(["C"])
    frequencies.add(["D"], count: 3)
    #expect(frequencies.total == 7)
    let (shown, remainder) = frequencies.mostFrequent(1)
    #expect(shown == [SurveyFrequencies.Entry(names: ["B"], records: 2)])
    #expect(remainder == SurveyFrequencies.Remainder(sets: 2, records: 5, isLowerBound: true))
  }

  @Test("Other values are named from their bytes: JSON, text, XML, SQLite, binary, empty")
  func otherKinds() {
    #expect(SurveyOtherKind.of(Array(" [1, 2]\n".utf8)) == .json)
    #expect(SurveyOtherKind.of(Array("héllo, world\n".utf8)) == .text)
    #expect(SurveyOtherKind.of(Array("<?xml version=\"1.0\"?><html/>".utf8)) == .xml)
    #expect(SurveyOtherKind.of(Array("SQLite format 3\0rest".utf8)) == .sqliteDatabase)
    #expect(SurveyOtherKind.of([0x89, 0x50, 0x4E, 0x47, 0x00]) == .binary)
    #expect(SurveyOtherKind.of([]) == .empty)
    let xmlHead = Array("<?xml version=\"1.0\"?>\n<!DOCTYPE plist><plist>".utf8)
    #expect(xmlHead.withUnsafeBytes(SurveyRecognition.recognise) == .propertyList(.xml))
    #expect(
      Array("<?xml version=\"1.0\"?><svg/>".utf8).withUnsafeBytes(SurveyRecognition.recognise)
        == .other(.xml))
  }

  @Test("A class set keeps at most 32 names, the rest summed, and cuts very long names")
  func boundedClassSets() {
    let names = Set((0..<40).map { "Class\($0)" } + [String(repeating: "x", count: 500)])
    let bounded = SurveyExamination.bounded(names)
    #expect(bounded.count == 33)
    #expect(bounded.last == "… 9 more")
    #expect(bounded.allSatisfy { $0.count <= 201 })
  }
}
