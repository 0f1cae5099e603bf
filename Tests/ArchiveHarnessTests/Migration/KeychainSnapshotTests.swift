import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// The Keychain snapshot format: what it writes, that it follows its schema, and that every
/// bad input is an error naming the file and the place, with nothing written.
@Suite("Keychain snapshots: the format")
struct KeychainSnapshotTests {
  private static let schema = Corpus.packageRoot.appendingPathComponent(
    "schemas/keychain-snapshot.schema.json"
  ).path

  /// The error reading `text` as a snapshot file gives, and the folder it was in.
  private func failure(_ text: String, _ name: String = #function) throws -> (
    error: MigrationError, path: String
  ) {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(text, in: folder)
    let error = try #require(throws: MigrationError.self) {
      _ = try KeychainSnapshotStore(path: path)
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(left == ["bad.json"], "reading a bad snapshot writes nothing")
    return (error, path)
  }

  @Test("A written snapshot follows the JSON schema and reads back as the same items")
  func roundTripAndSchema() throws {
    let snapshot = KeychainSnapshot(items: KeychainFixtures.items())
    let text = String(decoding: snapshot.encoded(), as: UTF8.self)
    let violations = try JSONSchemas.violations(of: text, againstSchemaAt: Self.schema)
    #expect(violations.isEmpty, "\(violations)")
    #expect(try KeychainSnapshot(parsing: snapshot.encoded(), file: "k.json") == snapshot)
    let empty = String(decoding: KeychainSnapshot(items: []).encoded(), as: UTF8.self)
    #expect(try JSONSchemas.violations(of: empty, againstSchemaAt: Self.schema).isEmpty)
  }

  @Test("The schema refuses what the reader refuses: an unknown accessibility, bad base64")
  func schemaRefusesBadItems() throws {
    let unknown = KeychainFixtures.snapshotJSON([
      KeychainFixtures.itemJSON(["accessible": "\"sometimes\""])
    ])
    #expect(try !JSONSchemas.violations(of: unknown, againstSchemaAt: Self.schema).isEmpty)
    let badData = KeychainFixtures.snapshotJSON([KeychainFixtures.itemJSON(["data": "\"%%%\""])])
    #expect(try !JSONSchemas.violations(of: badData, againstSchemaAt: Self.schema).isEmpty)
  }

