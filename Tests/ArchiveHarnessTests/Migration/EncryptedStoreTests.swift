import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// The SQLCipher stores in Tests/Fixtures/SQLCipher, written by the real SQLCipher 4.12
/// (scripts/make-sqlcipher-fixtures), and copies of them in a temporary folder.
enum SQLCipherFixtures {
  static let folder = Corpus.packageRoot.appendingPathComponent("Tests/Fixtures/SQLCipher").path
  static let passphrase = Array("harness-fixture-passphrase".utf8)
  static let rawKey = Array(
    "x'2DD29CA851E7B56E4697B0E1F08507293D761A05CE4D1B628663F411A8086D99'".utf8)
  static let headerSalt: [UInt8] = [
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
  ]

  /// A fixture, how to open it, and the version its settings come from.
  struct Case: Sendable, CustomTestStringConvertible {
    var file: String
    var compatibility: Int
    var raw = false
    var plaintextHeader = false
    var wal = false
    var testDescription: String { file }

    func encryption() throws -> StoreEncryption {
      let key = try StoreKey(bytes: raw ? rawKey : passphrase, source: file)
      return plaintextHeader
        ? StoreEncryption(key: key, plaintextHeaderSize: 32, salt: headerSalt)
        : StoreEncryption(key: key)
    }
  }

  static let cases: [Case] = [
    Case(file: "v1.sqlite", compatibility: 1), Case(file: "v2.sqlite", compatibility: 2),
    Case(file: "v3.sqlite", compatibility: 3), Case(file: "v3-reserve80.sqlite", compatibility: 3),
    Case(file: "v4.sqlite", compatibility: 4),
    Case(file: "v4-pagesize8192.sqlite", compatibility: 4),
    Case(file: "v4-rawkey.sqlite", compatibility: 4, raw: true),
    Case(file: "v4-plaintext-header.sqlite", compatibility: 4, plaintextHeader: true),
    Case(file: "v4-wal.sqlite", compatibility: 4, wal: true),
  ]

  /// Copies a fixture (and its -wal) into a new temporary folder; returns the copy's path.
  static func copy(_ file: String) throws -> String {
    let target = try MigrationFixtures.temporaryFolder()
    for suffix in ["", "-wal"]
    where FileManager.default.fileExists(atPath: "\(folder)/\(file)\(suffix)") {
      try FileManager.default.copyItem(
        atPath: "\(folder)/\(file)\(suffix)", toPath: "\(target)/\(file)\(suffix)")
    }
    return "\(target)/\(file)"
  }

  static func store(_ path: String, keys: SQLCipherKeys?, readOnly: Bool) throws -> SQLiteStore {
    try SQLiteStore(
      path: path, table: "store", keyColumn: "key", valueColumn: "value", readOnly: readOnly,
      keys: keys)
  }

  /// Every row of the `store` table by key, read through the harness.
  static func rows(_ path: String, keys: SQLCipherKeys?) throws -> [String: [UInt8]?] {
    let store = try store(path, keys: keys, readOnly: true)
    var rows: [String: [UInt8]?] = [:]
    while case let batch = try store.nextBatch(maximumCount: 100), !batch.isEmpty {
      for record in batch {
        guard case .row(_, .text(let key), _) = record.id.kind else { continue }
        if case .bytes(let bytes) = record.content {
          rows[key] = bytes
        } else {
          rows[key] = .some(nil)
        }
      }
    }
    return rows
  }

  /// A rename-only dry run's outcomes by key; an encrypted store's rows named by their keys
  /// (as `--show-keys` names them), so that they compare with the store in the clear.
  static func plans(_ path: String, keys: SQLCipherKeys?) throws -> [String: String] {
    let opened = try store(path, keys: keys, readOnly: true)
    opened.recordNaming = .clear
    let result = try MigrationFixtures.run(opened)
    var plans: [String: String] = [:]
    for (place, outcome) in result.plans {
      let key = place.split(separator: "=").last.map(String.init) ?? place
      plans[key] = "\(outcome)"
    }
    return plans
  }
}

