import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import ProfileKit
import Testing

/// Every rule of the harness coder, one named test each, over archives from the project's writer.
@Suite("Harness coder rules")
struct HarnessUnarchiverTests {
  let decoder: HarnessDecoder
  let unmappedDecoder: HarnessDecoder

  static let profileClasses = ["ProfileKit.UserProfile", "ProfileKit.Address"]

  init() throws {
    let registry = ClassRegistry(modelClasses: TestModels.classes)
    decoder = HarnessDecoder(
      registry: registry, classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
    unmappedDecoder = HarnessDecoder(registry: registry)
  }

  private func rejection(
    _ bytes: [UInt8], secure: Bool, allowed: [String] = [], decoder: HarnessDecoder? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> DecodeRejection {
    let outcome = (decoder ?? self.decoder).decode(bytes, secure: secure, allowedClasses: allowed)
      .outcome
    return try #require(
      outcome.rejection, "expected a rejection, got \(outcome)", sourceLocation: sourceLocation)
  }

  // MARK: - Decoding

  @Test("A v1 profile decodes into v2 classes through a module rename, both modes")
  func moduleRenameDecodes() throws {
    for secure in [false, true] {
      let result = decoder.decode(
        SampleArchives.profileArchive(), secure: secure, allowedClasses: Self.profileClasses)
      let profile = try #require(result.object as? ProfileKit.UserProfile)
      #expect(profile.name == "Ada")
      #expect(profile.id == 42)
      #expect(profile.isActive)
      #expect(profile.address.city == "Cupertino")
      #expect(result.outcome.decodedValue?.className == "ProfileKit.UserProfile")
    }
  }

  @Test("A Swift mangled class name maps to the registered class")
  func mangledNameDecodes() throws {
    var archive = TestArchive()
    let address = archive.object(
      ["_TtC11ProfilesApp7Address", "NSObject"],
      [("street", archive.string("Main")), ("city", archive.string("Town"))])
    let result = decoder.decode(
      archive.bytes(root: address), secure: true, allowedClasses: ["ProfileKit.Address"])
    #expect((result.object as? ProfileKit.Address)?.city == "Town")
  }

  @Test("A class known only through its archived superclass chain decodes as that superclass")
  func chainOnlyNameDecodes() throws {
    var archive = TestArchive()
    let address = SampleArchives.address(&archive)
    let profile = archive.object(
      ["ProfilesApp.PremiumProfile", "ProfilesApp.UserProfile", "NSObject"],
      [
        ("id", .integer(7)), ("name", archive.string("Grace")), ("isActive", .bool(false)),
        ("address", address),
      ])
    let result = decoder.decode(
      archive.bytes(root: profile), secure: true, allowedClasses: Self.profileClasses)
    #expect((result.object as? ProfileKit.UserProfile)?.name == "Grace")
    #expect(
      result.warnings == [
        "secure: root: class 'ProfilesApp.PremiumProfile' (through its archived superclass "
          + "'ProfilesApp.UserProfile', mapped to 'ProfileKit.UserProfile') is not registered "
          + "itself; it is decoded as the registered class its archived superclass names"
      ])
  }

  @Test("The per-call rule: a nested class need not be in the top-level set")
  func nestedClassPassesItsOwnCall() {
    let result = decoder.decode(
      SampleArchives.profileArchive(), secure: true, allowedClasses: ["ProfileKit.UserProfile"])
    #expect(result.outcome.decodedValue != nil)
  }

