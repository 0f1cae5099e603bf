import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// What the harness coder records on the secure path that Apple's platforms only log today:
/// one named test per rule, with the class, the key path and the list to write.
@Suite("Apple's future strictness: what the harness coder records")
struct StrictnessFindingTests {
  let decoder = HarnessDecoder(
    registry: ClassRegistry(modelClasses: StrictnessModels.classes),
    classMap: .empty)

  /// The findings of a decode on one path, expecting it to decode.
  private func findings(
    _ bytes: [UInt8], secure: Bool = true, allowed: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [StrictnessFinding] {
    let result = decoder.decode(bytes, secure: secure, allowedClasses: allowed)
    #expect(
      result.outcome.decodedValue != nil, "\(result.outcome)", sourceLocation: sourceLocation)
    return result.strictnessFindings
  }

  /// An archive of a ``TaggedNote`` with two string tags.
  private static func taggedNote() -> [UInt8] {
    var archive = TestArchive()
    let tags = archive.array([archive.string("work"), archive.string("home")])
    let note = archive.object(["ArchiveCoderTests.TaggedNote", "NSObject"], [("tags", tags)])
    return archive.bytes(root: note)
  }

  @Test("NSObject in the read's allowed classes is recorded, the classes it alone let in as fix")
  func nsObjectInReadList() throws {
    var archive = TestArchive()
    let tags = archive.array([archive.string("a")])
    let note = archive.object(["ArchiveCoderTests.TaggedNote", "NSObject"], [("tags", tags)])
    let list = archive.array([note])
    let found = findings(archive.bytes(root: list), allowed: ["NSArray", "NSObject"])
    let finding = try #require(found.first { $0.rule == .nsObjectAllowed })
    #expect(finding.className == "NSObject")
    #expect(finding.keyPath == "root")
    #expect(finding.decoder == nil && finding.key == nil)
    #expect(finding.allowedClasses == ["NSArray", "NSObject"])
    #expect(finding.fix == ["NSArray", "ArchiveCoderTests.TaggedNote"])
    #expect(finding.fixText == "allowedClasses: [NSArray.self, ArchiveCoderTests.TaggedNote.self]")
    #expect(finding.severity == .warning)
  }

  @Test("NSObject in a decode call's list is recorded with the class, the key and the fix")
  func nsObjectInCallList() throws {
    var archive = TestArchive()
    let holder = archive.object(
      ["ArchiveCoderTests.LooseHolder", "NSObject"], [("body", archive.string("text"))])
    let found = findings(archive.bytes(root: holder), allowed: ["ArchiveCoderTests.LooseHolder"])
    #expect(found.count == 1, "\(found)")
    let finding = try #require(found.first)
    #expect(finding.rule == .nsObjectAllowed)
    #expect(finding.keyPath == "root.body")
    #expect(finding.decoder == "ArchiveCoderTests.LooseHolder")
    #expect(finding.key == "body")
    #expect(finding.allowedClasses == ["NSObject"])
    #expect(finding.fix == ["NSString"])
    #expect(finding.fixText == #"decodeObject(of: [NSString.self], forKey: "body")"#)
    #expect(
      finding.description
        == #"root.body: the classes [NSObject] ArchiveCoderTests.LooseHolder's init?(coder:) allows "#
        + #"for key "body" name NSObject, which lets any class decode; Apple logs that this "#
        + #"bypasses security and will become an error; write "#
        + #"decodeObject(of: [NSString.self], forKey: "body")"#)
  }

  @Test("An NSString leaf a call's list does not name is recorded at its key path, with the fix")
  func unlistedLeafInCallList() throws {
    let found = findings(Self.taggedNote(), allowed: ["ArchiveCoderTests.TaggedNote"])
    #expect(found.count == 1, "\(found)")
    let finding = try #require(found.first)
    #expect(finding.rule == .unlistedPropertyListClass)
    #expect(finding.className == "NSString")
    #expect(finding.keyPath == "root.tags[0]")
    #expect(finding.decoder == "ArchiveCoderTests.TaggedNote")
    #expect(finding.key == "tags")
    #expect(finding.allowedClasses == ["NSArray"])
    #expect(finding.fix == ["NSArray", "NSString"])
    #expect(finding.fixText == #"decodeObject(of: [NSArray.self, NSString.self], forKey: "tags")"#)
  }

