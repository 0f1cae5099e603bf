import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

@Suite("migrate and --rollback refuse a store another run is writing")
struct StoreLockCommandTests {

  @Test("A second migrate of a store refuses with store-busy, exits 2 and changes nothing")
  func secondMigrateRefuses() throws {
    let folder = try StoreFixtures.scratchProfileStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = try StoreFixtures.checksums(ofFolder: folder + "/store")
    let lock = try StoreLock(store: folder + "/store")
    defer { lock.release() }
    let result = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", StoreFixtures.manifest, "--backup",
      folder + "/backup",
    ])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("[store-busy]"))
    #expect(result.stderr.contains("another archive-harness migrate or rollback"))
    #expect(try StoreFixtures.checksums(ofFolder: folder + "/store") == before)
    #expect(!FileManager.default.fileExists(atPath: folder + "/backup"))
  }

  @Test("A rollback of a store another run is writing refuses with store-busy and exits 2")
  func rollbackRefusesWhileLocked() throws {
    let folder = try StoreFixtures.scratchProfileStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let first = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", StoreFixtures.manifest, "--backup",
      folder + "/backup",
    ])
    let journalLine = try #require(
      first.stdout.split(separator: "\n").first { $0.hasPrefix("journal: ") })
    let journal = String(journalLine.dropFirst("journal: ".count))
    let migrated = try StoreFixtures.checksums(ofFolder: folder + "/store")
    let lock = try StoreLock(store: folder + "/store")
    defer { lock.release() }
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 2, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stderr.contains("[store-busy]"))
    #expect(try StoreFixtures.checksums(ofFolder: folder + "/store") == migrated)
  }
}
