import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// Binary archives read in place (``KeyedArchive/init(view:limits:)``, which `inspect --format json`
/// writes from): the archive and every error must be those the tree path
/// (``KeyedArchive/init(propertyList:limits:)``) gives.
@Suite("Keyed archives read in place agree with the tree path")
struct KeyedArchiveViewTests {
  /// The legacy archives of the worked example, as paths relative to the package.
  static let legacyArchives: [String] = {
    let root = Corpus.packageRoot.appendingPathComponent("LegacyArchives")
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
    return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".archive") }.sorted()
  }()

  /// The tree path's archive or error.
  private func treeResult(_ bytes: [UInt8], limits: ArchiveLimits) -> Result<
    KeyedArchive, KeyedArchiveError
  > {
    Result { () throws(KeyedArchiveError) in
      try KeyedArchive(readingTree: bytes, limits: limits)
    }
  }

  /// Reads the bytes both ways and returns the error both gave, or `nil` when both read equal archives.
  @discardableResult
  private func expectAgreement(
    _ bytes: [UInt8], limits: ArchiveLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> KeyedArchiveError? {
    let tree = treeResult(bytes, limits: limits)
    let view = Result { () throws(KeyedArchiveError) in
      try KeyedArchive(readingInPlace: bytes, limits: limits)
    }
    switch (tree, view) {
    case (.success(let treeArchive), .success(let viewArchive)):
      #expect(viewArchive == treeArchive, sourceLocation: sourceLocation)
      return nil
    case (.failure(let treeError), .failure(let viewError)):
      #expect(viewError == treeError, sourceLocation: sourceLocation)
      return viewError
    default:
      Issue.record(
        "the view path gave \(view), the tree path \(tree)", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// An archive's bytes from its parts, written by the project's binary writer.
  private func archive(
    archiver: PropertyListValue = .string("NSKeyedArchiver"),
    version: PropertyListValue = .integer(100_000),
    top: PropertyListValue = .dictionary(["root": .uid(1)]),
    objects: [PropertyListValue]
  ) -> [UInt8] {
    BinaryPropertyListWriter().write(
      .dictionary([
        "$archiver": archiver, "$version": version, "$top": top, "$objects": .array(objects),
      ]))
  }

  private let classDescription: PropertyListValue = .dictionary([
    "$classname": .string("Thing"), "$classes": .array([.string("Thing"), .string("NSObject")]),
  ])

  private func instance(_ fields: [(String, PropertyListValue)], classUID: UInt64 = 2)
    -> PropertyListValue
  {
    var dictionary = PropertyListDictionary()
    for (key, value) in fields { dictionary.appendUnchecked(key: key, value: value) }
    dictionary.appendUnchecked(key: "$class", value: .uid(classUID))
    return .dictionary(dictionary)
  }

  @Test(
    "Every real archive reads in place to the tree path's archive or error",
    arguments: Corpus.allFiles)
  func realArchivesAgree(file: String) throws {
    expectAgreement(try Corpus.bytes(file))
  }

  @Test(
    "Every legacy archive reads in place to the tree path's archive or error",
    arguments: legacyArchives)
  func legacyArchivesAgree(file: String) throws {
    let url = Corpus.packageRoot.appendingPathComponent("LegacyArchives").appendingPathComponent(
      file)
    let bytes = try Data(contentsOf: url).withUnsafeBytes { Array($0) }
    expectAgreement(bytes)
  }

  @Test("An archive the builder writes reads in place to the archive it describes")
  func builderArchiveReads() throws {
    var builder = KeyedArchiveBuilder()
    let name = builder.string("Ada")
    let tags = builder.array([builder.string("a"), builder.string("b")])
    let root = builder.object("ProfilesApp.UserProfile", [("name", name), ("tags", tags)])
    builder.setRoot(root)
    let bytes = builder.bytes()
    #expect(expectAgreement(bytes) == nil)
    let archive = try KeyedArchive(readingInPlace: bytes)
    #expect(archive == (try KeyedArchive(propertyList: builder.propertyList)))
    #expect(
      try archive.evaluate(ArchiveKeyPath("name")).first.map { archive.leaf(of: $0.node) }
        == .string("Ada"))
  }

  @Test("A repeated $class key takes its last value, as the tree path merges it")
  func repeatedClassKeyTakesLastValue() throws {
    // The instance's keys: $class, name, $class (UID 9 first, then the valid 2).
    let bytes: [UInt8] = {
      var builder = BinaryPlistBuilder(objects: [])
      // 0 root {$archiver, $version, $top, $objects}; keys 1-4, values 5-8.
      builder.objects = [
        [0xD4, 1, 2, 3, 4, 5, 6, 7, 8],
        [0x59] + Array("$archiver".utf8), [0x58] + Array("$version".utf8),
        [0x54] + Array("$top".utf8), [0x58] + Array("$objects".utf8),
        [0x5F, 0x10, 0x0F] + Array("NSKeyedArchiver".utf8), [0x12, 0x00, 0x01, 0x86, 0xA0],
        [0xD1, 9, 10], [0xA3, 11, 12, 13],
        [0x54] + Array("root".utf8), [0x80, 0x01],
        // 11 $null, 12 the instance, 13 the class description.
        [0x55] + Array("$null".utf8), [0xD3, 14, 15, 14, 16, 11, 17],
        [0xD1, 18, 19],
        [0x56] + Array("$class".utf8), [0x54] + Array("name".utf8), [0x80, 0x09], [0x80, 0x02],
        [0x5A] + Array("$classname".utf8), [0x55] + Array("Thing".utf8),
      ]
      return builder.build()
    }()
    #expect(expectAgreement(bytes) == nil)
    let archive = try KeyedArchive(readingInPlace: bytes)
    #expect(archive.instance(at: 1)?.className == "Thing")
    #expect(archive.instance(at: 1)?.fields.keys == ["name"])
  }

  // MARK: - Refusals, each with the tree path's code, key path and object index

  @Test("Refuses a property list that is not a dictionary")
  func refusesNonDictionary() {
    let error = expectAgreement(BinaryPropertyListWriter().write(.array([])))
    #expect(error?.code == .notAnArchive)
  }

  @Test("Refuses a syntax error with the property-list error and its offset")
  func refusesSyntaxError() {
    let error = expectAgreement(Array("bplist00".utf8) + [1, 2, 3])
    #expect(error?.code == .propertyList)
    #expect(error?.propertyListError?.code == .truncated)
  }

  @Test("Refuses an archive with no $archiver")
  func refusesMissingArchiver() {
    let bytes = BinaryPropertyListWriter().write(.dictionary(["$version": .integer(100_000)]))
    #expect(expectAgreement(bytes)?.code == .missingArchiver)
  }

  @Test("Refuses an $archiver that is not a string")
  func refusesNonStringArchiver() {
    #expect(expectAgreement(archive(archiver: .integer(1), objects: []))?.code == .invalidType)
  }

  @Test("Refuses an $archiver that is not NSKeyedArchiver")
  func refusesWrongArchiver() {
    #expect(expectAgreement(archive(archiver: .string("X"), objects: []))?.code == .wrongArchiver)
  }

  @Test("Refuses a $version that is not 100000")
  func refusesWrongVersion() {
    #expect(expectAgreement(archive(version: .integer(7), objects: []))?.code == .unknownVersion)
  }

  @Test("Refuses a $version that is not an integer")
  func refusesNonIntegerVersion() {
    let error = expectAgreement(archive(version: .array([]), objects: []))
    #expect(error?.code == .unknownVersion)
    #expect(error?.message == "$version is a array, not 100000")
  }

  @Test("Refuses a $top that is not a dictionary")
  func refusesNonDictionaryTop() {
    #expect(expectAgreement(archive(top: .string("x"), objects: []))?.code == .invalidType)
  }

  @Test("Refuses an archive with no $objects")
  func refusesMissingObjects() {
    let bytes = BinaryPropertyListWriter().write(
      .dictionary([
        "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
        "$top": .dictionary([:]),
      ]))
    #expect(expectAgreement(bytes)?.code == .missingObjects)
  }

  @Test("Refuses $objects over the object limit")
  func refusesTooManyObjects() {
    var limits = ArchiveLimits()
    limits.propertyList.maximumObjectCount = 40
    let bytes = archive(top: .dictionary([:]), objects: (0..<50).map { .integer($0) })
    let error = expectAgreement(bytes, limits: limits)
    #expect(error?.code == .limitExceeded)
  }

  @Test("Refuses a $class that is not a UID")
  func refusesNonUIDClass() {
    let bytes = archive(objects: [
      .string("$null"), .dictionary(["$class": .integer(2)]), classDescription,
    ])
    let error = expectAgreement(bytes)
    #expect(error?.code == .invalidType)
    #expect(error?.keyPath == "$objects[1].$class")
    #expect(error?.objectIndex == 1)
  }

  @Test("Refuses a $class UID past the end of $objects")
  func refusesClassUIDOutOfRange() {
    let bytes = archive(objects: [.string("$null"), instance([], classUID: 3), classDescription])
    #expect(expectAgreement(bytes)?.code == .uidOutOfRange)
  }

  @Test("Refuses a $class that points at something other than a class description")
  func refusesClassReferenceToInstance() {
    let bytes = archive(objects: [.string("$null"), instance([], classUID: 1), classDescription])
    let error = expectAgreement(bytes)
    #expect(error?.code == .invalidClassReference)
    #expect(error?.objectIndex == 1)
  }

  @Test("Refuses a $class that points at a string")
  func refusesClassReferenceToString() {
    let bytes = archive(objects: [.string("$null"), instance([], classUID: 0), classDescription])
    #expect(expectAgreement(bytes)?.code == .invalidClassReference)
  }

  @Test("Refuses a class description with $classes but no $classname")
  func refusesMissingClassName() {
    let bytes = archive(objects: [
      .string("$null"), instance([]), .dictionary(["$classes": .array([])]),
    ])
    let error = expectAgreement(bytes)
    #expect(error?.code == .missingClassName)
    #expect(error?.objectIndex == 2)
  }

  @Test("Refuses a $classname that is not a string")
  func refusesNonStringClassName() {
    let bytes = archive(objects: [
      .string("$null"), instance([]), .dictionary(["$classname": .integer(1)]),
    ])
    #expect(expectAgreement(bytes)?.code == .invalidClassName)
  }

  @Test("Refuses a $classes that is not an array")
  func refusesNonArrayClassChain() {
    let bytes = archive(objects: [
      .string("$null"), instance([]),
      .dictionary(["$classname": .string("Thing"), "$classes": .string("Thing")]),
    ])
    #expect(expectAgreement(bytes)?.code == .invalidClassChain)
  }

  @Test("Refuses a $classes that holds something other than a class name")
  func refusesNonStringInClassChain() {
    let bytes = archive(objects: [
      .string("$null"), instance([]),
      .dictionary(["$classname": .string("Thing"), "$classes": .array([.integer(1)])]),
    ])
    let error = expectAgreement(bytes)
    #expect(error?.code == .invalidClassChain)
    #expect(error?.keyPath == "$objects[2].$classes[0]")
  }

  @Test("Refuses a class description only an entry after it refers to, at its own index")
  func refusesStandaloneBadClassDescription() {
    let bytes = archive(objects: [
      .string("$null"),
      .dictionary(["$classes": .array([.integer(1)]), "$classname": .string("A")]),
    ])
    #expect(expectAgreement(bytes)?.code == .invalidClassChain)
  }

  @Test("Refuses a dictionary in $objects that is neither an instance nor a class description")
  func refusesPlainDictionary() {
    let bytes = archive(objects: [.string("$null"), .dictionary(["x": .integer(1)])])
    #expect(expectAgreement(bytes)?.code == .invalidObject)
  }

  @Test("Refuses a UID standing directly in $objects")
  func refusesBareUID() {
    let bytes = archive(objects: [.string("$null"), .uid(0)])
    #expect(expectAgreement(bytes)?.code == .invalidObject)
  }

  @Test("Refuses a field UID past the end of $objects, naming the field")
  func refusesFieldUIDOutOfRange() {
    let bytes = archive(objects: [
      .string("$null"), instance([("name", .uid(99))]), classDescription,
    ])
    let error = expectAgreement(bytes)
    #expect(error?.code == .uidOutOfRange)
    #expect(error?.keyPath == "$objects[1].name")
  }

  @Test("Refuses a UID past the end of $objects nested in a field's array")
  func refusesNestedFieldUIDOutOfRange() {
    let bytes = archive(objects: [
      .string("$null"), instance([("NS.objects", .array([.uid(1), .uid(42)]))]), classDescription,
    ])
    let error = expectAgreement(bytes)
    #expect(error?.keyPath == "$objects[1].NS.objects[1]")
  }

  @Test("Refuses a UID past the end of $objects in an array stored in $objects")
  func refusesUIDInStoredArray() {
    let bytes = archive(objects: [.string("$null"), .array([.uid(0), .uid(5)])])
    let error = expectAgreement(bytes)
    #expect(error?.keyPath == "$objects[1][1]")
  }

  @Test("Refuses a $top UID past the end of $objects")
  func refusesTopUIDOutOfRange() {
    let bytes = archive(top: .dictionary(["root": .uid(8)]), objects: [.string("$null")])
    let error = expectAgreement(bytes)
    #expect(error?.code == .uidOutOfRange)
    #expect(error?.keyPath == "$top.root")
  }
}
