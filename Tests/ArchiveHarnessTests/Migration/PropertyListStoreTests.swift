import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Preferences files built in the tests: archives as `Data` values at several depths, beside values
/// that are not records.
enum PrefsFixtures {
  /// A `Data` value that is no property list.
  static let notArchive: [UInt8] = Array("just bytes, not an archive".utf8)
  /// A `Data` value that is a property list but no keyed archive.
  static let plainList = BinaryPropertyListWriter().write(.array([.string("not keyed")]))

  /// A preferences tree whose keys are in no sorted order; `fractionalDate` only for binary
  /// files (XML keeps whole seconds).
  static func tree(fractionalDate: Bool = true) -> PropertyListValue {
    .dictionary([
      "zeta": .integer(7),
      "profile": .dictionary([
        "name": .string("Ada"), "current": .data(MigrationFixtures.profile(id: 1)),
      ]),
      "recent": .array([
        .data(notArchive),
        .data(MigrationFixtures.profile(id: 2)),
        .data(Array(MigrationFixtures.profile(id: 3).prefix(12))),
        .dictionary(["deep": .array([.data(MigrationFixtures.profile(id: 4))])]),
      ]),
      "current": .data(MigrationFixtures.profile(module: "ProfileKit", id: 5)),
      "a.b": .dictionary(["x[1]": .data(MigrationFixtures.profile(id: 6))]),
      "alpha": .bool(true),
      "when": .date(fractionalDate ? 700_000_000.25 : 700_000_000),
      "ratio": .real(0.1),
      "plain": .data(plainList),
      "archiveText": .string(String(decoding: MigrationFixtures.profile(id: 7), as: UTF8.self)),
    ])
  }

  /// The key paths of the values a rename-only migration rewrites.
  static let rewritten = ["profile.current", "recent[1]", "recent[3].deep[0]", "\"a.b\".\"x[1]\""]

  /// The bytes of a tree in a format.
  static func bytes(_ tree: PropertyListValue, _ format: PropertyListFormat) -> [UInt8] {
    format == .binary
      ? BinaryPropertyListWriter().write(tree) : Array(XMLPropertyListWriter().write(tree).utf8)
  }

  /// Writes a preferences file; returns its path.
  static func write(
    _ format: PropertyListFormat, in folder: String, tree: PropertyListValue? = nil
  ) throws -> String {
    let path = folder + "/com.example.app.plist"
    let value = tree ?? Self.tree(fractionalDate: format == .binary)
    try Data(bytes(value, format)).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A file's bytes.
  static func contents(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// A file's tree and format, read by the project's reader.
  static func read(_ path: String) throws -> (value: PropertyListValue, format: PropertyListFormat)
  {
    try PropertyListReader().readWithFormat(try contents(path))
  }

  /// Whether bytes are a keyed archive of the renamed `ProfileKit.UserProfile`.
  static func isMigratedProfile(_ value: PropertyListValue?) -> Bool {
    guard case .data(let bytes)? = value, let archive = try? KeyedArchive(bytes: bytes) else {
      return false
    }
    return archive.objects.contains { object in
      if case .classDescription(let description) = object {
        return description.name == "ProfileKit.UserProfile"
      }
      return false
    }
  }

  /// A key path from its text form.
  static func keyPath(_ text: String) throws -> PropertyListKeyPath {
    try #require(PropertyListKeyPath(parsing: text))
  }
}

@Suite("Property-list stores: dry run, migrate, rollback")
struct PropertyListStoreTests {
  private func migrate(
    _ path: String, backup: String?, batchSize: Int = 3,
    transform: any RecordTransform = RenameOnlyTransform(mapping: MigrationFixtures.mapping)
  ) throws -> (
    summary: MigrationSummary, plans: [String: RecordPlan.Outcome], writer: any RecordWriter
  ) {
    let store = try PropertyListStore(path: path)
    let writer = store.makeWriter(runDirectory: backup, journalPath: nil)
    let result = try MigrationFixtures.run(
      store, transform: transform, writer: writer, batchSize: batchSize)
    return (result.summary, result.plans, writer)
  }

  /// Checks that `after` is `before` with only the rewritten values changed, each to a migrated
  /// archive: every other value, the order of every dictionary's keys, and the format kept.
  private func expectOnlyRecordsChanged(
    before: PropertyListValue, after: PropertyListValue,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var expected = before
    for text in PrefsFixtures.rewritten {
      let keyPath = try PrefsFixtures.keyPath(text)
      let new = after.value(at: keyPath)
      #expect(
        PrefsFixtures.isMigratedProfile(new), "\(text) was not migrated",
        sourceLocation: sourceLocation)
      #expect(new != before.value(at: keyPath), sourceLocation: sourceLocation)
      if let new {
        let replaced = expected.replace(at: keyPath, with: new)
        #expect(replaced)
      }
    }
    #expect(after == expected, "a value other than the records changed, or the key order")
    #expect(
      PropertyListFile.firstDifference(expected, after) == nil, sourceLocation: sourceLocation)
  }

