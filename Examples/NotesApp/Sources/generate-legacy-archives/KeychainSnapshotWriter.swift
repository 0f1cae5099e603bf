import Foundation
import NotesV1

/// Writes what `KeychainSnapshotExporter.export` gives on the test device that version 1.0
/// ran on: the sync session, archived by Foundation's `NSKeyedArchiver` from the version 1
/// class into its Keychain item, and the device identifier, an item whose data is no archive.
///
/// No personal data: the account is a test account, the token a placeholder the sync
/// service never issued.
enum KeychainSnapshotWriter {
  /// The snapshot's items as the snapshot format (`schemas/keychain-snapshot.schema.json` in
  /// ArchiveHarness) writes them.
  static func items() -> [[String: Any]] {
    let session = NotesV1.SyncSession(
      account: "sync-user-0001", token: "placeholder-token-0001",
      expires: Date(timeIntervalSince1970: 1_682_899_200))  // 2023-05-01T00:00:00Z
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(session, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return [
      [
        "class": "genericPassword", "service": "com.example.notes.sync", "account": "notes-sync",
        "accessible": "afterFirstUnlockThisDeviceOnly", "synchronizable": false,
        "data": archiver.encodedData.base64EncodedString(),
      ],
      [
        "class": "genericPassword", "service": "com.example.notes.device", "account": "device-id",
        "accessible": "alwaysThisDeviceOnly", "synchronizable": false,
        "data": Data("notes-device-0001".utf8).base64EncodedString(),
      ],
    ]
  }

  /// Writes the snapshot to a path, replacing what is there (the generator's own output).
  static func write(to path: String) throws {
    let snapshot: [String: Any] = [
      "format": "archive-harness-keychain-snapshot", "version": 1, "items": items(),
    ]
    let data = try JSONSerialization.data(
      withJSONObject: snapshot, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    print("\(path): \(items().count) Keychain items")
  }
}