  @Test("SAP's stricter rule: a nested class missing from the top-level set is a warning")
  func stricterRuleWarns() {
    let result = decoder.decode(
      SampleArchives.profileArchive(), secure: true, allowedClasses: ["ProfileKit.UserProfile"])
    #expect(result.warnings.count == 1)
    #expect(
      result.warnings.first?.contains(
        "class 'ProfileKit.Address' passes its own decodeObject(of:forKey:) call") == true)
    let strict = decoder.decode(
      SampleArchives.profileArchive(), secure: true, allowedClasses: Self.profileClasses)
    #expect(strict.warnings.isEmpty)
  }

  @Test("A shared reference is decoded once: both uses are the same object")
  func sharedReferenceDecodedOnce() throws {
    var archive = TestArchive()
    let profile = SampleArchives.profile(&archive)
    let list = archive.array([profile, profile])
    let result = decoder.decode(
      archive.bytes(root: list), secure: true,
      allowedClasses: ["NSArray"] + Self.profileClasses)
    let array = try #require(result.object as? NSArray)
    #expect(array.count == 2)
    // `===` inside #expect crashes the 6.3.1 compiler (SILGen reabstraction thunk).
    let first = ObjectIdentifier(array[0] as AnyObject)
    let second = ObjectIdentifier(array[1] as AnyObject)
    #expect(first == second)
  }

  @Test("NSMutableString passes under NSString by the real hierarchy")
  func subclassPassesUnderSuperclass() throws {
    var archive = TestArchive()
    let name = archive.object(
      ["NSMutableString", "NSString", "NSObject"], [("NS.string", .string("Ada"))])
    let address = SampleArchives.address(&archive)
    let profile = archive.object(
      ["ProfilesApp.UserProfile", "NSObject"],
      [("id", .integer(1)), ("name", name), ("isActive", .bool(true)), ("address", address)])
    let result = decoder.decode(
      archive.bytes(root: profile), secure: true, allowedClasses: Self.profileClasses)
    #expect((result.object as? ProfileKit.UserProfile)?.name == "Ada")
  }

  @Test("Scalars decode at every width")
  func scalarsDecode() throws {
    var archive = TestArchive()
    let root = archive.object(
      ["ArchiveCoderTests.Scalars", "NSObject"],
      [
        ("small", .integer(-5)), ("large", .integer(1 << 40)), ("ratio", .real(0.5)),
        ("scale", .real(2)), ("flag", .bool(true)),
      ])
    let result = decoder.decode(
      archive.bytes(root: root), secure: true, allowedClasses: ["ArchiveCoderTests.Scalars"])
    let scalars = try #require(result.object as? Scalars)
    #expect(scalars.small == -5)
    #expect(scalars.large == 1 << 40)
    #expect(scalars.ratio == 0.5)
    #expect(scalars.scale == 2)
    #expect(scalars.flag)
  }

  @Test("Foundation values decode from their archived forms")
  func foundationValuesDecode() throws {
    var archive = TestArchive()
    let date = archive.object(["NSDate", "NSObject"], [("NS.time", .real(1000))])
    let data = archive.object(["NSData", "NSObject"], [("NS.data", .data([1, 2, 3]))])
    let uuid = archive.object(
      ["NSUUID", "NSObject"], [("NS.uuidbytes", .data(Array(repeating: 0xAB, count: 16)))])
    let url = archive.object(
      ["NSURL", "NSObject"],
      [("NS.base", .uid(0)), ("NS.relative", archive.string("https://x.org/a"))])
    let null = archive.object(["NSNull", "NSObject"], [])
    let set = archive.object(
      ["NSSet", "NSObject"], [("NS.objects", .array([archive.string("s")]))])
    let dictionary = archive.dictionary([
      ("date", date), ("data", data), ("uuid", uuid), ("url", url), ("null", null), ("set", set),
    ])
    let result = decoder.decode(
      archive.bytes(root: dictionary), secure: true,
      allowedClasses: ["NSDictionary", "NSDate", "NSData", "NSUUID", "NSURL", "NSNull", "NSSet"])
    guard case .dictionary(_, let entries)? = result.outcome.decodedValue else {
      Issue.record("expected a dictionary, got \(result.outcome)")
      return
    }
    let byKey = Dictionary(uniqueKeysWithValues: entries.map { ($0.key.description, $0.value) })
    #expect(byKey["\"date\""] == .date(1000))
    #expect(byKey["\"data\""] == .data([1, 2, 3]))
    #expect(byKey["\"uuid\""] == .uuid("ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB"))
    #expect(byKey["\"url\""] == .url("https://x.org/a"))
    #expect(byKey["\"null\""] == .null)
    #expect(byKey["\"set\""] == .set(className: "NSSet", elements: [.string("s")]))
  }

  @Test("A list of profiles inside a secure object decodes with element classes")
  func nestedListDecodes() throws {
    var archive = TestArchive()
    let first = SampleArchives.profile(&archive)
    let list = archive.array([first])
    let team = archive.object(["ArchiveCoderTests.Team", "NSObject"], [("members", list)])
    let result = decoder.decode(
      archive.bytes(root: team), secure: true, allowedClasses: ["ArchiveCoderTests.Team"])
    #expect((result.object as? Team)?.members.first?.name == "Ada")
  }

  @Test("An object written the pre-keyed way is described, not trapped on")
  func unkeyedWriterIsDescribed() throws {
    var archive = TestArchive()
    let root = archive.object(["ArchiveCoderTests.UnkeyedWriter", "NSObject"], [])
    let result = decoder.decode(
      archive.bytes(root: root), secure: true, allowedClasses: ["ArchiveCoderTests.UnkeyedWriter"])
    #expect(result.outcome.decodedValue?[field: "$unkeyed"] == .integer(2))
  }

  @Test("Bytes decode through the platform's bytes call (withDecodedUnsafeBytes on corelibs)")
  func bytesDecode() throws {
    var archive = TestArchive()
    let root = archive.object(
      ["ArchiveCoderTests.ByteReader", "NSObject"], [("blob", .data([7, 8]))])
    let result = decoder.decode(
      archive.bytes(root: root), secure: true, allowedClasses: ["ArchiveCoderTests.ByteReader"])
    #expect((result.object as? ByteReader)?.bytes == [7, 8])
  }

  @Test("Rule: unkeyed decoding is malformed, not a trap")
  func unkeyedDecodingRejected() throws {
    var archive = TestArchive()
    let root = archive.object(
      ["ArchiveCoderTests.ByteReader", "NSObject"], [("unkeyed", .bool(true))])
    let rejection = try self.rejection(
      archive.bytes(root: root), secure: true, allowed: ["ArchiveCoderTests.ByteReader"])
    #expect(rejection.category == .malformed)
    #expect(rejection.message.contains("unkeyed decoding is not supported"))
  }

  // MARK: - Rejections

  @Test("Rule: a root outside the allowed classes is wrong-root-class")
  func rootOutsideSet() throws {
    let rejection = try self.rejection(
      SampleArchives.profileArchive(), secure: true, allowed: ["ProfileKit.Memo"])
    #expect(rejection.category == .wrongRootClass)
    #expect(rejection.keyPath == "root")
    #expect(
      rejection.message
        == "secure: root: class 'ProfilesApp.UserProfile' (mapped to 'ProfileKit.UserProfile') "
        + "is not in the allowed classes [ProfileKit.Memo]")
  }

  @Test("Rule: an inline string where a Memo is expected is wrong-root-class")
  func inlineStringRootIsWrongRootClass() throws {
    var archive = TestArchive()
    let root = archive.string("not a memo")
    let rejection = try self.rejection(
      archive.bytes(root: root), secure: true, allowed: ["ProfileKit.Memo"])
    #expect(rejection.category == .wrongRootClass)
  }

  @Test("Rule: a nested class outside its call's set is class-not-allowed")
  func nestedClassOutsideCallSet() throws {
    var archive = TestArchive()
    let address = SampleArchives.address(&archive)
    let holder = archive.object(
      ["ArchiveCoderTests.StrictHolder", "NSObject"], [("address", address)])
    let rejection = try self.rejection(
      archive.bytes(root: holder), secure: true, allowed: ["ArchiveCoderTests.StrictHolder"])
    #expect(rejection.category == .classNotAllowed)
    #expect(rejection.keyPath == "root.address")
    #expect(
      rejection.message
        == "secure: root.address: class 'ProfilesApp.Address' (mapped to 'ProfileKit.Address') "
        + "is not in the allowed classes [ProfileKit.UserProfile, NSString]")
  }

  @Test("Rule: class substitution (NSDictionary for Address) is class-not-allowed")
  func substitutedClassRejected() throws {
    var archive = TestArchive()
    let fake = archive.dictionary([("street", archive.string("x"))])
    let profile = SampleArchives.profile(&archive, address: fake)
    let rejection = try self.rejection(
      archive.bytes(root: profile), secure: true, allowed: Self.profileClasses)
    #expect(rejection.category == .classNotAllowed)
    #expect(rejection.keyPath == "root.address")
  }

  @Test("Rule: a container element outside the set is class-not-allowed")
  func containerElementOutsideSet() throws {
    var archive = TestArchive()
    let profile = SampleArchives.profile(&archive)
    let memo = archive.object(
      ["ProfilesApp.Memo", "NSObject"], [("schema", .integer(1)), ("text", archive.string("t"))])
    let list = archive.array([profile, memo])
    let rejection = try self.rejection(
      archive.bytes(root: list), secure: true, allowed: ["NSArray"] + Self.profileClasses)
    #expect(rejection.category == .classNotAllowed)
    #expect(rejection.keyPath == "root[1]")
    #expect(rejection.message.contains("container element class 'ProfilesApp.Memo'"))
  }

  @Test("Rule: allowedClasses missing the container class rejects the array")
  func missingContainerClass() throws {
    var archive = TestArchive()
    let profile = SampleArchives.profile(&archive)
    let list = archive.array([profile])
    let rejection = try self.rejection(
      archive.bytes(root: list), secure: true, allowed: Self.profileClasses)
    #expect(rejection.category == .wrongRootClass)
    #expect(rejection.message.contains("class 'NSArray' is not in the allowed classes"))
  }

  @Test("Rule: a class without NSSecureCoding is not-secure-coding")
  func nonSecureClass() throws {
    var archive = TestArchive()
    let note = archive.object(
      ["ArchiveCoderTests.PlainNote", "NSObject"], [("text", archive.string("t"))])
    let bytes = archive.bytes(root: note)
    let rejection = try self.rejection(
      bytes, secure: true, allowed: ["ArchiveCoderTests.PlainNote"])
    #expect(rejection.category == .notSecureCoding)
    #expect(decoder.decode(bytes, secure: false).outcome.decodedValue != nil)
  }

  @Test("Rule: plain decodeObject(forKey:) under secure coding is not-secure-coding")
  func plainDecodeUnderSecure() throws {
    var archive = TestArchive()
    let note = archive.object(
      ["ArchiveCoderTests.SloppySecureNote", "NSObject"], [("text", archive.string("t"))])
    let bytes = archive.bytes(root: note)
    let rejection = try self.rejection(
      bytes, secure: true, allowed: ["ArchiveCoderTests.SloppySecureNote"])
    #expect(rejection.category == .notSecureCoding)
    #expect(rejection.keyPath == "root.text")
    #expect(rejection.message.contains("plain decodeObject(forKey:) under secure coding"))
    #expect(decoder.decode(bytes, secure: false).outcome.decodedValue != nil)
  }

  @Test("Rule: a renamed class left out of the mapping is unmapped-class")
  func renamedClassWithoutMapping() throws {
    let rejection = try self.rejection(
      SampleArchives.profileArchive(), secure: false, decoder: unmappedDecoder)
    #expect(rejection.category == .unmappedClass)
    #expect(rejection.message.contains("class 'ProfilesApp.UserProfile' is not registered"))
  }

  @Test("Rule: a class map whose target is not registered says the target is missing")
  func mappedToUnregisteredTarget() throws {
    let decoder = HarnessDecoder(
      registry: ClassRegistry(modelClasses: TestModels.classes),
      classMap: try ClassNameMap(parsing: "ProfilesApp.UserProfile=ProfileKit.Missing"))
    let rejection = try self.rejection(
      SampleArchives.profileArchive(), secure: false, decoder: decoder)
    #expect(rejection.category == .unmappedClass)
    #expect(
      rejection.message.contains(
        "class 'ProfilesApp.UserProfile' maps to 'ProfileKit.Missing' by the class map, but "
          + "'ProfileKit.Missing' is not a registered class"))
    #expect(rejection.message.contains("register 'ProfileKit.Missing'"))
  }

  @Test("Rule: a module rename into a module with no such class says the target is missing")
  func moduleRenameToUnregisteredTarget() throws {
    let decoder = HarnessDecoder(
      registry: ClassRegistry(modelClasses: TestModels.classes),
      classMap: try ClassNameMap(parsing: "ProfilesApp.*=Elsewhere.*"))
    let rejection = try self.rejection(
      SampleArchives.profileArchive(), secure: false, decoder: decoder)
    #expect(rejection.category == .unmappedClass)
    #expect(rejection.message.contains("maps to 'Elsewhere.UserProfile' by the class map"))
  }

  @Test("Rule: a spoofed $classes chain does not make a class pass")
  func spoofedChainRejected() throws {
    var archive = TestArchive()
    let spoof = archive.object(
      ["NSDictionary", "ProfileKit.Address", "NSObject"],
      [("NS.keys", .array([])), ("NS.objects", .array([]))])
    let profile = SampleArchives.profile(&archive, address: spoof)
    let rejection = try self.rejection(
      archive.bytes(root: profile), secure: true, allowed: Self.profileClasses)
    #expect(rejection.category == .classNotAllowed)
    #expect(rejection.message.contains("class 'NSDictionary' is not in the allowed classes"))
  }

  @Test("Rule: a spoofed chain on the root does not pass the root check")
  func spoofedRootChainRejected() throws {
    var archive = TestArchive()
    let spoof = archive.object(
      ["NSMutableArray", "ProfileKit.Memo", "NSObject"], [("NS.objects", .array([]))])
    let rejection = try self.rejection(
      archive.bytes(root: spoof), secure: true, allowed: ["ProfileKit.Memo"])
    #expect(rejection.category == .wrongRootClass)
  }

  @Test("Rule: a cycle is reported as cycle")
  func cycleRejected() throws {
    var archive = TestArchive()
    let array = archive.reserve()
    let arrayClass = archive.classReference(["NSArray", "NSObject"])
    archive.set(
      array,
      .dictionary(
        PropertyListDictionary([
          ("$class", .uid(arrayClass)), ("NS.objects", .array([.uid(array)])),
        ])
      ))
    let rejection = try self.rejection(
      archive.bytes(root: .uid(array)), secure: true, allowed: ["NSArray"])
    #expect(rejection.category == .cycle)
    #expect(rejection.keyPath == "root[0]")
  }

  @Test("Rule: a profile whose address refers back to the profile is a cycle")
  func objectCycleRejected() throws {
    var archive = TestArchive()
    let profile = archive.reserve()
    let value = archive.objectValue(
      ["ProfilesApp.UserProfile", "NSObject"],
      [
        ("id", .integer(1)), ("name", archive.string("Loop")), ("isActive", .bool(true)),
        ("address", .uid(profile)),
      ])
    archive.set(profile, value)
    let rejection = try self.rejection(archive.bytes(root: .uid(profile)), secure: false)
    #expect(rejection.category == .cycle)
    #expect(rejection.keyPath == "root.address")
  }

  @Test("Rule: a user init that returns nil is init-returned-nil")
  func userInitReturnsNil() throws {
    var archive = TestArchive()
    let noAddress = archive.object(
      ["ProfilesApp.UserProfile", "NSObject"],
      [("id", .integer(1)), ("name", archive.string("x")), ("address", .uid(0))])
    let rejection = try self.rejection(
      archive.bytes(root: noAddress), secure: true, allowed: Self.profileClasses)
    #expect(rejection.category == .initReturnedNil)
    #expect(rejection.message.contains("init?(coder:) of 'ProfileKit.UserProfile' returned nil"))
  }

  @Test("Rule: failWithError in a user init is init-failed with the user's reason")
  func userInitFailsWithError() throws {
    let rejection = try self.rejection(
      SampleArchives.memoArchive(schema: 2), secure: true, allowed: ["ProfileKit.Memo"])
    #expect(rejection.category == .initFailed)
    #expect(rejection.message.hasSuffix("memo schema 2 is not supported"))
  }

  @Test("Rule: a memo without a schema key is refused, not read as schema 0")
  func memoWithoutSchemaRefused() throws {
    let rejection = try self.rejection(
      SampleArchives.memoArchive(schema: nil), secure: true, allowed: ["ProfileKit.Memo"])
    #expect(rejection.category == .initFailed)
    #expect(rejection.message.contains("memo has no 'schema' key"))
  }

  @Test("Rule: text over 4096 UTF-16 units is refused")
  func memoTextOverLimitRefused() throws {
    let rejection = try self.rejection(
      SampleArchives.memoArchive(text: String(repeating: "é", count: 4097)), secure: true,
      allowed: ["ProfileKit.Memo"])
    #expect(rejection.category == .initFailed)
    #expect(rejection.message.contains("4097 UTF-16 units"))
  }

  @Test("Rule: a missing required field is missing-field with its key path")
  func missingFieldRejected() throws {
    let rejection = try self.rejection(
      SampleArchives.memoArchive(text: nil), secure: true, allowed: ["ProfileKit.Memo"])
    #expect(rejection.category == .missingField)
    #expect(rejection.keyPath == "root.text")
  }

  @Test("Rule: a string where an integer is read is type-mismatch")
  func integerTypeMismatch() throws {
    var archive = TestArchive()
    let address = SampleArchives.address(&archive)
    let profile = archive.object(
      ["ProfilesApp.UserProfile", "NSObject"],
      [
        ("id", archive.string("42")), ("name", archive.string("x")), ("isActive", .bool(true)),
        ("address", address),
      ])
    let rejection = try self.rejection(
      archive.bytes(root: profile), secure: true, allowed: Self.profileClasses)
    #expect(rejection.category == .typeMismatch)
    #expect(rejection.keyPath == "root.id")
  }

  @Test("Rule: an integer that does not fit Int32 is type-mismatch")
  func int32Overflow() throws {
    var archive = TestArchive()
    let root = archive.object(
      ["ArchiveCoderTests.Scalars", "NSObject"], [("small", .integer(1 << 40))])
    let rejection = try self.rejection(
      archive.bytes(root: root), secure: true, allowed: ["ArchiveCoderTests.Scalars"])
    #expect(rejection.category == .typeMismatch)
    #expect(rejection.message.contains("does not fit in Int32"))
  }

  @Test("Rule: an inline string where an Address is read is type-mismatch")
  func inlineLeafForObjectIsTypeMismatch() throws {
    var archive = TestArchive()
    let profile = SampleArchives.profile(&archive, address: archive.string("1 Loop"))
    let result = decoder.decode(
      archive.bytes(root: profile), secure: true, allowedClasses: Self.profileClasses)
    #expect(result.outcome.rejection?.category == .typeMismatch)
    #expect(result.warnings.contains { $0.contains("will be disallowed in the future") })
  }

  @Test("Rule: nesting deeper than the limit is limit-exceeded")
  func depthLimit() throws {
    var archive = TestArchive()
    var inner = archive.array([])
    for _ in 0..<20 { inner = archive.array([inner]) }
    var shallow = decoder
    shallow.maximumDepth = 8
    let rejection = try self.rejection(
      archive.bytes(root: inner), secure: true, allowed: ["NSArray"], decoder: shallow)
    #expect(rejection.category == .limitExceeded)
  }

  @Test("Rule: NS.keys and NS.objects of different lengths are malformed")
  func dictionaryCountMismatch() throws {
    var archive = TestArchive()
    let dictionary = archive.object(
      ["NSDictionary", "NSObject"],
      [
        ("NS.keys", .array([archive.string("a"), archive.string("b")])),
        ("NS.objects", .array([archive.string("1")])),
      ])
    let rejection = try self.rejection(
      archive.bytes(root: dictionary), secure: true, allowed: ["NSDictionary"])
    #expect(rejection.category == .malformed)
    #expect(rejection.message.contains("NS.keys has 2 entries but NS.objects has 1"))
  }

  @Test("Rule: truncated input is malformed")
  func truncatedInput() throws {
    let rejection = try self.rejection(
      Array(SampleArchives.profileArchive().prefix(12)), secure: true, allowed: Self.profileClasses)
    #expect(rejection.category == .malformed)
  }

  @Test(
    "After a nested failure: error is set, later decodes return zero, policy is setErrorAndReturn")
  func failurePoisonsLaterDecodes() throws {
    var archive = TestArchive()
    let address = SampleArchives.address(&archive)
    let probe = archive.object(
      ["ArchiveCoderTests.ErrorProbe", "NSObject"], [("bad", address), ("number", .integer(9))])
    let rejection = try self.rejection(
      archive.bytes(root: probe), secure: true, allowed: ["ArchiveCoderTests.ErrorProbe"])
    #expect(rejection.category == .classNotAllowed)
    #expect(rejection.keyPath == "root.bad")
    let seen = try #require(ErrorProbeLog.shared.last)
    #expect(seen.errorSet)
    #expect(seen.laterInteger == 0)
    #expect(seen.policy == NSCoder.DecodingFailurePolicy.setErrorAndReturn.rawValue)
  }
}