  @Test("A dry run of a binary preferences file plans each Data value by key path")
  func dryRunPlansByKeyPath() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let store = try PropertyListStore(path: path)
    #expect(store.format == .binary)
    #expect(store.recordCount() == 8, "every Data value, and only those")
    let result = try MigrationFixtures.run(store)
    for text in PrefsFixtures.rewritten {
      guard case .willRewrite? = result.plans["\(path):\(text)"] else {
        Issue.record("\(text): \(String(describing: result.plans["\(path):\(text)"]))")
        continue
      }
    }
    #expect(result.plans["\(path):current"] == .alreadyCurrent)
    #expect(
      result.plans["\(path):recent[0]"]
        == .skipped("not an archive: not a binary or XML property list"))
    guard case .skipped? = result.plans["\(path):plain"] else {
      Issue.record("a property list that is no keyed archive is not skipped")
      return
    }
    guard case .refused(let refusal)? = result.plans["\(path):recent[2]"] else {
      Issue.record("the truncated archive is not refused")
      return
    }
    #expect(refusal.step == .read)
    #expect(result.summary.total == 8)
    #expect(result.plans["\(path):archiveText"] == nil, "a string is never a record")
  }

  @Test(
    "A dry run changes no byte of a binary or an XML preferences file",
    arguments: [
      PropertyListFormat.binary, .xml,
    ])
  func dryRunChangesNoByte(format: PropertyListFormat) throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(format, in: folder)
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let result = try MigrationFixtures.run(try PropertyListStore(path: path))
    #expect(result.summary.willRewrite == 4)
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test(
    "Migrate keeps the format, the key order and every other value, re-read whole",
    arguments: [PropertyListFormat.binary, .xml])
  func migrateKeepsFormatOrderAndValues(format: PropertyListFormat) throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(format, in: folder)
    let before = try PrefsFixtures.read(path)
    let result = try migrate(path, backup: folder + "/backup/run")
    #expect(result.summary.rewritten == 4)
    #expect(result.summary.refused == 1)
    let after = try PrefsFixtures.read(path)
    #expect(after.format == format)
    #expect(
      try PrefsFixtures.contents(path).starts(with: Array("bplist00".utf8)) == (format == .binary))
    try expectOnlyRecordsChanged(before: before.value, after: after.value)
    #expect(after.value.dictionaryValue?.keys == before.value.dictionaryValue?.keys)
    #expect(
      !FileManager.default.fileExists(atPath: PropertyListFile.temporaryPath(for: path)),
      "no temporary file is left behind")
  }

  @Test("Migrate leaves a refused record and the Data values that are no archives untouched")
  func refusedRecordUntouched() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let before = try PrefsFixtures.read(path).value
    _ = try migrate(path, backup: nil)
    let after = try PrefsFixtures.read(path).value
    for text in ["recent[2]", "recent[0]", "plain", "current", "archiveText"] {
      let keyPath = try PrefsFixtures.keyPath(text)
      #expect(after.value(at: keyPath) == before.value(at: keyPath), "\(text) changed")
    }
  }

  @Test("Migrate copies the original file byte for byte and journals each value by key path")
  func backupAndJournal() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let original = try PrefsFixtures.contents(path)
    let result = try migrate(path, backup: folder + "/backup/run")
    let backup = try #require(result.writer.backupPath)
    #expect(backup == folder + "/backup/run/com.example.app.plist")
    #expect(try PrefsFixtures.contents(backup) == original)
    let journal = try MigrationJournal.read(try #require(result.writer.journalPath))
    #expect(journal.header["kind"] == .string("plist"))
    #expect(journal.header["format"] == .string("binary"))
    let keyPaths = journal.entries.filter { $0["op"] == .string("replace") }.compactMap {
      MigrationJournal.keyPath($0["keyPath"])?.description
    }
    #expect(keyPaths == PrefsFixtures.rewritten)
  }

  @Test("A run of one-record batches rewrites the file per batch and ends the same")
  func oneRecordBatches() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let before = try PrefsFixtures.read(path).value
    let result = try migrate(path, backup: folder + "/backup/run", batchSize: 1)
    #expect(result.summary.rewritten == 4)
    try expectOnlyRecordsChanged(before: before, after: try PrefsFixtures.read(path).value)
  }

  @Test("Re-running migrate after it finished changes no byte and writes no journal")
  func rerunIsNoOp() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.xml, in: folder)
    _ = try migrate(path, backup: folder + "/backup/one")
    let migrated = try PrefsFixtures.contents(path)
    let again = try migrate(path, backup: folder + "/backup/two")
    #expect(again.summary.rewritten == 0)
    #expect(again.summary.alreadyCurrent == 5)
    #expect(again.writer.journalPath == nil)
    #expect(!FileManager.default.fileExists(atPath: folder + "/backup/two"))
    #expect(try PrefsFixtures.contents(path) == migrated)
  }

  @Test(
    "Rollback restores every value, and so the file's bytes, binary and XML",
    arguments: [
      PropertyListFormat.binary, .xml,
    ])
  func rollbackRestores(format: PropertyListFormat) throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(format, in: folder)
    let original = try PrefsFixtures.contents(path)
    let result = try migrate(path, backup: folder + "/backup/run")
    let journal = try #require(result.writer.journalPath)
    var outcomes: [String: MigrationRollback.Outcome] = [:]
    let summary = try MigrationRollback.run(journalPath: journal) { outcomes[$0] = $1 }
    #expect(summary.restored == 4)
    #expect(summary.conflicts == 0)
    #expect(outcomes["\(DurableFile.canonical(path)):recent[3].deep[0]"] == .restored)
    // The fixture was written by the project's deterministic writers, so equal trees are equal bytes.
    #expect(try PrefsFixtures.contents(path) == original)
    #expect(
      FileManager.default.fileExists(
        atPath: folder + "/backup/run/rolled-back/com.example.app.plist"))
    let again = try MigrationRollback.run(journalPath: journal) { _, _ in }
    #expect(again.alreadyOriginal == 4)
    #expect(try PrefsFixtures.contents(path) == original)
  }

  @Test("Rollback leaves a value changed after the migration alone and reports a conflict")
  func rollbackConflict() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let result = try migrate(path, backup: folder + "/backup/run")
    var edited = try PrefsFixtures.read(path).value
    let replaced = edited.replace(
      at: try PrefsFixtures.keyPath("recent[1]"), with: .data([1, 2, 3]))
    #expect(replaced)
    try Data(PrefsFixtures.bytes(edited, .binary)).write(to: URL(fileURLWithPath: path))
    let summary = try MigrationRollback.run(journalPath: try #require(result.writer.journalPath)) {
      _, _ in
    }
    #expect(summary.conflicts == 1)
    #expect(summary.restored == 3)
    let after = try PrefsFixtures.read(path).value
    #expect(after.value(at: try PrefsFixtures.keyPath("recent[1]")) == .data([1, 2, 3]))
    #expect(
      after.value(at: try PrefsFixtures.keyPath("profile.current"))
        == .data(MigrationFixtures.profile(id: 1)))
  }

  @Test("A value changed between its read and the write keeps the newer bytes, refused at write")
  func concurrentChangeKeptAndRefused() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    var changed = try PrefsFixtures.read(path).value
    let newer = MigrationFixtures.profile(id: 999)
    let replaced = changed.replace(
      at: try PrefsFixtures.keyPath("profile.current"), with: .data(newer))
    #expect(replaced)
    let transform = ConcurrentFileWriterTransform(
      inner: RenameOnlyTransform(mapping: MigrationFixtures.mapping),
      path: "\(path):profile.current", file: path,
      newValue: PrefsFixtures.bytes(changed, .binary))
    let result = try migrate(path, backup: nil, transform: transform)
    guard case .refused(let refusal)? = result.plans["\(path):profile.current"] else {
      Issue.record("the concurrently changed value was not refused")
      return
    }
    #expect(refusal.step == .write)
    #expect(result.summary.rewritten == 3)
    let after = try PrefsFixtures.read(path).value
    #expect(after.value(at: try PrefsFixtures.keyPath("profile.current")) == .data(newer))
    #expect(
      PrefsFixtures.isMigratedProfile(after.value(at: try PrefsFixtures.keyPath("recent[1]"))))
  }

  @Test("A manifest's accepted refusal names a value by its key path")
  func acceptedByKeyPath() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let accepted = AcceptedRefusal(
      key: "recent[2]", category: .truncated, reason: "written by 1.0's crash",
      place: Place(file: "m.xml", line: 1, column: 1))
    let result = try MigrationFixtures.run(try PropertyListStore(path: path), accepted: [accepted])
    guard case .accepted? = result.plans["\(path):recent[2]"] else {
      Issue.record(
        "recent[2] is not accepted: \(String(describing: result.plans["\(path):recent[2]"]))")
      return
    }
    #expect(result.summary.acceptedNoLongerRefused.isEmpty)
  }

  @Test("The JSON plan names each value by keyPath and follows its schema")
  func jsonPlanFollowsSchema() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let collected = CollectedText()
    let report = MigrationReportWriter(format: .json, sink: collected.append)
    report.begin(store: path, mode: "rename-only", operation: .dryRun)
    let engine = MigrationEngine(
      store: try PropertyListStore(path: path),
      migrator: RecordMigrator(transform: RenameOnlyTransform(mapping: MigrationFixtures.mapping)),
      writer: nil)
    let summary = try engine.run(onRecord: report.record)
    report.finish(summary, notes: [("store", "unchanged (dry run)")])
    let violations = try JSONSchemas.violations(of: collected.text, against: .migrationPlan)
    #expect(violations.isEmpty, "\(violations)")
    let plan = try JSONDocument(parsing: collected.text)
    guard case .array(let records)? = plan["records"] else {
      Issue.record("the plan has no records")
      return
    }
    #expect(records.contains { $0["keyPath"] == .string("\"a.b\".\"x[1]\"") })
  }

  @Test("Migrate removes the temporary file an interrupted run left beside the store")
  func staleTemporaryFileRemoved() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let stale = PropertyListFile.temporaryPath(for: path)
    #expect(FileManager.default.createFile(atPath: stale, contents: Data([1, 2, 3])))
    #expect(try PropertyListStore(path: path).removeStaleTemporaryFiles() == [stale])
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(try PropertyListStore(path: path).removeStaleTemporaryFiles().isEmpty)
  }
}

