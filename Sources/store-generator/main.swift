// store-generator: builds test stores of Apple-shaped ProfilesApp v1 archives
// for migration tests, benchmarks and the crash test, and checks a store
// after an interrupted migration.
//
//   store-generator sqlite PATH --records N [--table T] [--wal] [--mix clean|mixed] [--trap-at I]
//   store-generator directory PATH --records N [--mix clean|mixed] [--trap-at I]
//   store-generator check --original A --expected B --current C [--table T] [--key-file F]
//   store-generator sums STORE OUT [--table T] [--key-file F]   (then check --original-sums OUT …)
//
// `--key-file F` reads an encrypted (SQLCipher) SQLite store through the harness's
// codec, as `archive-harness --key-file` does. The store is opened read-write, so a hot
// rollback journal that an interrupted migrate left is rolled back first, as the next
// read-write open of the database does.
//
// `mixed` adds, every 97th record, an already-current v2 archive, a NULL (or
// an empty file), a non-archive value and a truncated archive. `--trap-at I`
// makes record I a `ProfilesApp.Badge` whose decode traps in crash-test-harness.

import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import CHarnessSQLite
import Foundation
import HarnessTestSupport
import _ArchiveHarnessSystem

enum Kind {
  case current
  case legacy
  case null
  case notArchive
  case truncated
}

func kind(of index: Int, mixed: Bool) -> Kind {
  guard mixed else { return .legacy }
  switch index % 97 {
  case 13: return .current
  case 29: return .null
  case 41: return .notArchive
  case 67: return .truncated
  default: return .legacy
  }
}

let firstNames = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia"]
let cities = ["Walldorf", "Cupertino", "Zürich", "Lyon", "Kyoto", "Austin", "Porto", "Tartu"]

/// A UserProfile archive of about 400 bytes, under the v1 or v2 module name, with the fields
/// both versions read and write (id, name, isActive, address): a typed migration keeps every
/// value, as conservation checks. (It held `tags` and `note` too, which no version of the sample
/// app writes back, so a typed migration would have lost them.)
func profileArchive(_ index: Int, module: String) -> [UInt8] {
  var builder = ArchiveBuilder()
  let address = builder.object(
    "\(module).Address",
    [
      ("street", builder.string("\(index % 900 + 1) Main Street, Building \(index % 17)")),
      ("city", builder.string(cities[index % cities.count])),
    ])
  let profile = builder.object(
    "\(module).UserProfile",
    [
      ("id", .integer(Int64(index))),
      ("name", builder.string("\(firstNames[index % firstNames.count]) Example \(index)")),
      ("isActive", .bool(index % 3 != 0)),
      ("address", address),
    ])
  builder.setRoot(profile)
  return builder.bytes()
}

/// A `ProfilesApp.Badge` whose label is a number: crash-test-harness's Badge decoder traps on it.
func trappingArchive(_ index: Int) -> [UInt8] {
  var builder = ArchiveBuilder()
  let badge = builder.object("ProfilesApp.Badge", [("label", .integer(Int64(index)))])
  builder.setRoot(badge)
  return builder.bytes()
}

/// The record that holds ``trappingArchive(_:)``, from `--trap-at INDEX`.
nonisolated(unsafe) var trapIndex: Int?

/// Removes an earlier store at `path` when it is of the kind being made; anything else there
/// (a device, a FIFO, a link) is refused, never removed.
func clearStorePath(_ path: String, replacing kind: OutputPathKind) {
  let existing: OutputPathKind
  do {
    existing = try OutputPathKind.of(path)
  } catch {
    fail("\(error)")
  }
  guard existing != .missing else { return }
  guard existing == kind else {
    fail(
      "\(path) is \(existing.rawValue); a store is made only where nothing is or an earlier one was"
    )
  }
  if kind == .directory {
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      fail("cannot remove the earlier store \(path): \(error)")
    }
  } else {
    unlink(path)
  }
}