  @Test("Malformed JSON is an error naming the file and the byte offset")
  func malformedJSON() throws {
    let (error, path) = try failure(#"{"format": "archive-harness-keychain-snapshot", "items": [}"#)
    #expect(error.code == .notAStore)
    #expect(error.place.file == path)
    #expect(error.place.position == .byteOffset(58), "\(error)")
    #expect(error.message.contains("not JSON"))
  }

  @Test("Data that is not base64 is an error naming the item's data")
  func badBase64() throws {
    let (error, path) = try failure(
      KeychainFixtures.snapshotJSON([
        KeychainFixtures.itemJSON(),
        KeychainFixtures.itemJSON(["account": "\"bob\"", "data": "\"Y@==\""]),
      ]))
    #expect(error.place == Place(file: path, position: .keyPath("items[1].data")), "\(error)")
    #expect(error.message.contains("not base64"))
  }

  @Test("An unknown accessibility is an error naming the item's accessible")
  func unknownAccessibility() throws {
    let (error, path) = try failure(
      KeychainFixtures.snapshotJSON([
        KeychainFixtures.itemJSON(["accessible": "\"kSecAttrAccessibleAlways\""])
      ]))
    #expect(error.place == Place(file: path, position: .keyPath("items[0].accessible")))
    #expect(error.message.contains("unknown accessibility 'kSecAttrAccessibleAlways'"))
  }

  @Test("Two items with the same class, service and account are an error naming both")
  func duplicateItemKey() throws {
    let (error, path) = try failure(
      KeychainFixtures.snapshotJSON([
        KeychainFixtures.itemJSON(), KeychainFixtures.itemJSON(["accessible": "\"always\""]),
      ]))
    #expect(error.place == Place(file: path, position: .keyPath("items[1]")))
    #expect(error.message.contains("the first is items[0]"), "\(error)")
  }

  @Test("An unknown class is an error naming the item's class")
  func unknownClass() throws {
    let (error, path) = try failure(
      KeychainFixtures.snapshotJSON([KeychainFixtures.itemJSON(["class": "\"certificate\""])]))
    #expect(error.place == Place(file: path, position: .keyPath("items[0].class")))
  }

  @Test("A missing member is an error naming the item")
  func missingMember() throws {
    let (error, path) = try failure(
      KeychainFixtures.snapshotJSON([KeychainFixtures.itemJSON(["synchronizable": nil])]))
    #expect(error.place == Place(file: path, position: .keyPath("items[0]")))
    #expect(error.message.contains("'synchronizable' is missing"))
  }

  @Test("An unknown member is an error naming its key path")
  func unknownMember() throws {
    let (error, path) = try failure(
      KeychainFixtures.snapshotJSON([KeychainFixtures.itemJSON(["label": "\"x\""])]))
    #expect(error.place == Place(file: path, position: .keyPath("items[0].label")))
  }

  @Test("A member of the wrong type is an error naming its key path")
  func wrongType() throws {
    let (error, path) = try failure(
      KeychainFixtures.snapshotJSON([KeychainFixtures.itemJSON(["synchronizable": "1"])]))
    #expect(error.place == Place(file: path, position: .keyPath("items[0].synchronizable")))
    #expect(error.message.contains("expected a boolean, found number"))
  }

  @Test("Another format or version is an error naming it")
  func wrongFormatOrVersion() throws {
    let (version, path) = try failure(KeychainFixtures.snapshotJSON([], version: "2"))
    #expect(version.place == Place(file: path, position: .keyPath("version")))
    let (fractional, _) = try failure(KeychainFixtures.snapshotJSON([], version: "1.5"))
    #expect(fractional.place.position == .keyPath("version"))
    let (format, _) = try failure(#"{"format": "other", "version": 1, "items": []}"#)
    #expect(format.place.position == .keyPath("format"))
  }

  @Test("Text that is not UTF-8 is an error naming the file")
  func notUTF8() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/bad.json"
    try Data([0x7B, 0xFF, 0x7D]).write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: MigrationError.self) {
      _ = try KeychainSnapshotStore(path: path)
    }
    #expect(error.place == Place(file: path))
  }

  @Test("A snapshot nested deeper than the reader's limit is an error, not a crash")
  func deepNesting() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let (error, _) = try failure(
      #"{"format": "archive-harness-keychain-snapshot", "version": 1, "items": "#
        + deep + "}")
    #expect(error.message.contains("nesting deeper"), "\(error)")
  }

  @Test("A symbolic link given as the snapshot is refused, not followed")
  func symbolicLinkStore() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try KeychainFixtures.write(in: folder)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/link.json", withDestinationPath: path)
    let error = try #require(throws: MigrationError.self) {
      _ = try KeychainSnapshotStore(path: folder + "/link.json")
    }
    #expect(error.place.file == folder + "/link.json")
    #expect(error.message.contains("symbolic link"))
  }

  @Test("writeNew never replaces what exists at its path, a link included")
  func writeNewRefusesExisting() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let snapshot = KeychainSnapshot(items: KeychainFixtures.items())
    try snapshot.writeNew(to: folder + "/new.json")
    #expect(try KeychainSnapshotStore(path: folder + "/new.json").snapshot == snapshot)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/link.json", withDestinationPath: folder + "/elsewhere.json")
    let error = try #require(throws: MigrationError.self) {
      try snapshot.writeNew(to: folder + "/link.json")
    }
    #expect(error.place.file == folder + "/link.json")
    #expect(!FileManager.default.fileExists(atPath: folder + "/elsewhere.json"))
  }
}
