import CNotesSQLite
import Foundation
import Testing

@Suite("Migrating an SQLite store of version 1 notes with notes-harness")
struct StoreMigrationTests {
  private let harness = Executable(name: "notes-harness")
  private let generator = Executable(name: "generate-legacy-archives")

  /// A fresh store of `records` version 1 notes (record 7 truncated, every 25th current).
  private func makeStore(records: Int) throws -> (folder: String, store: String) {
    let folder = NSTemporaryDirectory() + "notes-store-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let store = folder + "/notes.sqlite"
    let made = try generator.run(["store", store, "--records", "\(records)"])
    try #require(made.status == 0, "\(made.stderr)")
    return (folder, store)
  }

  /// The bytes stored under `key`.
  private func value(of key: String, in store: String) throws -> [UInt8] {
    var database: OpaquePointer?
    defer { sqlite3_close(database) }
    try #require(sqlite3_open_v2(store, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    try #require(
      sqlite3_prepare_v2(database, "SELECT value FROM notes WHERE key = ?1", -1, &statement, nil)
        == SQLITE_OK)
    sqlite3_bind_text(statement, 1, key, -1, notes_sqlite_transient())
    try #require(sqlite3_step(statement) == SQLITE_ROW, "no record '\(key)'")
    let count = Int(sqlite3_column_bytes(statement, 0))
    guard let blob = sqlite3_column_blob(statement, 0), count > 0 else { return [] }
    return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
  }

  private func storeArguments(_ store: String) -> [String] {
    ["--store", store, "--table", "notes", "--manifest", "manifests/NotesV1-1.0.xml"]
  }

  @Test("The dry run plans every record and changes nothing")
  func dryRunPlans() throws {
    let (folder, store) = try makeStore(records: 60)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let plan = try harness.run(["migrate-dry-run"] + storeArguments(store))
    #expect(plan.status == 1, "one record is refused: \(plan.stderr)")
    #expect(plan.stdout.contains("summary: 57 will-rewrite, 2 already-current, 1 refused"))
    #expect(plan.stdout.contains("refused          \(store):notes[key='note-00007']  [read]"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  @Test("migrate rewrites the version 1 notes, never the truncated one, and a rerun has no work")
  func migrateRewrites() throws {
    let (folder, store) = try makeStore(records: 60)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let truncated = try value(of: "note-00007", in: store)
    let legacy = try value(of: "note-00001", in: store)
    let migrated = try harness.run(
      ["migrate"] + storeArguments(store) + ["--backup", folder + "/backup"])
    #expect(migrated.status == 1, "\(migrated.stderr)")
    #expect(migrated.stdout.contains("summary: 57 rewritten, 2 already-current, 1 refused"))
    #expect(try value(of: "note-00007", in: store) == truncated)
    #expect(try value(of: "note-00001", in: store) != legacy)

    let again = try harness.run(["migrate-dry-run"] + storeArguments(store))
    #expect(again.stdout.contains("summary: 0 will-rewrite, 59 already-current, 1 refused"))
    #expect(again.stdout.contains("refused          \(store):notes[key='note-00007']"))
  }
}
