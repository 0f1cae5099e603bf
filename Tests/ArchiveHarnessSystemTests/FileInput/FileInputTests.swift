import Foundation
import Testing
import _ArchiveHarnessSystem

/// FileInput, the one rule every file the project reads goes through.
@Suite("FileInput: command inputs and store files")
struct FileInputTests {
  /// A new empty folder, removed by the caller.
  static func folder() throws -> String {
    let path = NSTemporaryDirectory() + "file-input-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  @Test("A command input is read whole, and through a link")
  func inputReadWhole() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
    try Self.write(bytes, to: folder + "/a")
    try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "a")
    #expect(try FileInput.readInput(folder + "/a", limit: 1 << 20) == bytes)
    #expect(try FileInput.readInput(folder + "/link", limit: 1 << 20) == bytes)
  }

  @Test("A missing command input is notFound, naming the file")
  func inputMissing() throws {
    let path = NSTemporaryDirectory() + "file-input-missing-" + UUID().uuidString
    let error = #expect(throws: FileInputError.self) { try FileInput.readInput(path, limit: 10) }
    #expect(error?.reason == .notFound)
    #expect(error?.path == path)
  }

  @Test("A folder given as a command input is notAFile")
  func inputFolder() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let error = #expect(throws: FileInputError.self) { try FileInput.readInput(folder, limit: 10) }
    #expect(error?.reason == .notAFile)
  }

  @Test("A command input over the limit is refused before it is read")
  func inputTooLarge() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write([UInt8](repeating: 7, count: 11), to: folder + "/a")
    let error = #expect(throws: FileInputError.self) {
      try FileInput.readInput(folder + "/a", limit: 10)
    }
    #expect(error?.reason == .tooLarge)
    #expect(error?.message == "file of 11 bytes exceeds the limit of 10 bytes")
  }

  @Test("A store file is read with its identity, and one over the limit gives no bytes")
  func storeFileAndLimit() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write([1, 2, 3], to: folder + "/a")
    let file = try FileInput.readStoreFile(folder + "/a", limit: 10)
    #expect(file.bytes == [1, 2, 3])
    #expect(file.size == 3)
    let large = try FileInput.readStoreFile(folder + "/a", limit: 2)
    #expect(large.bytes == nil)
    #expect(large.size == 3)
    #expect(large.identity == file.identity)
  }

  @Test("A link is never read as a store file")
  func storeFileLinkRefused() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write([1], to: folder + "/a")
    try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "a")
    let error = #expect(throws: FileInputError.self) {
      try FileInput.readStoreFile(folder + "/link", limit: 10)
    }
    #expect(error?.reason == .symbolicLink)
  }

  @Test("A FIFO is not waited on as a store file")
  func storeFileFIFORefused() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(mkfifo(folder + "/fifo", 0o600) == 0)
    let error = #expect(throws: FileInputError.self) {
      try FileInput.readStoreFile(folder + "/fifo", limit: 10)
    }
    #expect(error?.reason == .notAFile)
  }
}
