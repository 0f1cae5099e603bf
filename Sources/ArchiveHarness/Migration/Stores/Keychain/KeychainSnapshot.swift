import ArchiveFormat
import Foundation
import _ArchiveHarnessSystem

/// One Keychain item of a snapshot: what names it, who may read it, and its data.
///
/// ```swift
/// let item = KeychainItem(
///   itemClass: .genericPassword, service: "com.example.auth", account: "alice",
///   accessible: .afterFirstUnlockThisDeviceOnly, data: archiveBytes)
/// print(item.keyPath)  // genericPassword."com.example.auth".alice
/// ```
package struct KeychainItem: Sendable, Hashable {
  /// `kSecClass`.
  package var itemClass: KeychainItemClass
  /// `kSecAttrService`, or `kSecAttrServer` for an internet password; empty when the item has none.
  package var service: String
  /// `kSecAttrAccount`; empty when the item has none.
  package var account: String
  /// `kSecAttrAccessGroup`, when the snapshot recorded one.
  package var accessGroup: String?
  /// `kSecAttrAccessible`.
  package var accessible: KeychainAccessibility
  /// `kSecAttrSynchronizable`: whether iCloud Keychain syncs the item.
  package var synchronizable: Bool
  /// `kSecValueData`.
  package var data: [UInt8]

  /// Creates an item.
  package init(
    itemClass: KeychainItemClass, service: String, account: String, accessGroup: String? = nil,
    accessible: KeychainAccessibility, synchronizable: Bool = false, data: [UInt8]
  ) {
    self.itemClass = itemClass
    self.service = service
    self.account = account
    self.accessGroup = accessGroup
    self.accessible = accessible
    self.synchronizable = synchronizable
    self.data = data
  }

  /// What names the item as a record: `CLASS.SERVICE.ACCOUNT`, a key path of three keys.
  package var keyPath: PropertyListKeyPath {
    PropertyListKeyPath([.key(itemClass.rawValue), .key(service), .key(account)])
  }

  /// Class, service and account joined by dots as they are, with no quotes:
  /// `genericPassword.com.example.auth.alice`; a place may name the item so.
  package var dottedName: String {
    itemClass.rawValue + "." + service + "." + account
  }
}

