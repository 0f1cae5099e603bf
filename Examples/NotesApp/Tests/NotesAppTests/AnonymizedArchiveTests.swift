import ArchiveHarnessTesting
import Foundation
import NotesSamples
import NotesV1
import Testing

/// The committed archives are the anonymized ones: none of the device's personal data is in them.
///
/// `generate-legacy-archives` writes the device's notes (``SampleNotes``) to `RawArchives/`,
/// which is never committed; `scripts/record-archives` anonymizes them into `LegacyArchives/`.
@Suite("The committed archives hold none of the device's personal data")
struct AnonymizedArchiveTests {
  /// Every file below `LegacyArchives/`, by path relative to it.
  static let files: [String] = {
    let root = NotesHarness.project.archivesFolder
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let full = root.appendingPathComponent(path).path
      if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        files.append(path)
      }
    }
    return files.sorted()
  }()

  /// The device's notes, each note once, the notebook's included.
  static var rawNotes: [NotesV1.Note] {
    [SampleNotes.full(), SampleNotes.minimal()] + SampleNotes.notebook().notes.dropFirst()
  }

  /// Every string the device's notes hold, as written: titles, bodies, links, tags, file names.
  static let rawStrings: [String] = {
    var strings = SampleNotes.personalStrings + [SampleNotes.notebook().title]
    for note in rawNotes {
      strings += [note.title, note.body] + note.tags
      strings += note.wordCounts.keys.filter { $0.count >= 4 }
      if let link = note.link { strings.append(link.absoluteString) }
      if let attachment = note.attachment { strings.append(attachment.fileName) }
    }
    return strings
  }()

  /// The snapshot of the Keychain items version 1.0 left.
  static let snapshot = "Keychain/notes-1.0-keychain.json"

  /// A file's bytes; for the Keychain snapshot, what its items hold (each item's data, account
  /// and service), not the JSON text, whose member names are no one's data.
  static func bytes(_ file: String) throws -> [UInt8] {
    let bytes = try NotesHarness.bytes(file)
    guard file == snapshot else { return bytes }
    let json = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    let items = try #require(json?["items"] as? [[String: Any]])
    var held: [UInt8] = []
    for item in items {
      let data = try #require((item["data"] as? String).flatMap { Data(base64Encoded: $0) })
      held += Array(data) + [0]
      for attribute in ["account", "service"] {
        held += Array(((item[attribute] as? String) ?? "").utf8) + [0]
      }
    }
    return held
  }

  /// Whether `haystack` holds `needle`, ASCII letters compared without case.
  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    guard !needle.isEmpty, needle.count <= haystack.count else { return false }
    let target = needle.map(lower)
    return (0...(haystack.count - needle.count)).contains { start in
      target.indices.allSatisfy { lower(haystack[start + $0]) == target[$0] }
    }
  }

  @Test("The committed folder holds the manifest's seven archives and the Keychain snapshot")
  func holdsTheArchives() {
    let notes = Self.files.filter { $0 != Self.snapshot }
    #expect(Self.files.count == 8)
    #expect(notes.count == 7)
    #expect(notes.allSatisfy { $0.hasPrefix("NotesV1-1.0/") && $0.hasSuffix(".archive") })
  }

  @Test("No raw string, name, email, phone number or date text appears, as UTF-8 or UTF-16")
  func noRawString() throws {
    #expect(Self.rawStrings.count > 30)
    for file in Self.files {
      let bytes = try Self.bytes(file)
      for text in Self.rawStrings {
        let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(!Self.contains(bytes, Array(text.utf8)), "\(file) holds '\(text)'")
        #expect(!Self.contains(bytes, utf16), "\(file) holds '\(text)' as UTF-16")
      }
    }
  }

  @Test("No raw date and no raw identifier appears")
  func noRawDateOrIdentifier() throws {
    for file in Self.files {
      let bytes = try Self.bytes(file)
      for note in Self.rawNotes {
        // NSDate archives NS.time, seconds since 2001 as a big-endian 64-bit real.
        let time = note.created.timeIntervalSinceReferenceDate.bitPattern
        let timeBytes = (0..<8).map { UInt8(truncatingIfNeeded: time >> (56 - 8 * $0)) }
        #expect(!Self.contains(bytes, timeBytes), "\(file) holds the date \(note.created)")
        let uuid = note.id.uuid
        let uuidBytes = withUnsafeBytes(of: uuid) { Array($0) }
        #expect(!Self.contains(bytes, uuidBytes), "\(file) holds the identifier \(note.id)")
      }
    }
  }

  @Test("The privacy scan finds nothing in the committed archives")
  func privacyScanIsClean() {
    let report = PrivacyScanner().scan(folder: NotesHarness.project.archivesFolder.path)
    #expect(report.filesScanned == 8)
    #expect(report.findings.isEmpty, "\(report.findings.map(\.description))")
    #expect(report.unreadable.isEmpty)
  }

  @Test("The raw strings the test looks for are in the device's raw archive, so the check can fail")
  func rawStringsAreInTheRawArchive() throws {
    let raw = try NSKeyedArchiver.archivedData(
      withRootObject: SampleNotes.full(), requiringSecureCoding: false)
    let bytes = [UInt8](raw)
    #expect(Self.contains(bytes, Array("maren.holt@posteo.de".utf8)))
    #expect(Self.contains(bytes, Array("+49 171 4839201".utf8)))
    let time = SampleNotes.created.timeIntervalSinceReferenceDate.bitPattern
    #expect(Self.contains(bytes, (0..<8).map { UInt8(truncatingIfNeeded: time >> (56 - 8 * $0)) }))
  }
}