@Suite("Property-list stores: refusals")
struct PropertyListStoreRefusalTests {
  /// Opens a store that must not open; returns the error.
  private func openError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation)
    -> MigrationError?
  {
    do {
      let store = try PropertyListStore(path: path)
      Issue.record("opened \(store.path)", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  @Test("A property list that is itself a keyed archive is not a store")
  func archiveIsNotAStore() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/profile.plist"
    try Data(MigrationFixtures.profile()).write(to: URL(fileURLWithPath: path))
    let error = try #require(openError(path))
    #expect(error.code == .notAStore)
    #expect(error.place == Place(file: path))
    #expect(error.message.contains("pass the folder that holds it"))
    #expect(error.message.contains("inspect \(path)"))
  }

  @Test("A symbolic link as the store is refused, and what it leads to is not read or written")
  func symbolicLinkStoreRefused() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let target = try PrefsFixtures.write(.binary, in: folder)
    let link = folder + "/link.plist"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let error = try #require(openError(link))
    #expect(error.code == .symbolicLink)
    #expect(error.message.contains("pass the file it leads to"))
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test("A store replaced by a symbolic link after it was read is refused at the write step")
  func storeBecomesLinkBeforeWrite() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let store = try PropertyListStore(path: path)
    let elsewhere = folder + "/elsewhere.plist"
    try FileManager.default.moveItem(atPath: path, toPath: elsewhere)
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere)
    let before = try PrefsFixtures.contents(elsewhere)
    let result = try MigrationFixtures.run(
      store, writer: store.makeWriter(runDirectory: folder + "/backup", journalPath: nil))
    #expect(result.summary.rewritten == 0)
    guard case .refused(let refusal)? = result.plans["\(path):profile.current"] else {
      Issue.record("the value was not refused")
      return
    }
    #expect(refusal.step == .write)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == elsewhere)
    #expect(try PrefsFixtures.contents(elsewhere) == before)
  }

  @Test("A truncated binary preferences file is an error naming the file and the byte offset")
  func malformedBinaryNamesOffset() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try PrefsFixtures.write(.binary, in: folder)
    let bytes = try PrefsFixtures.contents(path)
    try Data(bytes.prefix(bytes.count - 5)).write(to: URL(fileURLWithPath: path))
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let error = try #require(openError(path))
    #expect(error.place.file == path)
    #expect(error.place.description.hasPrefix("\(path):offset "))
    #expect(error.message.hasPrefix("the property list does not read: "))
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test("A malformed XML preferences file is an error naming the file, line and column")
  func malformedXMLNamesLineColumn() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/prefs.plist"
    let text =
      "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<data>@@@</data>\n</dict>\n</plist>\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let error = try #require(openError(path))
    #expect(error.place == Place(file: path, line: 5, column: 2))
    #expect(error.code.name == "invalid-xml")
  }

  @Test("A dictionary that holds a key twice is refused: a rewrite would drop one of its values")
  func repeatedKeyRefused() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/prefs.plist"
    let text = """
      <?xml version="1.0"?>
      <plist version="1.0">
      <dict>
      \t<key>profile</key>
      \t<data>\(Data(MigrationFixtures.profile()).base64EncodedString())</data>
      \t<key>profile</key>
      \t<string>the app's newer value</string>
      </dict>
      </plist>

      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let error = try #require(openError(path))
    #expect(error.code.name == "repeated-key")
    #expect(error.place == Place(file: path, line: 6, column: 2))
  }

  @Test("A property list whose root is no dictionary or array is not a store")
  func scalarRootRefused() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/prefs.plist"
    try Data(BinaryPropertyListWriter().write(.data(MigrationFixtures.profile()))).write(
      to: URL(fileURLWithPath: path))
    let error = try #require(openError(path))
    #expect(error.code == .notAStore)
    #expect(error.message.contains("root is a data"))
  }

  @Test("A missing store file is an error naming it")
  func missingFile() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let error = try #require(openError(folder + "/none.plist"))
    #expect(error.code == .storeNotFound)
  }
}

@Suite("Property-list key paths")
struct PropertyListKeyPathTests {
  @Test(
    "The text form puts dots between keys, [N] for indexes, and quotes keys that need it",
    arguments: [
      ([PropertyListKeyPath.Component.key("profile"), .key("current")], "profile.current"),
      ([.key("recent"), .index(2)], "recent[2]"),
      ([.index(0), .key("name")], "[0].name"),
      ([.key("NSWindow Frame main")], "NSWindow Frame main"),
      ([.key("a.b"), .key("x[1]")], "\"a.b\".\"x[1]\""),
      ([.key(""), .index(10)], "\"\"[10]"),
      ([.key("say \"hi\"\\")], "\"say \\\"hi\\\"\\\\\""),
      ([.key("line\nbreak\t\u{1B}")], "\"line\\nbreak\\t\\u{1B}\""),
      ([.key("café"), .key("日本")], "café.日本"),
      ([], ""),
    ])
  func textForm(components: [PropertyListKeyPath.Component], text: String) throws {
    let keyPath = PropertyListKeyPath(components)
    #expect(keyPath.description == text)
    #expect(PropertyListKeyPath(parsing: text) == keyPath)
  }

  @Test(
    "Text that names no key path does not parse",
    arguments: [
      "a..b", "a.", ".a", "[01]", "[-1]", "a[", "a[1", "\"open", "a\"b", "\"a\\q\"", "a]",
    ])
  func malformedText(text: String) {
    #expect(PropertyListKeyPath(parsing: text) == nil)
  }

  @Test("A record's name is the file, a colon and the key path")
  func recordDescription() {
    let id = RecordID.propertyListValue(
      file: "Preferences/com.example.app.plist",
      keyPath: PropertyListKeyPath([.key("recent"), .index(2)]))
    #expect(id.description == "Preferences/com.example.app.plist:recent[2]")
    #expect(id.acceptanceKey == "recent[2]")
  }
}