/// A snapshot of Keychain items: the JSON file `keychain export` and
/// `KeychainSnapshotExporter` write, and the store `KeychainSnapshotStore` reads.
///
/// The format is `schemas/keychain-snapshot.schema.json` (the Keychain Snapshots article):
///
/// ```json
/// {"format": "archive-harness-keychain-snapshot", "version": 1, "items": [
///   {"class": "genericPassword", "service": "com.example.auth", "account": "alice",
///    "accessible": "afterFirstUnlock", "synchronizable": false, "data": "YnBsaXN0MDDU…"}]}
/// ```
///
/// Reading is strict and bounded: a member that is missing, unknown or of the wrong type, data
/// that is not base64, an unknown accessibility, or two items with the same class, service and
/// account is an error naming the file and the place (`items[3].accessible`).
///
/// ```swift
/// let snapshot = try KeychainSnapshot(parsing: bytes, file: "keychain.json")
/// let text = snapshot.encoded()  // the same items, written back
/// ```
package struct KeychainSnapshot: Sendable, Hashable {
  /// The value of the `format` member.
  package static let formatName = "archive-harness-keychain-snapshot"
  /// The only `version` written and read.
  package static let version = 1

  /// The items, in the file's order.
  package var items: [KeychainItem]

  /// Creates a snapshot of items.
  package init(items: [KeychainItem]) {
    self.items = items
  }

  /// Reads a snapshot's bytes.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - file: The file's name, for errors.
  /// - Throws: `MigrationError` (`not-a-store`) naming `file` and the byte offset or the
  ///   key path of the first problem.
  package init(parsing bytes: [UInt8], file: String) throws(MigrationError) {
    guard let text = String(bytes: bytes, encoding: .utf8) else {
      throw MigrationError(.notAStore, file: file, "the snapshot is not UTF-8 text")
    }
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: text)
    } catch {
      throw MigrationError(
        .notAStore, place: Place(file: file, position: .byteOffset(error.offset)),
        "the snapshot is not JSON: \(error.message)")
    }
    var reader = Reader(file: file)
    items = try reader.snapshot(document)
  }

  /// Reads a snapshot file: a regular file, never a link, FIFO or device.
  ///
  /// - Returns: The snapshot, the bytes read and the file's identity when it was read.
  static func load(_ path: String, maximumFileSize: Int) throws(MigrationError) -> (
    snapshot: KeychainSnapshot, bytes: [UInt8], identity: FileIdentity
  ) {
    let read = try DurableFile.readFile(path, limit: maximumFileSize)
    guard let bytes = read.bytes else {
      throw MigrationError(
        .limitExceeded, file: path,
        "the snapshot of \(read.size) bytes exceeds the limit of \(maximumFileSize) bytes")
    }
    return (try KeychainSnapshot(parsing: bytes, file: path), bytes, read.identity)
  }

  /// Whether a file is a snapshot by its first 4 KiB: a JSON object (after white space)
  /// that names the snapshot format, as the `format` member every snapshot opens with does.
  ///
  /// ```swift
  /// if KeychainSnapshot.looksLikeSnapshot(atPath: path) { … }
  /// ```
  package static func looksLikeSnapshot(atPath path: String) -> Bool {
    guard let prefix = try? DurableFile.readPrefix(path, count: 4096) else { return false }
    return looksLikeSnapshot(prefix)
  }

  /// Whether bytes are a snapshot by their first 4 KiB, as ``looksLikeSnapshot(atPath:)``
  /// tells a file.
  package static func looksLikeSnapshot(_ bytes: [UInt8]) -> Bool {
    let prefix = bytes.prefix(4096)
    guard prefix.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
    else { return false }
    let marker = Array("\"\(formatName)\"".utf8)
    return prefix.indices.contains { prefix[$0...].starts(with: marker) }
  }

  /// The snapshot as JSON text: members in a fixed order, one item a line, data in base64.
  package func encoded() -> [UInt8] {
    var text = "{\n  \"format\": \"\(Self.formatName)\",\n  \"version\": \(Self.version),\n"
    text += "  \"items\": ["
    for (index, item) in items.enumerated() {
      var members: [(String, JSONValue)] = [
        ("class", .string(item.itemClass.rawValue)), ("service", .string(item.service)),
        ("account", .string(item.account)),
      ]
      if let group = item.accessGroup { members.append(("accessGroup", .string(group))) }
      members += [
        ("accessible", .string(item.accessible.rawValue)),
        ("synchronizable", .bool(item.synchronizable)),
        ("data", .string(Data(item.data).base64EncodedString())),
      ]
      text += (index == 0 ? "\n    " : ",\n    ")
      text += JSONValue.object(members).render(sortedKeys: false, pretty: false)
    }
    text += items.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
    return Array(text.utf8)
  }

  /// Writes the snapshot to a new file by the project's one write rule: a temporary file beside
  /// it, synced, read back and compared, then renamed into place; nothing that exists at `path`
  /// (a file, a link, a FIFO, a device) is replaced.
  ///
  /// ```swift
  /// try snapshot.writeNew(to: "keychain.json")
  /// ```
  ///
  /// - Throws: `MigrationError` naming the path.
  package func writeNew(to path: String) throws(MigrationError) {
    guard DurableFile.entryType(of: path) == nil else {
      throw MigrationError(
        .writeFailed, file: path,
        "something already exists at the path; a snapshot is always written to a new file")
    }
    let temporary = try Self.writeVerified(encoded(), beside: path)
    guard DurableFile.entryType(of: path) == nil else {
      DurableFile.removeRegularFile(temporary)
      throw MigrationError(
        .writeFailed, file: path, "something was put at the path while the snapshot was written")
    }
    try DurableFile.moveIntoPlace(temporary, path)
    try DurableFile.syncDirectory(DurableFile.directory(of: path))
  }

  /// Writes bytes to a temporary file beside `path`, synced, and checks that they read back
  /// as written and as a snapshot; returns the temporary file's path.
  static func writeVerified(_ bytes: [UInt8], beside path: String) throws(MigrationError) -> String
  {
    let temporary = try DurableFile.writeTemporary(for: path, bytes: bytes, sync: true)
    do throws(MigrationError) {
      let back = try DurableFile.readFile(temporary, limit: bytes.count)
      guard back.bytes == bytes else {
        throw MigrationError(.writeFailed, file: path, "the new snapshot did not read back")
      }
      _ = try KeychainSnapshot(parsing: bytes, file: path)
    } catch {
      DurableFile.removeRegularFile(temporary)
      throw error
    }
    return temporary
  }
}