@Suite("Encrypted stores: SQLCipher 1 to 4, written by the real SQLCipher")
struct EncryptedStoreTests {
  @Test("Each version's settings are found from page 1", arguments: SQLCipherFixtures.cases)
  func detectsSettings(_ fixture: SQLCipherFixtures.Case) throws {
    let keys = try fixture.encryption().open(path: "\(SQLCipherFixtures.folder)/\(fixture.file)")
    #expect(keys.settings.compatibility == fixture.compatibility)
    #expect(keys.settings.plaintextHeaderSize == (fixture.plaintextHeader ? 32 : 0))
  }

  @Test(
    "A dry run plans what it plans for the same store decrypted, and changes no byte",
    arguments: SQLCipherFixtures.cases)
  func dryRunMatchesPlain(_ fixture: SQLCipherFixtures.Case) throws {
    let path = try SQLCipherFixtures.copy(fixture.file)
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let keys = try fixture.encryption().open(path: path)
    let plans = try SQLCipherFixtures.plans(path, keys: keys)
    let plain = try SQLCipherFixtures.plans(
      "\(SQLCipherFixtures.folder)/plain.sqlite", keys: nil)
    #expect(!plans.isEmpty)
    #expect(plans == plain)
    // Not a byte changed, and no file appeared (no -shm, no -journal).
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test(
    "Migrate rewrites, every page verifies, and rollback puts every original back",
    arguments: SQLCipherFixtures.cases)
  func migrateAndRollBack(_ fixture: SQLCipherFixtures.Case) throws {
    let path = try SQLCipherFixtures.copy(fixture.file)
    let folder = DurableFile.directory(of: path)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keys = try fixture.encryption().open(path: path)
    let original = try SQLCipherFixtures.rows(path, keys: keys)
    let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
    let result = try MigrationFixtures.run(store, writer: writer)
    #expect(result.summary.rewritten > 0)
    let migrated = try SQLCipherFixtures.rows(path, keys: keys)
    #expect(migrated != original)
    #expect(try keys.verifyPages(of: path) > 1)
    // The backup is the encrypted file as it was, byte for byte.
    #expect(
      try MigrationFixtures.checksum(ofFile: folder + "/run/" + fixture.file)
        == MigrationFixtures.checksum(ofFile: "\(SQLCipherFixtures.folder)/\(fixture.file)"))
    let journal = try String(contentsOfFile: folder + "/run/journal.jsonl", encoding: .utf8)
    #expect(journal.contains("\"cipher\""))
    #expect(!journal.contains("harness-fixture-passphrase"))
    #expect(!journal.contains("2DD29CA8"))

    let summary = try MigrationRollback.run(
      journalPath: folder + "/run/journal.jsonl", key: try fixture.encryption().key
    ) { _, _ in }
    #expect(summary.restored == result.summary.rewritten)
    #expect(summary.conflicts == 0)
    #expect(try SQLCipherFixtures.rows(path, keys: keys) == original)
    #expect(try keys.verifyPages(of: path) > 1)
  }

