import ArchiveFormat
import ArchiveManifest
import CHarnessSQLite
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Archives, stores and checksums shared by the migration tests.
enum MigrationFixtures {
  /// The renames of the sample app: v1 `ProfilesApp` to v2 `ProfileKit`.
  static let mapping = ClassNameMapping([
    "ProfilesApp.UserProfile": "ProfileKit.UserProfile",
    "ProfilesApp.Address": "ProfileKit.Address",
  ])

  /// A profile with a nested address shared twice, a tags array, and a cycle back to itself.
  static func profile(module: String = "ProfilesApp", id: Int64 = 42) -> [UInt8] {
    var builder = ArchiveBuilder()
    let profile = builder.reserve()
    let address = builder.object(
      "\(module).Address",
      [("street", builder.string("1 Main St")), ("city", builder.string("Springfield"))])
    let tags = builder.array([builder.string("a"), builder.string("b")])
    builder.fill(
      profile,
      with: builder.instanceValue(
        "\(module).UserProfile",
        [
          ("id", .integer(id)), ("name", builder.string("Ada")), ("isActive", .bool(true)),
          ("address", address), ("billing", address), ("tags", tags), ("me", profile),
          ("score", .real(0.5)),
        ]))
    builder.setRoot(profile)
    return builder.bytes()
  }

  /// A profile that holds only what the sample app's version 2 (`ProfileKit.UserProfile`) reads
  /// and writes back, so a typed migration keeps every value: ``profile(module:id:)``'s extra
  /// fields (`billing`, `tags`, `me`, `score`) are values version 2 would lose.
  static func keptProfile(module: String = "ProfilesApp", id: Int64 = 42) -> [UInt8] {
    var builder = ArchiveBuilder()
    let address = builder.object(
      "\(module).Address",
      [("street", builder.string("1 Main St")), ("city", builder.string("Springfield"))])
    let profile = builder.object(
      "\(module).UserProfile",
      [
        ("id", .integer(id)), ("name", builder.string("Ada")), ("isActive", .bool(true)),
        ("address", address),
      ])
    builder.setRoot(profile)
    return builder.bytes()
  }

  /// A fresh empty folder under the temporary directory.
  static func temporaryFolder(_ name: String = #function) throws -> String {
    let base = NSTemporaryDirectory() + "migration-tests-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    return base
  }

  /// The values an SQLite test store holds, by key.
  static func sampleRows() -> [(String, [UInt8]?)] {
    [
      ("a-legacy", profile(id: 1)),
      ("b-current", profile(module: "ProfileKit", id: 2)),
      ("c-null", nil),
      ("d-json", Array("{\"not\": \"an archive\"}".utf8)),
      ("e-truncated", Array(profile(id: 5).prefix(12))),
      ("f-legacy", profile(id: 6)),
      ("g-plist", BinaryPropertyListWriter().write(.array([.string("not a keyed archive")]))),
    ]
  }

  /// Creates an SQLite store with table `store(key TEXT PRIMARY KEY, value BLOB)`.
  static func makeDatabase(
    at path: String, rows: [(String, [UInt8]?)] = sampleRows(), wal: Bool = false
  ) throws {
    let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
    try database.execute(wal ? "PRAGMA journal_mode=WAL" : "PRAGMA journal_mode=DELETE")
    try database.execute("CREATE TABLE store (key TEXT PRIMARY KEY, value BLOB)")
    let insert = try database.prepare("INSERT INTO store (key, value) VALUES (?1, ?2)")
    for (key, value) in rows {
      try insert.bind(.text(key), at: 1)
      try insert.bind(value.map(SQLiteValue.blob) ?? .null, at: 2)
      _ = try insert.step()
      insert.reset()
    }
  }

  /// Every row's value, by key (`nil` for NULL).
  static func rows(at path: String) throws -> [String: [UInt8]?] {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    let select = try database.prepare("SELECT key, value FROM store")
    var result: [String: [UInt8]?] = [:]
    while try select.step() {
      guard case .text(let key) = select.value(0) else { continue }
      result[key] = select.columnType(1) == SQLITE_NULL ? .some(nil) : .some(select.bytes(1))
    }
    return result
  }

