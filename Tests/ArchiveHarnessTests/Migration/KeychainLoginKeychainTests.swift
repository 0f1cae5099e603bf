#if os(macOS)
  import Foundation
  import Security
  import Testing

  @testable import ArchiveHarness

  /// The Security paths against the Mac's login keychain.
  ///
  /// Export, `SecItemUpdate` in place, and the rollback. Opt in with `ARCHIVE_HARNESS_KEYCHAIN_TESTS=1` (the Keychain may ask to allow
  /// access); the item the test adds is deleted at the end.
  @Suite(
    "Keychain snapshots against the login keychain (macOS, opt-in)",
    .enabled(if: ProcessInfo.processInfo.environment["ARCHIVE_HARNESS_KEYCHAIN_TESTS"] == "1"))
  struct KeychainLoginKeychainTests {
    private let service = "org.archive-harness.tests.\(UUID().uuidString)"

    private func add(_ data: [UInt8]) -> OSStatus {
      let attributes: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
        kSecAttrAccount as String: "alice", kSecValueData as String: Data(data),
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
      ]
      return SecItemAdd(attributes as CFDictionary, nil)
    }

    private func delete() {
      let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
      ]
      SecItemDelete(query as CFDictionary)
    }

    @Test("Export, migrate in place with SecItemUpdate, and roll back")
    func exportApplyRollBack() throws {
      let original = MigrationFixtures.profile(id: 1)
      #expect(add(original) == errSecSuccess)
      defer { delete() }
      let folder = try MigrationFixtures.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let path = folder + "/keychain.json"
      let count = try KeychainSnapshotExporter.export(
        services: [service], classes: [.genericPassword], accessGroup: nil, to: path)
      #expect(count == 1)
      let store = try KeychainSnapshotStore(path: path)
      #expect(store.snapshot.items.first?.accessible == .afterFirstUnlock)
      #expect(store.snapshot.items.first?.data == original)
      store.appliesToKeychain = true
      let writer = try store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
      let (summary, _) = try MigrationFixtures.run(store, writer: writer)
      try writer.finish(interrupted: false)
      #expect(summary.rewritten == 1)
      let item = try #require(store.snapshot.items.first)
      let migrated = try #require(try keychainData(for: item))
      #expect(migrated != original)
      let rolled = try MigrationRollback.run(journalPath: try #require(writer.journalPath)) {
        _, _ in
      }
      #expect(rolled.restored == 1)
      #expect(try keychainData(for: item) == original)
    }
  }
#endif