func value(_ index: Int, mixed: Bool) -> [UInt8]? {
  if index == trapIndex { return trappingArchive(index) }
  switch kind(of: index, mixed: mixed) {
  case .current: return profileArchive(index, module: "ProfileKit")
  case .legacy: return profileArchive(index, module: "ProfilesApp")
  case .null: return nil
  case .notArchive: return Array("{\"json\": \"not an archive \(index)\"}".utf8)
  case .truncated: return Array(profileArchive(index, module: "ProfilesApp").prefix(40))
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("store-generator: \(message)\n".utf8))
  exit(2)
}

func option(_ name: String, in arguments: [String]) -> String? {
  guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else {
    return nil
  }
  return arguments[index + 1]
}

func execute(_ database: OpaquePointer?, _ sql: String) {
  var message: UnsafeMutablePointer<CChar>?
  if sqlite3_exec(database, sql, nil, nil, &message) != SQLITE_OK {
    fail("sqlite: \(message.map { String(cString: $0) } ?? "error") in \(sql)")
  }
}

func makeSQLite(_ path: String, records: Int, table: String, wal: Bool, mixed: Bool) {
  clearStorePath(path, replacing: .regularFile)
  var database: OpaquePointer?
  guard sqlite3_open(path, &database) == SQLITE_OK else { fail("cannot create \(path)") }
  defer { sqlite3_close(database) }
  execute(database, wal ? "PRAGMA journal_mode=WAL" : "PRAGMA journal_mode=DELETE")
  execute(database, "CREATE TABLE \"\(table)\" (key TEXT PRIMARY KEY, value BLOB)")
  execute(database, "BEGIN")
  var statement: OpaquePointer?
  guard
    sqlite3_prepare_v2(
      database, "INSERT INTO \"\(table)\" (key, value) VALUES (?1, ?2)", -1, &statement, nil)
      == SQLITE_OK
  else { fail("cannot prepare the insert") }
  for index in 0..<records {
    sqlite3_bind_text(
      statement, 1, String(format: "profile-%08d", index), -1, harness_sqlite_transient())
    if let bytes = value(index, mixed: mixed) {
      _ = bytes.withUnsafeBytes {
        sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), harness_sqlite_transient())
      }
    } else {
      sqlite3_bind_null(statement, 2)
    }
    guard sqlite3_step(statement) == SQLITE_DONE else { fail("insert failed at record \(index)") }
    sqlite3_reset(statement)
    if index % 50_000 == 49_999 {
      execute(database, "COMMIT")
      execute(database, "BEGIN")
    }
  }
  sqlite3_finalize(statement)
  execute(database, "COMMIT")
}

func makeDirectory(_ path: String, records: Int, mixed: Bool) {
  let manager = FileManager.default
  clearStorePath(path, replacing: .directory)
  for index in 0..<records {
    let folder = "\(path)/group-\(String(format: "%03d", index / 1000))"
    if index % 1000 == 0 {
      do {
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        fail("cannot create \(folder)")
      }
    }
    let bytes = value(index, mixed: mixed) ?? []
    let file = "\(folder)/profile-\(String(format: "%08d", index)).archive"
    // The folder was just emptied: each file is new, so it is created, never replaced,
    // and the test store is not worth an fsync per file.
    do {
      try AtomicFile.createNew(file, bytes: bytes, sync: false)
    } catch {
      fail("cannot write \(file): \(error.message)")
    }
  }
}

/// The keys of an encrypted store from `--key-file`, or nil for a store in the clear.
func encryptionKeys(_ path: String, keyFile: String?) -> SQLCipherKeys? {
  guard let keyFile else { return nil }
  do {
    return try StoreEncryption(key: StoreKey(contentsOfFile: keyFile)).open(path: path)
  } catch {
    fail("\(error)")
  }
}

