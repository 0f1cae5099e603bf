import ArchiveFormat
import Foundation

@testable import ArchiveHarness

/// Keychain snapshots the tests build: v1 profiles in generic passwords, a truncated archive in
/// an internet password, and bytes that are no archive.
enum KeychainFixtures {
  /// The items: two v1 profiles (one `always` accessible), a truncated archive, plain bytes.
  static func items() -> [KeychainItem] {
    [
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "alice",
        accessible: .afterFirstUnlockThisDeviceOnly, data: MigrationFixtures.profile(id: 1)),
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.legacy", account: "bob",
        accessible: .always, data: MigrationFixtures.profile(id: 2)),
      KeychainItem(
        itemClass: .internetPassword, service: "api.example.com", account: "token",
        accessGroup: "ABCDE12345.com.example.shared", accessible: .afterFirstUnlock,
        synchronizable: true, data: Array(MigrationFixtures.profile(id: 3).prefix(12))),
      KeychainItem(
        itemClass: .genericPassword, service: "com.example.auth", account: "device-id",
        accessible: .whenUnlockedThisDeviceOnly, data: Array("not an archive".utf8)),
    ]
  }

  /// Writes the snapshot of `items` (or the fixtures') to `FOLDER/keychain.json`; returns the path.
  static func write(in folder: String, items: [KeychainItem]? = nil) throws -> String {
    let path = folder + "/keychain.json"
    try Data(KeychainSnapshot(items: items ?? Self.items()).encoded())
      .write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Writes text as `FOLDER/NAME`; returns the path.
  static func write(_ text: String, as name: String = "bad.json", in folder: String) throws
    -> String
  {
    let path = folder + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// One item's JSON with a member replaced (or removed, with `nil`).
  static func itemJSON(_ changes: [String: String?] = [:]) -> String {
    var members: [(String, String)] = [
      ("class", "\"genericPassword\""), ("service", "\"com.example.auth\""),
      ("account", "\"alice\""), ("accessible", "\"afterFirstUnlock\""),
      ("synchronizable", "false"), ("data", "\"YnBsaXN0MDA=\""),
    ]
    for (name, value) in changes {
      if let index = members.firstIndex(where: { $0.0 == name }) {
        if let value { members[index].1 = value } else { members.remove(at: index) }
      } else if let value {
        members.append((name, value))
      }
    }
    return "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
  }

  /// A snapshot document around item texts.
  static func snapshotJSON(_ items: [String], version: String = "1") -> String {
    """
    {"format": "archive-harness-keychain-snapshot", "version": \(version),
     "items": [\(items.joined(separator: ",\n"))]}
    """
  }
}
