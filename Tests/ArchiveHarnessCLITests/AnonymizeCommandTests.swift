import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@Suite("archive-harness anonymize, run as a user would")
struct AnonymizeCommandTests {
  /// A fresh folder.
  static func folder() throws -> String {
    let path = NSTemporaryDirectory() + "anonymize-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// A small archive: a profile with a name, an email and a version.
  static func profile(name: String = "Avery Example") -> [UInt8] {
    var builder = KeyedArchiveBuilder()
    let nameObject = builder.string(name)
    let email = builder.string("avery@corp-mail.de")
    builder.setRoot(
      builder.object(
        "NotesApp.Profile", [("name", nameObject), ("email", email), ("version", .integer(2))]))
    return builder.bytes()
  }

  static func write(_ bytes: [UInt8], to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map(Array.init)
  }

  @Test("A folder is anonymized into a folder with the same relative paths")
  func anonymizesFolder() throws {
    let root = try Self.folder()
    try Self.write(Self.profile(), to: root + "/in/v1/a.archive")
    try Self.write(Self.profile(name: "Blake Placeholder"), to: root + "/in/v2/deep/b.archive")
    let result = InProcessCommand.run(["archive-harness", "anonymize", root + "/in", root + "/out"])
    #expect(result.status == 0, "\(result.stderr)")
    let first = try #require(Self.contents(root + "/out/v1/a.archive"))
    let second = try #require(Self.contents(root + "/out/v2/deep/b.archive"))
    #expect(
      try KeyedArchive(bytes: first).objects.count
        == KeyedArchive(bytes: Self.profile()).objects.count)
    #expect(!String(decoding: first + second, as: UTF8.self).contains("Avery"))
    #expect(result.stdout.contains("/out/v1/a.archive: 2 strings replaced; 0 kept"))
  }

  @Test("A file that is not a keyed archive is reported and not written; the others are")
  func reportsUnreadableInput() throws {
    let root = try Self.folder()
    try Self.write(Self.profile(), to: root + "/in/good.archive")
    try Self.write(Array("not a plist".utf8), to: root + "/in/bad.archive")
    let result = InProcessCommand.run(["archive-harness", "anonymize", root + "/in", root + "/out"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("bad.archive"))
    #expect(result.stderr.contains("not written"))
    #expect(Self.contents(root + "/out/good.archive") != nil)
    #expect(Self.contents(root + "/out/bad.archive") == nil)
  }

  @Test("--keep of a key path that matches nothing is an error, and nothing is written")
  func rejectsUnmatchedKeep() throws {
    let root = try Self.folder()
    try Self.write(Self.profile(), to: root + "/a.archive")
    let result = InProcessCommand.run([
      "archive-harness", "anonymize", root + "/a.archive", root + "/b.archive", "--keep", "versoin",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("[unmatched-key-path]"))
    #expect(result.stderr.contains("'versoin'"))
    #expect(Self.contents(root + "/b.archive") == nil)
  }

  @Test("--keep of a number is reported as kept")
  func reportsKeptNumber() throws {
    let root = try Self.folder()
    try Self.write(Self.profile(), to: root + "/a.archive")
    let result = InProcessCommand.run([
      "archive-harness", "anonymize", root + "/a.archive", root + "/b.archive", "--keep", "version",
      "--verbose",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("kept version: number\n"))
    #expect(result.stdout.contains("2 strings replaced; 1 kept"))
    #expect(result.stdout.contains("replaced name: string of 13 UTF-16 units"))
  }

  @Test("The same --salt-file gives the same bytes on two runs")
  func saltFileIsDeterministic() throws {
    let root = try Self.folder()
    try Self.write(Self.profile(), to: root + "/a.archive")
    try Self.write(Array("a salt of more than sixteen bytes".utf8), to: root + "/salt")
    for output in ["b", "c"] {
      let result = InProcessCommand.run([
        "archive-harness", "anonymize", root + "/a.archive", root + "/\(output).archive",
        "--salt-file", root + "/salt",
      ])
      #expect(result.status == 0, "\(result.stderr)")
    }
    #expect(Self.contents(root + "/b.archive") == Self.contents(root + "/c.archive"))
  }

  @Test("A salt file shorter than 16 bytes is an error")
  func rejectsShortSalt() throws {
    let root = try Self.folder()
    try Self.write(Self.profile(), to: root + "/a.archive")
    try Self.write(Array("short".utf8), to: root + "/salt")
    let result = InProcessCommand.run([
      "archive-harness", "anonymize", root + "/a.archive", root + "/b.archive", "--salt-file",
      root + "/salt",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("[salt-too-short]"))
  }

  @Test("A date policy that does not exist is a usage error that lists the policies")
  func rejectsUnknownDatePolicy() throws {
    let result = InProcessCommand.run([
      "archive-harness", "anonymize", "a", "b", "--dates", "weekly",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("truncate:month"))
  }

  @Test("An output folder inside the input folder is refused")
  func refusesOutputInsideInput() throws {
    let root = try Self.folder()
    try Self.write(Self.profile(), to: root + "/in/a.archive")
    let result = InProcessCommand.run([
      "archive-harness", "anonymize", root + "/in", root + "/in/out",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("inside the input folder"))
  }

  @Test("--update-manifest rewrites the sha256 of the entries written, and notes the unlisted")
  func updatesManifest() throws {
    let root = try Self.folder()
    try Self.write(Self.profile(), to: root + "/raw/note.archive")
    try Self.write(Self.profile(name: "Casey Fixture"), to: root + "/raw/new.archive")
    let old = String(repeating: "0", count: 64)
    let manifest = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="NotesApp" version="1.0" platform="iOS 17" produced="2024-01-01"/>
        <archive path="NotesApp-1.0/note.archive" sha256="\(old)"/>
      </manifest>
      """
    try Self.write(Array(manifest.utf8), to: root + "/manifests/NotesApp-1.0.xml")
    let result = InProcessCommand.run([
      "archive-harness", "anonymize", root + "/raw", root + "/LegacyArchives/NotesApp-1.0",
      "--update-manifest", root + "/manifests/NotesApp-1.0.xml", "--archives",
      root + "/LegacyArchives",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let written = try #require(Self.contents(root + "/LegacyArchives/NotesApp-1.0/note.archive"))
    let updated = String(
      decoding: try #require(Self.contents(root + "/manifests/NotesApp-1.0.xml")), as: UTF8.self)
    #expect(
      updated
        == manifest.replacingOccurrences(of: old, with: SHA256Checksum.hash(written).hexadecimal))
    #expect(result.stdout.contains("1 sha256 updated, 0 unchanged, 1 archives not listed"))
    #expect(result.stderr.contains("'NotesApp-1.0/new.archive' has no entry"))
  }
}
