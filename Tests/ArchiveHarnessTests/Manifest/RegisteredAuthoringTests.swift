import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// Archives for authoring with registered classes: notes and attachments under chosen names.
private enum NoteArchive {
  /// A note whose attachment is of class `attachmentClass`, the note of class `noteClass`.
  static func bytes(note noteClass: String, attachment attachmentClass: String? = nil) -> [UInt8] {
    var builder = KeyedArchiveBuilder()
    var fields: [(String, PropertyListValue)] = [("title", builder.string("Groceries"))]
    if let attachmentClass {
      let attachment = builder.object(attachmentClass, [("fileName", builder.string("a.png"))])
      fields.append(("attachment", attachment))
    }
    builder.setRoot(builder.object(noteClass, fields))
    return builder.bytes()
  }

  /// A note archive with `$version` set to `version`.
  static func bytes(version: Int64) -> [UInt8] {
    guard case .dictionary(var root) = KeyedArchiveBuilder().propertyList else { return [] }
    root["$version"] = .integer(version)
    root["$top"] = .dictionary(["root": .uid(0)])
    return BinaryPropertyListWriter().write(.dictionary(root))
  }
}

@Suite("Authoring against registered classes")
struct RegisteredAuthoringTests {
  static let registered: Set<String> = [
    "NotesKit.Note", "NotesKit.FileAttachment", "NotesKit.Tag", "Drafts.Tag", "NSArray",
    "NSObject", "NSString", "NSValue",
  ]

  /// Authors one archive with the registered classes, returning the result and the archives folder.
  private func author(_ bytes: [UInt8], path: String = "note.archive") throws -> (
    ManifestAuthor.Result, String
  ) {
    let archives = try ManifestTestSupport.temporaryDirectory()
    try Data(bytes).write(to: URL(fileURLWithPath: archives + "/" + path))
    let result = ManifestAuthor(registeredClasses: Self.registered).author([
      ManifestAuthor.Input(path: path, bytes: bytes)
    ])
    return (result, archives)
  }

