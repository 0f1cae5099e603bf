import Foundation
import HarnessTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("A migrate journal is untrusted input to --rollback")
struct JournalIntegrityTests {
  /// A migrated scratch copy of the shipped v1 archives: the folder and the run's journal.
  private func migratedStore() throws -> (folder: String, journal: String) {
    let folder = try StoreFixtures.scratchProfileStore()
    let result = try CommandRunner.run([
      "migrate", "--store", folder + "/store", "--manifest", StoreFixtures.manifest, "--backup",
      folder + "/backup",
    ])
    let journalLine = try #require(
      result.stdout.split(separator: "\n").first { $0.hasPrefix("journal: ") })
    return (folder, String(journalLine.dropFirst("journal: ".count)))
  }

  private func lines(_ journal: String) throws -> [String] {
    try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  private func write(_ lines: [String], to journal: String, newline: Bool = true) throws {
    try (lines.joined(separator: "\n") + (newline ? "\n" : "")).write(
      toFile: journal, atomically: false, encoding: .utf8)
  }

  @Test("The journal is written owner-only, and every line ends with its checksum")
  func journalIsPrivateAndSealed() throws {
    let (folder, journal) = try migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var status = stat()
    #expect(stat(journal, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)
    let all = try lines(journal)
    #expect(all.count == 6, "a header, four changes and an end line")
    #expect(
      all.allSatisfy {
        $0.range(of: #","sum":"[0-9a-f]{32}"\}$"#, options: .regularExpression) != nil
      })
    #expect(all.last?.contains("\"changes\":4") == true)
  }

  @Test("An intact journal rolls back with exit 0 and no warning")
  func intactJournalRollsBack() throws {
    let (folder, journal) = try migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 0, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stdout.contains("rollback: 4 restored"))
    #expect(!rollback.stderr.contains("warning"))
  }

  @Test("A backup path that climbs out of the backup folder is not followed, and rollback exits 1")
  func backupPathOutsideIsRefused() throws {
    let (folder, journal) = try migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(
      atPath: folder + "/outside", withIntermediateDirectories: true)
    try "secret".write(toFile: folder + "/outside/secret.txt", atomically: false, encoding: .utf8)
    var all = try lines(journal)
    let index = try #require(all.firstIndex { $0.contains("\"op\":\"replace\"") })
    let original = try #require(
      all[index].range(of: #""backup":"[^"]*""#, options: .regularExpression))
    all[index].replaceSubrange(original, with: #""backup":"../../../outside/secret.txt""#)
    try write(all, to: journal)
    let migrated = try StoreFixtures.checksums(ofFolder: folder + "/store")

    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 1, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stdout.contains("outside the store or the backup folder"))
    #expect(rollback.stdout.contains("rollback: 3 restored"))
    let after = try StoreFixtures.checksums(ofFolder: folder + "/store")
    let secret = try StoreFixtures.checksums(ofFolder: folder + "/outside").values.first
    #expect(!after.values.contains { $0 == secret })
    #expect(after.count == migrated.count)
  }

  @Test("An absolute record path in the journal is not followed")
  func absoluteRecordPathIsRefused() throws {
    let (folder, journal) = try migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var all = try lines(journal)
    let index = try #require(all.firstIndex { $0.contains("\"op\":\"replace\"") })
    let original = try #require(
      all[index].range(of: #""path":"[^"]*""#, options: .regularExpression))
    all[index].replaceSubrange(original, with: #""path":"/etc/passwd""#)
    try write(all, to: journal)
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 1)
    #expect(rollback.stdout.contains("outside the store or the backup folder"))
  }

  @Test("A journal with a middle line deleted is reported, and rollback exits 1")
  func deletedLineIsReported() throws {
    let (folder, journal) = try migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var all = try lines(journal)
    all.remove(at: 2)
    try write(all, to: journal)
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 1, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stderr.contains("line 3's checksum does not follow"))
    #expect(rollback.stderr.contains("[journal]"))
    #expect(rollback.stdout.contains("rollback: 3 restored"))
  }

  @Test("A journal whose last entry is torn is reported, and rollback exits 1")
  func tornLastLineIsReported() throws {
    let (folder, journal) = try migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var all = try lines(journal)
    all.removeLast()
    all[all.count - 1] = String(all[all.count - 1].prefix(40))
    try write(all, to: journal, newline: false)
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 1, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stderr.contains("line 5 is incomplete"))
    #expect(rollback.stderr.contains("no end line"))
  }

  @Test("A journal whose end line was cut off is reported, and rollback exits 1")
  func missingEndLineIsReported() throws {
    let (folder, journal) = try migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var all = try lines(journal)
    all.removeLast(2)
    try write(all, to: journal)
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 1, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stderr.contains("no end line after line 4"))
    #expect(rollback.stdout.contains("rollback: 3 restored"))
  }

  @Test("A changed entry breaks the checksum chain, and rollback exits 1")
  func changedEntryIsReported() throws {
    let (folder, journal) = try migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var all = try lines(journal)
    all[3] = all[3].replacingOccurrences(of: "\"op\":\"replace\"", with: "\"op\":\"replace\" ")
    try write(all, to: journal)
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 1)
    #expect(rollback.stderr.contains("line 4's checksum does not follow"))
  }
}

@Suite("A journal a killed run left before its first line")
struct EmptyJournalTests {
  @Test("An empty journal rolls back nothing, says why, and exits 1")
  func emptyJournalIsReported() throws {
    let folder = try StoreFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journal = folder + "/journal.jsonl"
    #expect(FileManager.default.createFile(atPath: journal, contents: Data()))
    let rollback = try CommandRunner.run(["migrate", "--rollback", journal])
    #expect(rollback.status == 1, "\(rollback.stdout)\(rollback.stderr)")
    #expect(rollback.stderr.contains("no complete first line"))
    #expect(rollback.stdout.contains("rollback: 0 restored, 0 already original, 0 conflicts"))
  }
}
