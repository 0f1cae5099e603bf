import ArchiveFormat
import CHarnessSQLite
import Foundation
import Testing

@testable import ArchiveHarness

/// A store shaped as Core Data writes one: `Z_PRIMARYKEY`, `Z_METADATA` and entity tables.
///
/// Entities: `Book` (1, its own table `ZBOOK`), and `Item` (2) with its sub-entities `Note`
/// (3) and `Photo` (4), all three in `ZITEM`, told apart by `Z_ENT`.
///
/// - `ZBOOK.ZCOVER` (`Book.cover`): v1 profile archives in rows 1–3, NULL in row 4.
/// - `ZBOOK.ZMETA` (`Book.meta`): JSON, another value transformer's bytes.
/// - `ZBOOK.ZTITLE`: text.
/// - `ZITEM.ZBODY` (`Note.body`): archives on the Note rows only.
/// - `ZITEM.ZIMAGE` (`Photo.image`): already-current archives on the Photo rows only.
/// - `ZITEM.ZPAYLOAD` (`Item.payload`): archives on Note and Photo rows alike.
enum CoreDataFixtures {
  /// The `Z_PLIST` of `Z_METADATA`: a binary property list, as Core Data writes it.
  static let metadataPlist = BinaryPropertyListWriter().write(
    .dictionary([
      "NSStoreModelVersionIdentifiers": .array([.string("2.1")]),
      "NSStoreModelVersionHashesVersion": .integer(3),
      "NSStoreType": .string("SQLite"),
    ]))

  /// Creates the store at `path`.
  static func makeStore(at path: String) throws {
    let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
    try database.execute("PRAGMA journal_mode=DELETE")
    for statement in [
      "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
      "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
      "CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZCOVER BLOB, ZMETA BLOB)",
      "CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBODY BLOB, ZIMAGE BLOB, ZPAYLOAD BLOB)",
      "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 0, 4), (2, 'Item', 0, 0), (3, 'Note', 2, 2), (4, 'Photo', 2, 4)",
    ] {
      try database.execute(statement)
    }
    let metadata = try database.prepare(
      "INSERT INTO Z_METADATA VALUES (1, 'B2E1A7C4-0D1F-4C55-9E0A-7F3D2C1B0A99', ?1)")
    try metadata.bind(.blob(metadataPlist), at: 1)
    _ = try metadata.step()

    let book = try database.prepare("INSERT INTO ZBOOK VALUES (?1, 1, 1, ?2, ?3, ?4)")
    for pk in Int64(1)...4 {
      try book.bind(.integer(pk), at: 1)
      try book.bind(.text("Book \(pk)"), at: 2)
      try book.bind(pk == 4 ? .null : .blob(MigrationFixtures.profile(id: pk)), at: 3)
      try book.bind(.blob(Array("{\"pages\": \(pk * 100)}".utf8)), at: 4)
      _ = try book.step()
      book.reset()
    }
    // Notes are rows 1 and 3, photos rows 2 and 4.
    let item = try database.prepare("INSERT INTO ZITEM VALUES (?1, ?2, 1, ?3, ?4, ?5)")
    for pk in Int64(1)...4 {
      let isNote = pk % 2 == 1
      try item.bind(.integer(pk), at: 1)
      try item.bind(.integer(isNote ? 3 : 4), at: 2)
      try item.bind(isNote ? .blob(MigrationFixtures.profile(id: 10 + pk)) : .null, at: 3)
      try item.bind(
        isNote ? .null : .blob(MigrationFixtures.profile(module: "ProfileKit", id: 20 + pk)),
        at: 4)
      try item.bind(.blob(MigrationFixtures.profile(id: 30 + pk)), at: 5)
      _ = try item.step()
      item.reset()
    }
  }

  /// A fresh Core Data-shaped store in a new temporary folder: `(folder, store path)`.
  static func makeStoreInFolder() throws -> (folder: String, path: String) {
    let folder = try MigrationFixtures.temporaryFolder()
    let path = folder + "/Books.sqlite"
    try makeStore(at: path)
    return (folder, path)
  }

  /// Every value of a column by `Z_PK` (nil for NULL).
  static func column(_ column: String, of table: String, at path: String) throws -> [Int64:
    [UInt8]?]
  {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    let select = try database.prepare("SELECT Z_PK, \(column) FROM \(table)")
    var result: [Int64: [UInt8]?] = [:]
    while try select.step() {
      result[select.integer(0)] =
        select.columnType(1) == SQLITE_NULL ? .some(nil) : .some(select.bytes(1))
    }
    return result
  }
}