  @Test("A class of the same name in another module is mapped to the registered class")
  func sameNameInAnotherModule() throws {
    let (result, archives) = try author(NoteArchive.bytes(note: "OldNotes.Note"))
    #expect(result.text.contains("<map from=\"OldNotes.Note\" to=\"NotesKit.Note\"/>"))
    #expect(result.text.contains("<rootClass name=\"NotesKit.Note\"/>"))
    #expect(result.text.contains("<class name=\"NotesKit.Note\"/>"))
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let loaded = try ManifestTestSupport.load(
      result.text, archivesDirectory: archives, registeredClasses: Self.registered)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)\n\(result.text)")
  }

  @Test("The archiver's C array holder in a generic NSValue is neither allowed nor unmapped")
  func oldStyleArrayHolderIsLeftOut() throws {
    var builder = KeyedArchiveBuilder()
    let holder = builder.object(
      "_NSKeyedCoderOldStyleArray",
      [
        ("NS.count", .integer(1)), ("NS.size", .integer(4)), ("NS.type", .integer(105)),
        ("$0", .integer(7)),
      ])
    builder.setRoot(builder.object("NSValue", [("$0", builder.string("[1i]")), ("$1", holder)]))
    let (result, _) = try author(builder.bytes())
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(!result.text.contains("unmapped '_NSKeyedCoderOldStyleArray'"))
    #expect(!result.text.contains("<class name=\"_NSKeyedCoderOldStyleArray\"/>"))
  }

  @Test("A Swift mangled class name is mapped to the registered class it names")
  func mangledName() throws {
    let (result, _) = try author(NoteArchive.bytes(note: "_TtC8NotesKit4Note"))
    #expect(result.text.contains("<map from=\"_TtC8NotesKit4Note\" to=\"NotesKit.Note\"/>"))
    #expect(result.text.contains("<rootClass name=\"NotesKit.Note\"/>"))
  }

  @Test("A mangled name from a renamed module is mapped through both rules")
  func mangledNameOfRenamedModule() throws {
    let (result, _) = try author(NoteArchive.bytes(note: "_TtC7NotesV14Note"))
    #expect(result.text.contains("<map from=\"_TtC7NotesV14Note\" to=\"NotesKit.Note\"/>"))
  }

  @Test("A module rename decides between registered classes of the same name")
  func moduleRenameDecides() {
    let matcher = RegisteredClassMatcher(registeredClasses: Self.registered)
    let result = matcher.match(["NotesV1.Note", "NotesV1.Tag"])
    #expect(result.matches["NotesV1.Tag"]?.registeredName == "NotesKit.Tag")
    #expect(result.matches["NotesV1.Tag"]?.rule == .moduleRename)
    #expect(result.moduleRenames == ["NotesV1": "NotesKit"])
    #expect(result.unmapped.isEmpty)
  }

  @Test("Same-named classes in several modules, with no module rename to follow, stay unmapped")
  func ambiguousNameStaysUnmapped() {
    let matcher = RegisteredClassMatcher(registeredClasses: Self.registered)
    let result = matcher.match(["Legacy.Tag"])
    #expect(result.matches.isEmpty)
    #expect(result.unmapped.map(\.archivedName) == ["Legacy.Tag"])
    #expect(result.unmapped.first?.reason.contains("'Drafts.Tag', 'NotesKit.Tag'") == true)
  }

  @Test("A renamed class is reported as unmapped, as a warning and as a comment")
  func renamedClassIsReported() throws {
    let (result, archives) = try author(
      NoteArchive.bytes(note: "NotesV1.Note", attachment: "NotesV1.Attachment"))
    let warning = try #require(result.diagnostics.first)
    #expect(result.diagnostics.count == 1)
    #expect(warning.severity == .warning)
    #expect(warning.location.file == "note.archive")
    #expect(warning.message.contains("class 'NotesV1.Attachment' maps to no registered class"))
    #expect(
      result.text.contains(
        "<!-- unmapped 'NotesV1.Attachment': no registered class is named 'Attachment' in any "
          + "module. Map it with <map from=\"NotesV1.Attachment\" to=\"…\"/> -->"))
    let loaded = try ManifestTestSupport.load(
      result.text, archivesDirectory: archives, registeredClasses: Self.registered)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)\n\(result.text)")
  }

  @Test("An unregistered class is never an allowed class or the root class")
  func unregisteredClassIsNeverAllowed() throws {
    let (result, _) = try author(
      NoteArchive.bytes(note: "Scratch.Memo", attachment: "NotesV1.Attachment"))
    let start = try #require(result.text.range(of: "<allowedClasses"))
    let rest = result.text[start.lowerBound...]
    let allowed = try #require(
      (rest.range(of: "</allowedClasses>") ?? rest.range(of: "/>")).map {
        rest[..<$0.upperBound]
      })
    #expect(!allowed.contains("Scratch.Memo"))
    #expect(!allowed.contains("NotesV1.Attachment"))
    #expect(!result.text.contains("<rootClass"))
    #expect(result.diagnostics.map(\.severity) == [.warning, .warning])
  }

  @Test("A class only in a superclass chain that maps nowhere is a note")
  func superclassOnlyNameIsANote() throws {
    var builder = KeyedArchiveBuilder()
    let note = builder.object(
      "NotesV1.Note", chain: ["NotesV1.Note", "NotesV1.BaseItem", "NSObject"],
      [("title", builder.string("x"))])
    builder.setRoot(note)
    let (result, _) = try author(builder.bytes())
    #expect(result.diagnostics.map(\.severity) == [.note])
    #expect(result.diagnostics.first?.message.contains("only in a superclass chain") == true)
    #expect(result.text.contains("<rootClass name=\"NotesKit.Note\"/>"))
  }

  @Test("A truncated archive gets the expected rejection, not a comment")
  func truncatedArchiveIsExpectedRejected() throws {
    let full = NoteArchive.bytes(note: "NotesKit.Note")
    let (result, archives) = try author(Array(full.prefix(12)))
    #expect(result.text.contains("<legacy outcome=\"rejected\" category=\"truncated\"/>"))
    #expect(result.text.contains("<secure outcome=\"rejected\" category=\"truncated\"/>"))
    let loaded = try ManifestTestSupport.load(
      result.text, archivesDirectory: archives, registeredClasses: Self.registered)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)\n\(result.text)")
  }

  @Test("An archive of an unknown version gets the expected rejection")
  func unknownVersionIsExpectedRejected() throws {
    let (result, _) = try author(NoteArchive.bytes(version: 200_000))
    #expect(
      result.text.contains("<legacy outcome=\"rejected\" category=\"unknown-schema-version\"/>"))
    #expect(
      result.text.contains("<secure outcome=\"rejected\" category=\"unknown-schema-version\"/>"))
  }

  @Test("An archive of another archiver gets the expected rejection as malformed")
  func otherArchiverIsExpectedRejected() throws {
    guard case .dictionary(var root) = KeyedArchiveBuilder().propertyList else {
      Issue.record("the builder wrote no dictionary")
      return
    }
    root["$archiver"] = .string("NSArchiver")
    let (result, _) = try author(BinaryPropertyListWriter().write(.dictionary(root)))
    #expect(result.text.contains("<legacy outcome=\"rejected\" category=\"malformed\"/>"))
    #expect(result.diagnostics.first?.message.contains("listed as rejected [malformed]") == true)
  }

  @Test("Update maps the new archive's class names to registered classes")
  func updateMapsNewNames() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bytes = NoteArchive.bytes(note: "_TtC7NotesV14Note", attachment: "NotesV1.Attachment")
    try Data(bytes).write(to: URL(fileURLWithPath: archives + "/new.archive"))
    let existing = ManifestTestSupport.manifest(
      """
        <classMap>
          <map from="NotesV1.Note" to="NotesKit.Note"/>
        </classMap>
        <allowedClasses>
          <class name="NotesKit.Note"/>
        </allowedClasses>
      """)
    let result = ManifestAuthor(registeredClasses: Self.registered).update(
      existingText: existing, file: archives + "/manifest.xml",
      with: [ManifestAuthor.Input(path: "new.archive", bytes: bytes)])
    #expect(result.text.contains("<map from=\"_TtC7NotesV14Note\" to=\"NotesKit.Note\"/>"))
    #expect(result.text.contains("<!-- unmapped 'NotesV1.Attachment'"))
    #expect(!result.text.contains("<class name=\"NotesV1.Attachment\"/>"))
    #expect(result.diagnostics.map(\.severity) == [.warning])
    let loaded = ManifestLoader.load(
      bytes: Array(result.text.utf8), file: archives + "/manifest.xml", baseDirectory: archives,
      archivesDirectory: archives, registeredClasses: Self.registered)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)\n\(result.text)")
  }
}