  @Test("A wrong key is an error that names what was tried")
  func wrongKey() throws {
    let key = try StoreKey(bytes: Array("not-the-key".utf8), source: "key")
    #expect {
      _ = try StoreEncryption(key: key).open(path: "\(SQLCipherFixtures.folder)/v4.sqlite")
    } throws: { error in
      let error = error as? MigrationError
      return error?.code == .wrongKey && error?.message.contains("SQLCipher 4, SQLCipher 3") == true
        && error?.message.contains("wrong key") == true
    }
  }

  @Test("A key for a store in the clear is an error that says to drop it")
  func keyForPlainStore() throws {
    let key = try StoreKey(bytes: SQLCipherFixtures.passphrase, source: "key")
    #expect(throws: MigrationError.self) {
      _ = try StoreEncryption(key: key).open(path: "\(SQLCipherFixtures.folder)/plain.sqlite")
    }
  }

  @Test("A plaintext header without its salt is an error that asks for it")
  func plaintextHeaderNeedsSalt() throws {
    let key = try StoreKey(bytes: SQLCipherFixtures.passphrase, source: "key")
    #expect {
      _ = try StoreEncryption(key: key, plaintextHeaderSize: 32).open(
        path: "\(SQLCipherFixtures.folder)/v4-plaintext-header.sqlite")
    } throws: { error in
      (error as? MigrationError)?.message.contains("--cipher-salt") == true
    }
  }

  @Test("A plaintext header of 4,294,967,280 bytes is out of range, not a read 4 GB past the page")
  func plaintextHeaderThatWraps() throws {
    // Found by Fuzz/page-codec: 0xFFFFFFF0 plus the reserve wrapped in 32 bits, passed the
    // codec's size check, and page 1's HMAC then read from 4 GB past the page. A journal's
    // settings reach the codec the same way, so the codec refuses it, not only the CLI.
    let key = try StoreKey(bytes: SQLCipherFixtures.rawKey, source: "key")
    #expect {
      _ = try StoreEncryption(
        key: key, compatibility: 4, pageSize: 4096, plaintextHeaderSize: 0xFFFF_FFF0,
        salt: SQLCipherFixtures.headerSalt
      ).open(path: "\(SQLCipherFixtures.folder)/v4-plaintext-header.sqlite")
    } throws: { error in
      let error = error as? MigrationError
      return error?.code == .invalidOptions && error?.message.contains("out of range") == true
    }
  }

  @Test("A tampered page is named by its number, and the dry run stops")
  func tamperedPage() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    let keys = try SQLCipherFixtures.Case(file: "v4.sqlite", compatibility: 4).encryption()
      .open(path: path)
    let pageCount = try keys.verifyPages(of: path)
    // Flip one byte in the middle of page 2's ciphertext (a b-tree page: every read meets it).
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    let offset = UInt64(4096 + 1000)
    try handle.seek(toOffset: offset)
    let byte = try handle.read(upToCount: 1) ?? Data([0])
    try handle.seek(toOffset: offset)
    try handle.write(contentsOf: Data([byte[0] ^ 0x01]))
    try handle.close()
    #expect(pageCount > 2)
    #expect {
      try keys.verifyPages(of: path)
    } throws: { error in
      (error as? MigrationError)?.code == .damagedPage
        && (error as? MigrationError)?.place.position == .page(2)
    }
    #expect {
      let store = try SQLCipherFixtures.store(path, keys: keys, readOnly: true)
      while try !store.nextBatch(maximumCount: 100).isEmpty {}
      try store.database.execute("PRAGMA integrity_check")
    } throws: { error in
      (error as? MigrationError)?.code == .damagedPage
        && (error as? MigrationError)?.message.contains("page 2 ") == true
    }
  }

  @Test(
    "A hot journal in SQLCipher's format is rolled back by a read-write open and refused by a dry run"
  )
  func sqlcipherHotJournal() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    // A journal as SQLCipher writes one: its checksum covers the encrypted page image.
    var journal: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]
    journal += [0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 38, 0, 0, 2, 0, 0, 0, 16, 0]
    journal += [UInt8](repeating: 0, count: 512 - journal.count)
    let page = Array(try Data(contentsOf: URL(fileURLWithPath: path))[4096..<8192])
    var sum: UInt32 = 7
    var index = 4096 - 200
    while index > 0 {
      sum &+= UInt32(page[index])
      index -= 200
    }
    journal += [0, 0, 0, 2] + page
    journal += [
      UInt8(sum >> 24), UInt8(sum >> 16 & 0xff), UInt8(sum >> 8 & 0xff), UInt8(sum & 0xff),
    ]
    try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
    let keys = try SQLCipherFixtures.Case(file: "v4.sqlite", compatibility: 4).encryption()
      .open(path: path)
    let original = try SQLCipherFixtures.rows(
      "\(SQLCipherFixtures.folder)/v4.sqlite",
      keys: try SQLCipherFixtures.Case(file: "v4.sqlite", compatibility: 4).encryption()
        .open(path: "\(SQLCipherFixtures.folder)/v4.sqlite"))
    #expect {
      _ = try SQLCipherFixtures.store(path, keys: keys, readOnly: true)
    } throws: { error in
      (error as? MigrationError)?.code == .hotJournal
        && (error as? MigrationError)?.message.contains("dry run cannot roll it back") == true
    }
    // A read-write open rolls it back (page 2 is put back as the journal holds it).
    _ = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    #expect(try SQLCipherFixtures.rows(path, keys: keys) == original)
    #expect(try keys.verifyPages(of: path) > 2)
  }

  @Test("A journal whose first record checks in no known way is refused by every run")
  func unknownHotJournalRefused() throws {
    let path = try SQLCipherFixtures.copy("v4.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    var journal: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]
    journal += [0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 38, 0, 0, 2, 0, 0, 0, 16, 0]
    journal += [UInt8](repeating: 0, count: 512 - journal.count)
    journal += [0, 0, 0, 2] + [UInt8](repeating: 0xAB, count: 4096) + [0, 0, 0, 0]
    try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
    let keys = try SQLCipherFixtures.Case(file: "v4.sqlite", compatibility: 4).encryption()
      .open(path: path)
    #expect {
      _ = try SQLCipherFixtures.store(path, keys: keys, readOnly: false)
    } throws: { error in
      (error as? MigrationError)?.code == .hotJournal
    }
  }

  @Test("The rollback journal SQLite writes during a change holds encrypted pages only")
  func journalIsEncrypted() throws {
    let path = try SQLCipherFixtures.copy("v2.sqlite")
    defer { try? FileManager.default.removeItem(atPath: DurableFile.directory(of: path)) }
    let keys = try SQLCipherFixtures.Case(file: "v2.sqlite", compatibility: 2).encryption()
      .open(path: path)
    let database = try SQLiteDatabase(path: path, readOnly: false, keys: keys)
    try database.execute("PRAGMA journal_mode = DELETE")
    try database.execute("BEGIN IMMEDIATE")
    try database.execute("UPDATE store SET value = x'00' WHERE key = 'profile-valid'")
    // The transaction is open: the journal holds the changed pages' original images.
    let journal = try Data(contentsOf: URL(fileURLWithPath: path + "-journal"))
    try database.execute("ROLLBACK")
    #expect(journal.count > 1024)
    // Its checksums are SQLCipher's (over the encrypted image), so SQLCipher can roll it back.
    let bytes = [UInt8](journal)
    func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
    let sector = Int(word(20))
    let pageSize = Int(word(24))
    var sum = word(12)
    var index = pageSize - 200
    while index > 0 {
      sum &+= UInt32(bytes[sector + 4 + index])
      index -= 200
    }
    #expect(sum == word(sector + 4 + pageSize))
    for text in ["Avery Example", "Walldorf", "ProfilesApp.UserProfile", "SQLite format 3"] {
      #expect(journal.range(of: Data(text.utf8)) == nil, "\(text) is in the journal")
    }
    // The plaintext store holds them, so the check can find them.
    let plain = try Data(
      contentsOf: URL(fileURLWithPath: SQLCipherFixtures.folder + "/plain.sqlite"))
    #expect(plain.range(of: Data("Avery Example".utf8)) != nil)
    #expect(try SQLCipherFixtures.rows(path, keys: keys)["profile-valid"] != .some(.some([0])))
  }

  @Test("A key file's one trailing line break is dropped, and nothing else")
  func keyFileNewline() throws {
    let crlf = try StoreKey(bytes: Array("secret\r\n".utf8), source: "f")
    let spaces = try StoreKey(bytes: Array(" secret \n".utf8), source: "f")
    try crlf.withBytes { #expect(Array($0) == Array("secret".utf8)) }
    try spaces.withBytes { #expect(Array($0) == Array(" secret ".utf8)) }
  }

  @Test("A raw key that is not 64 or 96 hex digits is an error")
  func malformedRawKey() throws {
    #expect(throws: MigrationError.self) {
      _ = try StoreKey(bytes: Array("x'abcd'".utf8), source: "f")
    }
  }

  @Test("An empty key is an error")
  func emptyKey() throws {
    #expect(throws: MigrationError.self) {
      _ = try StoreKey(bytes: Array("\n".utf8), source: "f")
    }
  }
}
