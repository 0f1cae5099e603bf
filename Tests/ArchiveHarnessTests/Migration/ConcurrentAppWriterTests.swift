import Foundation
import Testing
import _ArchiveHarnessSystem

@testable import ArchiveHarness

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("A folder store keeps every save an app makes while it is migrated")
struct ConcurrentAppWriterTests {
  /// Saves text to each record once, in a random order and by atomic rename, as apps do,
  /// a little apart so that the saves fall all through the migration; remembers each save.
  final class AppWriter: Sendable {
    let store: String
    let names: [String]
    let saves = Locked<[String: String]>([:])

    init(store: String, names: [String]) {
      self.store = store
      self.names = names
    }

    func run() {
      for (count, name) in names.shuffled().enumerated() {
        let text = "app save \(count) of \(name)"
        let temporary = store + "/.app-save-\(count)"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)),
          rename(temporary, store + "/" + name) == 0
        else { continue }
        saves.withLock { $0[name] = text }
        usleep(1_500)
      }
    }
  }

  @Test(
    "An app saving by atomic rename during migrate loses no save, and its records are refused as changed"
  )
  func appSavesSurviveMigrate() throws {
    // One try catches a writer without the check about half the time; four, nearly always.
    for _ in 0..<4 { try migrateWhileAppSaves() }
  }

  private func migrateWhileAppSaves() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let storePath = folder + "/store"
    try FileManager.default.createDirectory(atPath: storePath, withIntermediateDirectories: true)
    let names = (0..<300).map { "record-\($0).archive" }
    for (index, name) in names.enumerated() {
      let bytes = MigrationFixtures.profile(id: Int64(index))
      #expect(FileManager.default.createFile(atPath: storePath + "/" + name, contents: Data(bytes)))
    }
    let app = AppWriter(store: storePath, names: names)
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      app.run()
      finished.signal()
    }
    let store = try DirectoryStore(path: storePath)
    let writer = store.makeWriter(runDirectory: folder + "/run", journalPath: nil)
    let result = try MigrationFixtures.run(store, writer: writer, batchSize: 16)
    finished.wait()

    let saves = app.saves.withLock { $0 }
    #expect(saves.count == names.count)
    var lost: [String] = []
    for (name, text) in saves {
      let now = try String(contentsOfFile: storePath + "/" + name, encoding: .isoLatin1)
      if now != text { lost.append(name) }
    }
    #expect(lost == [], "the app's saves of these records were overwritten")
    #expect(result.summary.total == names.count)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: storePath)
      .filter { $0.hasSuffix(".archive-harness-tmp") }
    #expect(leftovers == [])
  }
}
