// generate-legacy-archives: writes the archives version 1.0 of the Notes app left on a test
// device, personal data included, with Foundation's own NSKeyedArchiver and the version 1
// classes; makes the damaged archives from anonymized ones; and builds SQLite stores of
// version 1 records for migration.
//
//   swift run generate-legacy-archives [--output DIR]          (default: RawArchives, never committed)
//   swift run generate-legacy-archives damaged DIR [--update-manifest FILE --archives ROOT]
//   swift run generate-legacy-archives store PATH [--records N] [--table T]
//   swift run generate-legacy-archives keychain PATH               (the device's Keychain snapshot)
//
// scripts/record-archives runs the first two around `notes-harness anonymize`. Foundation
// writes an object's keys in hash order; the generator runs itself again with
// SWIFT_DETERMINISTIC_HASHING=1 so that a regenerated archive has the same bytes.

import ArchiveHarness
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func log(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

func option(_ name: String, in arguments: [String]) -> String? {
  guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else {
    return nil
  }
  return arguments[index + 1]
}

func writeRawArchives(to directory: String) throws {
  let folder = "\(directory)/\(LegacyArchiveSet.folder)"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  for file in try LegacyArchiveSet.rawFiles(log: log) {
    let path = "\(folder)/\(file.name)"
    try Data(file.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    print("\(path): \(file.bytes.count) bytes")
  }
}

/// Writes the damaged archives beside the anonymized `note-full.archive` in `folder`, and
/// pins them in the manifest with the harness's own checksum update.
func writeDamagedArchives(in folder: String, arguments: [String]) throws {
  guard let full = FileManager.default.contents(atPath: "\(folder)/note-full.archive") else {
    throw GeneratorError("cannot read \(folder)/note-full.archive")
  }
  var checksums: [String: String] = [:]
  let archives = option("archives", in: arguments) ?? "."
  for file in try LegacyArchiveSet.damagedFiles(from: [UInt8](full)) {
    let path = "\(folder)/\(file.name)"
    try Data(file.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    print("\(path): \(file.bytes.count) bytes")
    if let relative = ManifestAuthor.relativePath(of: path, archivesDirectory: archives) {
      checksums[relative] = SHA256Checksum.hash(file.bytes).hexadecimal
    }
  }
  guard let manifest = option("update-manifest", in: arguments) else { return }
  guard let text = FileManager.default.contents(atPath: manifest) else {
    throw GeneratorError("cannot read \(manifest)")
  }
  let update = ManifestAuthor().updateChecksums(
    existingText: String(decoding: text, as: UTF8.self), file: manifest, checksums: checksums)
  guard !update.text.isEmpty, update.unlisted.isEmpty else {
    throw GeneratorError(
      "\(manifest): cannot pin \(update.unlisted.isEmpty ? "the archives" : "\(update.unlisted)")")
  }
  try Data(update.text.utf8).write(to: URL(fileURLWithPath: manifest), options: .atomic)
  print("\(manifest): \(update.updated.count) sha256 updated, \(update.unchanged.count) unchanged")
}

func writeStore(at path: String, arguments: [String]) throws {
  let text = option("records", in: arguments) ?? "100"
  guard let records = Int(text), records > 0, records <= 1_000_000 else {
    throw GeneratorError("--records must be from 1 to 1000000, not '\(text)'")
  }
  let table = option("table", in: arguments) ?? "notes"
  try StoreWriter(path: path, table: table).write(LegacyArchiveSet.storeRows(count: records))
  print("\(path): table \(table), \(records) records")
}

let arguments = Array(CommandLine.arguments.dropFirst())
if ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil {
  setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
  let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  execv(executable, argv)
  log("generate-legacy-archives: cannot run itself again with deterministic hashing")
  exit(2)
}
do {
  if arguments.first == "store" {
    guard arguments.count >= 2 else { throw GeneratorError("usage: store PATH [--records N]") }
    try writeStore(at: arguments[1], arguments: arguments)
  } else if arguments.first == "keychain" {
    guard arguments.count >= 2 else { throw GeneratorError("usage: keychain PATH") }
    try KeychainSnapshotWriter.write(to: arguments[1])
  } else if arguments.first == "damaged" {
    guard arguments.count >= 2 else {
      throw GeneratorError("usage: damaged DIR [--update-manifest FILE --archives ROOT]")
    }
    try writeDamagedArchives(in: arguments[1], arguments: arguments)
  } else {
    try writeRawArchives(to: option("output", in: arguments) ?? "RawArchives")
  }
} catch {
  log("generate-legacy-archives: \(error)")
  exit(2)
}