/// Reads a snapshot's JSON, keeping the key path of what it reads for its errors.
private struct Reader {
  let file: String

  func failure(_ path: String, _ message: String) -> MigrationError {
    MigrationError(.notAStore, place: Place(file: file, position: .keyPath(path)), message)
  }

  func object(_ value: JSONDocument, at path: String, members: Set<String>, required: Set<String>)
    throws(MigrationError) -> [String: JSONDocument]
  {
    guard case .object(let object) = value else {
      throw failure(path, "expected an object, found \(value.typeName)")
    }
    if let unknown = object.keys.filter({ !members.contains($0) }).sorted().first {
      throw failure(
        path.isEmpty ? unknown : "\(path).\(unknown)", "unknown member '\(unknown)'")
    }
    if let missing = required.subtracting(object.keys).sorted().first {
      throw failure(path.isEmpty ? "$" : path, "the member '\(missing)' is missing")
    }
    return object
  }

  func string(_ value: JSONDocument?, at path: String) throws(MigrationError) -> String {
    guard case .string(let text)? = value else {
      throw failure(path, "expected a string, found \(value?.typeName ?? "nothing")")
    }
    return text
  }

  mutating func snapshot(_ document: JSONDocument) throws(MigrationError) -> [KeychainItem] {
    let top = try object(
      document, at: "", members: ["format", "version", "items"],
      required: ["format", "version", "items"])
    let format = try string(top["format"], at: "format")
    guard format == KeychainSnapshot.formatName else {
      throw failure(
        "format", "'\(format)' is not a Keychain snapshot's format '\(KeychainSnapshot.formatName)'"
      )
    }
    guard top["version"] == .integer(Int64(KeychainSnapshot.version)) else {
      throw failure(
        "version",
        "\(top["version"]?.description ?? "nothing") is not a version this tool reads "
          + "(\(KeychainSnapshot.version))")
    }
    guard case .array(let elements)? = top["items"] else {
      throw failure("items", "expected an array, found \(top["items"]?.typeName ?? "nothing")")
    }
    var items: [KeychainItem] = []
    var seen: [PropertyListKeyPath: Int] = [:]
    for (index, element) in elements.enumerated() {
      let item = try self.item(element, at: "items[\(index)]")
      if let first = seen[item.keyPath] {
        throw failure(
          "items[\(index)]",
          "a second item with class \(item.itemClass), service '\(item.service)' and account "
            + "'\(item.account)' (the first is items[\(first)]); each item is one record")
      }
      seen[item.keyPath] = index
      items.append(item)
    }
    return items
  }

  private func item(_ value: JSONDocument, at path: String) throws(MigrationError) -> KeychainItem {
    let all: Set<String> = [
      "class", "service", "account", "accessGroup", "accessible", "synchronizable", "data",
    ]
    let members = try object(
      value, at: path, members: all, required: all.subtracting(["accessGroup"]))
    let className = try string(members["class"], at: "\(path).class")
    guard let itemClass = KeychainItemClass(rawValue: className) else {
      throw failure(
        "\(path).class",
        "unknown class '\(className)' (\(KeychainItemClass.allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    let accessibleName = try string(members["accessible"], at: "\(path).accessible")
    guard let accessible = KeychainAccessibility(rawValue: accessibleName) else {
      throw failure(
        "\(path).accessible",
        "unknown accessibility '\(accessibleName)' (\(KeychainAccessibility.allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    guard case .bool(let synchronizable)? = members["synchronizable"] else {
      throw failure(
        "\(path).synchronizable",
        "expected a boolean, found \(members["synchronizable"]?.typeName ?? "nothing")")
    }
    let encoded = try string(members["data"], at: "\(path).data")
    guard let data = Data(base64Encoded: encoded) else {
      throw failure("\(path).data", "the data is not base64 (RFC 4648, with padding)")
    }
    return KeychainItem(
      itemClass: itemClass, service: try string(members["service"], at: "\(path).service"),
      account: try string(members["account"], at: "\(path).account"),
      accessGroup: try members["accessGroup"].map { value throws(MigrationError) in
        try string(value, at: "\(path).accessGroup")
      },
      accessible: accessible, synchronizable: synchronizable, data: Array(data))
  }
}
