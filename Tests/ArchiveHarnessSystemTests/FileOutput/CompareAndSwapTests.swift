import Foundation
import Testing
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("A file is swapped only while it still holds the file that was read")
struct CompareAndSwapTests {
  @Test("The file that was read is replaced, and no temporary file stays")
  func unchangedFileIsReplaced() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let file = try folder.makeFile("record", "old")
    let identity = try #require(FileIdentity.at(file))
    let temporary = try folder.makeFile(".record.tmp", "new")
    #expect(try AtomicFile.swap(temporary, over: file, ifStill: identity) == .replaced)
    #expect(try folder.text(file) == "new")
    #expect(try folder.names() == ["record"])
  }

  @Test("An app's save by atomic rename, even of the same bytes, is kept")
  func appSaveByRenameIsKept() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let file = try folder.makeFile("record", "old")
    let identity = try #require(FileIdentity.at(file))
    // The app writes a new file and renames it over the record: a new inode.
    let save = try folder.makeFile(".app-save", "old")
    #expect(rename(save, file) == 0)
    let temporary = try folder.makeFile(".record.tmp", "migrated")
    #expect(try AtomicFile.swap(temporary, over: file, ifStill: identity) == .changed)
    #expect(try folder.text(file) == "old")
    #expect(try folder.names() == ["record"])
  }

  @Test("An app's save in place, which changes the size, is kept")
  func appSaveInPlaceIsKept() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let file = try folder.makeFile("record", "old")
    let identity = try #require(FileIdentity.at(file))
    try "saved by the app".write(toFile: file, atomically: false, encoding: .utf8)
    let temporary = try folder.makeFile(".record.tmp", "migrated")
    #expect(try AtomicFile.swap(temporary, over: file, ifStill: identity) == .changed)
    #expect(try folder.text(file) == "saved by the app")
    #expect(try folder.names() == ["record"])
  }

  @Test("A record the app deleted is not brought back")
  func deletedRecordStaysDeleted() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let file = try folder.makeFile("record", "old")
    let identity = try #require(FileIdentity.at(file))
    #expect(unlink(file) == 0)
    let temporary = try folder.makeFile(".record.tmp", "migrated")
    #expect(try AtomicFile.swap(temporary, over: file, ifStill: identity) == .changed)
    #expect(try folder.names() == [])
  }

  @Test("A FIFO put where the record was is never replaced")
  func fifoIsNotReplaced() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let file = try folder.makeFile("record", "old")
    let identity = try #require(FileIdentity.at(file))
    #expect(unlink(file) == 0)
    _ = try folder.makeFIFO("record")
    let temporary = try folder.makeFile(".record.tmp", "migrated")
    #expect(try AtomicFile.swap(temporary, over: file, ifStill: identity) == .changed)
    let status = try folder.status(file)
    #expect(status.st_mode & S_IFMT == S_IFIFO)
    #expect(try folder.names() == ["record"])
  }
}
