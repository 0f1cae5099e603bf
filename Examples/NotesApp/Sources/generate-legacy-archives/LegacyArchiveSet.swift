import Foundation
import NotesKit
import NotesSamples
import NotesV1

/// The archives version 1.0 of the Notes app left on a test device, written by Foundation's own
/// `NSKeyedArchiver` from the version 1 classes.
enum LegacyArchiveSet {
  /// The folder, below `RawArchives` and `LegacyArchives`, that holds version 1.0's archives.
  static let folder = "NotesV1-1.0"

  /// Archives an object the way version 1.0 did: keyed, not requiring secure coding.
  static func archive(_ object: NSObject, requiringSecureCoding: Bool = false) -> [UInt8] {
    let archiver = NSKeyedArchiver(requiringSecureCoding: requiringSecureCoding)
    archiver.encode(object, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return [UInt8](archiver.encodedData)
  }

  /// The archives as the device left them, personal data included, by name.
  static func rawFiles(log: (String) -> Void) throws -> [(name: String, bytes: [UInt8])] {
    [
      ("note-full.archive", archive(SampleNotes.full())),
      ("note-without-attachment.archive", archive(SampleNotes.minimal())),
      ("notebook.archive", archive(SampleNotes.notebook())),
      ("note-swift4-names.archive", try swift4Names(log: log)),
      ("note-wrong-root.archive", archive(SampleNotes.full().attachment ?? NSObject())),
    ]
  }

  /// The damaged archives, made from an already anonymized `note-full.archive`: cut in half, as
  /// a crash mid-write leaves it, and with a `$version` no `NSKeyedArchiver` writes.
  ///
  /// The anonymizer reads only whole keyed archives, so these two are made after it ran.
  static func damagedFiles(from full: [UInt8]) throws -> [(name: String, bytes: [UInt8])] {
    [
      ("note-truncated.archive", Array(full.prefix(full.count / 2))),
      ("note-unknown-version.archive", try ArchiveRewriter.settingVersion(full, to: 200_000)),
    ]
  }

  /// The full note under the class names a Swift 4 build archived: `_TtC7NotesV14Note`.
  ///
  /// Apple's `NSKeyedArchiver` writes what `setClassName(_:for:)` gives; the generator asks
  /// for the same, and where Foundation ignores it (swift-corelibs-foundation does), rewrites
  /// the names with the harness's rename-only transform.
  static func swift4Names(log: (String) -> Void) throws -> [UInt8] {
    let names = [
      "NotesV1.Note": "_TtC7NotesV14Note", "NotesV1.Attachment": "_TtC7NotesV110Attachment",
    ]
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.setClassName(names["NotesV1.Note"], for: NotesV1.Note.self)
    archiver.setClassName(names["NotesV1.Attachment"], for: NotesV1.Attachment.self)
    archiver.encode(SampleNotes.full(), forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    let bytes = [UInt8](archiver.encodedData)
    if bytes.contains(subsequence: Array("_TtC7NotesV14Note".utf8)) {
      log("note-swift4-names.archive: NSKeyedArchiver.setClassName(_:for:) honoured")
      return bytes
    }
    log(
      "note-swift4-names.archive: this Foundation ignored NSKeyedArchiver.setClassName(_:for:); "
        + "class names rewritten with RenameOnlyTransform")
    return try ArchiveRewriter.renamingClasses(bytes, names)
  }

  /// Rows for an SQLite store of `count` notes: version 1.0 archives, with every 25th already
  /// rewritten by version 2 and record 7 cut short by a crash while it was written.
  static func storeRows(count: Int) -> [(key: String, value: [UInt8])] {
    (0..<count).map { index in
      let key = "note-" + String(format: "%05d", index)
      let v1 = SampleNotes.record(index)
      if index == 7 {
        let bytes = archive(v1)
        return (key, Array(bytes.prefix(bytes.count / 2)))
      }
      if index % 25 == 24 {
        return (key, archive(current(v1), requiringSecureCoding: true))
      }
      return (key, archive(v1))
    }
  }

  /// The same note as version 2 holds it.
  static func current(_ note: NotesV1.Note) -> NotesKit.Note {
    NotesKit.Note(
      id: note.id, title: note.title, body: note.body, created: note.created, link: note.link,
      tags: note.tags, wordCounts: note.wordCounts,
      attachment: note.attachment.map {
        FileAttachment(fileName: $0.fileName, mimeType: $0.mimeType, contents: $0.contents)
      },
      priority: Priority(archivedWord: note.priority) ?? .normal, isPinned: note.isPinned)
  }
}

extension [UInt8] {
  /// Whether the bytes contain `needle` somewhere.
  fileprivate func contains(subsequence needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, needle.count <= count else { return false }
    return indices.dropLast(needle.count - 1).contains { self[$0...].starts(with: needle) }
  }
}