  /// Creates a directory store with the sample values as files (NULL as an empty file), some nested.
  static func makeFolder(at path: String) throws {
    for (index, (key, value)) in sampleRows().enumerated() {
      let folder = index % 2 == 0 ? path : path + "/nested"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      #expect(
        FileManager.default.createFile(
          atPath: folder + "/\(key).archive", contents: Data(value ?? [])))
    }
  }

  /// SHA-256 of every file under a folder (including hidden ones), by relative path.
  static func checksums(ofFolder path: String) throws -> [String: String] {
    var result: [String: String] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: path) else { return result }
    while let relative = enumerator.nextObject() as? String {
      let full = path + "/" + relative
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        result[relative] = SHA256Checksum.hex(Array(data))
      }
    }
    return result
  }

  /// SHA-256 of one file.
  static func checksum(ofFile path: String) throws -> String {
    SHA256Checksum.hex(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
  }

  /// Runs a whole store through an engine and returns the plans by place.
  static func run(
    _ store: any RecordStore,
    transform: any RecordTransform = RenameOnlyTransform(mapping: mapping),
    writer: (any RecordWriter)? = nil, batchSize: Int = 3, accepted: [AcceptedRefusal] = []
  ) throws -> (summary: MigrationSummary, plans: [String: RecordPlan.Outcome]) {
    let engine = MigrationEngine(
      store: store, migrator: RecordMigrator(transform: transform), writer: writer,
      batchSize: batchSize, workerCount: 2, acceptedRefusals: accepted)
    var plans: [String: RecordPlan.Outcome] = [:]
    let summary = try engine.run(onRecord: { plans[$0.record.id.description] = $0.outcome })
    return (summary, plans)
  }

  /// A rename-only dry run's report of an SQLite store of `rows`, its path written as `STORE`.
  ///
  /// - Parameters:
  ///   - format: The report's format.
  ///   - rows: The store's keys and values.
  ///   - storeName: The store's name in the report, or `nil` for its path.
  ///   - accepted: The refusals the run accepts.
  /// - Returns: The report's text.
  /// - Throws: When the store cannot be made or read.
  static func dryRunReport(
    _ format: MigrationReportWriter.Format, rows: [(String, [UInt8]?)] = sampleRows(),
    storeName: String? = nil, accepted: [AcceptedRefusal] = []
  ) throws -> String {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.sqlite"
    try makeDatabase(at: path, rows: rows)
    let store = try SQLiteStore(
      path: path, table: "store", keyColumn: "key", valueColumn: "value", readOnly: true)
    let engine = MigrationEngine(
      store: store, migrator: RecordMigrator(transform: RenameOnlyTransform(mapping: mapping)),
      writer: nil, batchSize: 2, acceptedRefusals: accepted)
    let collected = CollectedText()
    let writer = MigrationReportWriter(format: format, sink: collected.append)
    writer.begin(store: storeName ?? path, mode: "rename-only", operation: .dryRun)
    let summary = try engine.run(onRecord: writer.record)
    writer.finish(summary, notes: [("store", "unchanged (dry run)")])
    return collected.text.replacingOccurrences(of: path, with: "STORE")
  }

  /// The arguments of a rename-only `migrate-dry-run` of the sample SQLite store at `path`.
  static func renameOnlyDryRun(store path: String, format: String, output: String) -> [String] {
    [
      "migrate-dry-run", "--store", path, "--table", "store", "--rename-only",
      "--class-map", "ProfilesApp.UserProfile=ProfileKit.UserProfile",
      "--class-map", "ProfilesApp.Address=ProfileKit.Address",
      "--format", format, "--output", output,
    ]
  }
}

/// A transform that returns fixed bytes, standing in for a typed transform whose decode came back empty.
struct FixedBytesTransform: RecordTransform {
  var bytes: [UInt8]
  var name: String { "fixed" }
  func transform(_ input: TransformInput) -> TransformResult {
    .rewritten(bytes, summary: "replaced")
  }
}