/// Every record of a store, by place relative to the store, as a checksum.
func checksums(_ path: String, table: String?, keyFile: String? = nil) -> [String: String] {
  var result: [String: String] = [:]
  do {
    let store: any RecordStore
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if isDirectory.boolValue {
      store = try DirectoryStore(path: path)
    } else {
      store = try SQLiteStore(
        path: path, table: table ?? "t", keyColumn: "key", valueColumn: "value", readOnly: false,
        keys: encryptionKeys(path, keyFile: keyFile))
    }
    while true {
      let batch = try store.nextBatch(maximumCount: 1000)
      if batch.isEmpty { break }
      for record in batch {
        let name: String
        switch record.id.kind {
        case .file(_, let relative): name = relative
        case .row(_, let key, _): name = key.displayText
        case .propertyListValue(let keyPath): name = keyPath.description
        }
        switch record.content {
        case .bytes(let bytes): result[name] = SHA256Checksum.hex(bytes)
        case .null: result[name] = "NULL"
        case .unsupported(let reason), .refused(let reason): result[name] = reason
        }
      }
    }
  } catch {
    fail("\(error)")
  }
  return result
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else {
  fail(
    "usage: store-generator sqlite|directory PATH --records N | check --original A --expected B --current C"
  )
}
switch mode {
case "sqlite", "directory":
  guard arguments.count >= 2 else { fail("missing PATH") }
  let path = arguments[1]
  let records = Int(option("records", in: arguments) ?? "1000") ?? 1000
  let mixed = (option("mix", in: arguments) ?? "mixed") == "mixed"
  trapIndex = option("trap-at", in: arguments).flatMap { Int($0) }
  if mode == "sqlite" {
    makeSQLite(
      path, records: records, table: option("table", in: arguments) ?? "t",
      wal: arguments.contains("--wal"), mixed: mixed)
  } else {
    makeDirectory(path, records: records, mixed: mixed)
  }
case "sums":
  guard arguments.count >= 3 else { fail("usage: store-generator sums STORE OUT [--table T]") }
  let sums = checksums(
    arguments[1], table: option("table", in: arguments), keyFile: option("key-file", in: arguments))
  let text = sums.keys.sorted().map { "\($0)\t\(sums[$0] ?? "")\n" }.joined()
  do {
    try SafeFileWriter.write(text, to: arguments[2])
  } catch {
    fail("cannot write \(error)")
  }
case "check":
  guard let current = option("current", in: arguments) else { fail("check needs --current") }
  let table = option("table", in: arguments)
  /// A store's checksums, or the ones `sums` saved for it (`--original-sums`, `--expected-sums`).
  func load(_ name: String) -> [String: String] {
    if let path = option(name + "-sums", in: arguments) {
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fail("cannot read \(path)")
      }
      var sums: [String: String] = [:]
      for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t", maxSplits: 1)
        if parts.count == 2 { sums[String(parts[0])] = String(parts[1]) }
      }
      return sums
    }
    guard let store = option(name, in: arguments) else { fail("check needs --\(name)") }
    return checksums(store, table: table, keyFile: option("key-file", in: arguments))
  }
  let before = load("original")
  let after = load("expected")
  let now = checksums(current, table: table, keyFile: option("key-file", in: arguments))
  var problems: [String] = []
  if Set(before.keys) != Set(now.keys) {
    problems.append("the record set changed: \(before.count) records before, \(now.count) now")
  }
  var migrated = 0
  for (name, sum) in now {
    if sum == after[name] && sum != before[name] { migrated += 1 }
    if sum != before[name] && sum != after[name] {
      problems.append("\(name): neither the original bytes nor the verified new version")
    }
  }
  for problem in problems.prefix(20) { print("check: \(problem)") }
  print("check: \(now.count) records, \(migrated) migrated, \(problems.count) problems")
  exit(problems.isEmpty ? 0 : 1)
default:
  fail("unknown mode '\(mode)'")
}