  @Test("Leaves the read's own list does not name are recorded, each class once")
  func unlistedLeavesInReadList() throws {
    var archive = TestArchive()
    let number = PropertyListValue.uid(archive.add(.integer(7)))
    let list = archive.array([archive.string("a"), number, archive.string("b")])
    let found = findings(archive.bytes(root: list), allowed: ["NSArray"])
    #expect(found.map(\.className) == ["NSString", "NSNumber"])
    #expect(found.map(\.keyPath) == ["root[0]", "root[1]"])
    #expect(found.allSatisfy { $0.fix == ["NSArray", "NSString", "NSNumber"] })
    #expect(found.first?.fixText == "allowedClasses: [NSArray.self, NSString.self, NSNumber.self]")
  }

  @Test("decodeObject(forKey:) on a secure coder is recorded naming the class and the key")
  func untypedDecodeOnSecureCoder() throws {
    var archive = TestArchive()
    let note = archive.object(
      ["ArchiveCoderTests.SloppySecureNote", "NSObject"], [("text", archive.string("t"))])
    let result = decoder.decode(
      archive.bytes(root: note), secure: true,
      allowedClasses: ["ArchiveCoderTests.SloppySecureNote"])
    // The harness coder refuses the call, as before; the finding says what to write instead.
    #expect(result.outcome.rejection?.category == .notSecureCoding)
    #expect(result.strictnessFindings.count == 1)
    let finding = try #require(result.strictnessFindings.first)
    #expect(finding.rule == .untypedDecode)
    #expect(finding.className == "ArchiveCoderTests.SloppySecureNote")
    #expect(finding.decoder == "ArchiveCoderTests.SloppySecureNote")
    #expect(finding.key == "text")
    #expect(finding.keyPath == "root.text")
    #expect(finding.fix == ["NSString"])
    #expect(
      finding.description
        == #"root.text: ArchiveCoderTests.SloppySecureNote's init?(coder:) calls "#
        + #"decodeObject(forKey: "text") on a coder that requires secure coding; write "#
        + #"decodeObject(of: [NSString.self], forKey: "text")"#)
  }

  @Test("An untyped decode's fix names the classes a collection under its key holds")
  func untypedDecodeFixFollowsCollections() throws {
    var archive = TestArchive()
    let tags = archive.array([archive.string("a"), .uid(archive.add(.integer(1)))])
    let note = archive.object(["ArchiveCoderTests.SloppySecureNote", "NSObject"], [("text", tags)])
    let result = decoder.decode(
      archive.bytes(root: note), secure: true,
      allowedClasses: ["ArchiveCoderTests.SloppySecureNote"])
    #expect(result.strictnessFindings.first?.fix == ["NSArray", "NSString", "NSNumber"])
  }

  @Test("An untyped decode of a key the archive lacks says the list is the app's to name")
  func untypedDecodeOfAbsentKey() throws {
    var archive = TestArchive()
    let note = archive.object(["ArchiveCoderTests.SloppySecureNote", "NSObject"], [])
    let result = decoder.decode(
      archive.bytes(root: note), secure: true,
      allowedClasses: ["ArchiveCoderTests.SloppySecureNote"])
    let finding = try #require(result.strictnessFindings.first)
    #expect(finding.fix.isEmpty)
    #expect(
      finding.message.hasSuffix(
        #"write decodeObject(of: [], forKey: "text"), naming the classes the key may hold "#
          + "(this archive holds none)"))
  }

  @Test("The legacy path records nothing: only reads that require secure coding are held to it")
  func legacyRecordsNothing() {
    var archive = TestArchive()
    let note = archive.object(
      ["ArchiveCoderTests.SloppySecureNote", "NSObject"], [("text", archive.string("t"))])
    let result = decoder.decode(archive.bytes(root: note), secure: false)
    #expect(result.outcome.decodedValue != nil)
    #expect(result.strictnessFindings.isEmpty)
    #expect(findings(Self.taggedNote(), secure: false, allowed: []).isEmpty)
  }

  @Test("A list that names every class it decodes records nothing")
  func listedClassesRecordNothing() {
    var archive = TestArchive()
    let list = archive.array([archive.string("a")])
    #expect(findings(archive.bytes(root: list), allowed: ["NSArray", "NSString"]).isEmpty)
  }

  @Test("A refused read gives no list findings: an unlisted leaf may be what refused it")
  func refusedReadKeepsOnlyUntypedCalls() {
    // root[0] is an unlisted string, which the read lets in; root[1] is a class it refuses.
    var archive = TestArchive()
    let tags = archive.array([archive.string("a")])
    let note = archive.object(["ArchiveCoderTests.TaggedNote", "NSObject"], [("tags", tags)])
    let list = archive.array([archive.string("first"), note])
    let result = decoder.decode(
      archive.bytes(root: list), secure: true, allowedClasses: ["NSArray"])
    #expect(result.outcome.rejection?.category == .classNotAllowed, "\(result.outcome)")
    #expect(result.strictnessFindings.isEmpty, "\(result.strictnessFindings)")
  }
}
