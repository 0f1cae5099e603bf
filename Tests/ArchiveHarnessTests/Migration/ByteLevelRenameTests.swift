import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Rename-only at the byte level (issue 28): class-name strings and the offset table are
/// written anew, every other object is copied, and the result is re-read and compared.
@Suite("Rename-only at the byte level")
struct ByteLevelRenameTests {
  /// Every class of the sample app, by its 1.0 and its 1.1 (mangled) name, to `ProfileKit`.
  static let mapping = ClassNameMapping([
    "ProfilesApp.UserProfile": "ProfileKit.UserProfile",
    "ProfilesApp.Address": "ProfileKit.Address",
    "ProfilesApp.PostalAddress": "ProfileKit.PostalAddress",
    "ProfilesApp.Memo": "ProfileKit.Memo",
    "_TtC11ProfilesApp11UserProfile": "ProfileKit.UserProfile",
    "_TtC11ProfilesApp7Address": "ProfileKit.Address",
    "_TtC11ProfilesApp13PostalAddress": "ProfileKit.PostalAddress",
    "_TtC11ProfilesApp4Memo": "ProfileKit.Memo",
  ])

  /// The legacy archives of the worked example that read as keyed archives, by relative path.
  static func legacyArchives() throws -> [(path: String, bytes: [UInt8], archive: KeyedArchive)] {
    let root = Corpus.packageRoot.appendingPathComponent("LegacyArchives")
    let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
    var result: [(String, [UInt8], KeyedArchive)] = []
    for case let path as String in enumerator where path.hasSuffix(".archive") {
      let bytes = Array(try Data(contentsOf: root.appendingPathComponent(path)))
      guard let archive = try? KeyedArchive(bytes: bytes) else { continue }
      result.append((path, bytes, archive))
    }
    return result.sorted { $0.0 < $1.0 }
  }

  /// The byte-level rename of an archive's bytes.
  private func byteRename(_ bytes: [UInt8], mapping: ClassNameMapping = mapping) throws
    -> ByteLevelRename.Outcome
  {
    let archive = try KeyedArchive(bytes: bytes)
    return ByteLevelRename(mapping: mapping, limits: .default).run(
      bytes, archive: archive, view: nil)
  }

  /// A record's plan through the rename-only transform.
  private func plan(_ bytes: [UInt8], mapping: ClassNameMapping = mapping) -> RecordPlan {
    let record = StoreRecord(
      id: .file(path: "/store/x.archive", relativePath: "x.archive"), content: .bytes(bytes))
    return RecordMigrator(transform: RenameOnlyTransform(mapping: mapping)).plan(record)
  }

  /// Whether `bytes` hold `text` as a run of bytes.
  private func contains(_ bytes: [UInt8], _ text: String) -> Bool {
    let needle = Array(text.utf8)
    guard needle.count <= bytes.count else { return false }
    return (0...(bytes.count - needle.count)).contains { start in
      bytes[start..<(start + needle.count)].elementsEqual(needle)
    }
  }

  /// Checks with Python's plistlib that each renamed file reads, is binary, and equals its
  /// original with the class descriptions' names mapped; `nil` when python3 is not here.
  private func plistlibAgrees(_ pairs: [(original: [UInt8], renamed: [UInt8])]) throws -> String? {
    let folder = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var paths: [String] = []
    for (index, pair) in pairs.enumerated() {
      let original = folder + "/\(index).original"
      let renamed = folder + "/\(index).renamed"
      try Data(pair.original).write(to: URL(fileURLWithPath: original))
      try Data(pair.renamed).write(to: URL(fileURLWithPath: renamed))
      paths += [original, renamed]
    }
    let mappingFile = folder + "/mapping.json"
    let mappingJSON = try JSONSerialization.data(withJSONObject: Self.mapping.names)
    try mappingJSON.write(to: URL(fileURLWithPath: mappingFile))
    let program = """
      import json, plistlib, sys
      mapping = json.load(open(sys.argv[1]))
      paths = sys.argv[2:]
      for original_path, renamed_path in zip(paths[0::2], paths[1::2]):
          renamed_bytes = open(renamed_path, "rb").read()
          assert renamed_bytes.startswith(b"bplist00"), renamed_path
          original = plistlib.loads(open(original_path, "rb").read())
          renamed = plistlib.loads(renamed_bytes, fmt=plistlib.FMT_BINARY)
          for entry in original["$objects"]:
              if isinstance(entry, dict) and "$class" not in entry and "$classname" in entry:
                  entry["$classname"] = mapping.get(entry["$classname"], entry["$classname"])
                  if "$classes" in entry:
                      entry["$classes"] = [mapping.get(name, name) for name in entry["$classes"]]
          assert original == renamed, (original_path, original, renamed)
      print("ok", len(paths) // 2)
      """
    guard
      let result = try? CommandRunner.run(
        program: "/usr/bin/env", ["python3", "-c", program, mappingFile] + paths)
    else { return nil }
    return result.stdout + result.stderr
  }

  /// Whether python3 can be run here.
  static let hasPython =
    (try? CommandRunner.run(program: "/usr/bin/env", ["python3", "-c", "import plistlib"]))?
    .status == 0

  @Test("The legacy archives rename at the byte level, equal to the graph path's result")
  func legacyArchivesRename() throws {
    let archives = try Self.legacyArchives()
    #expect(archives.count >= 16)
    var renamedCount = 0
    for (path, bytes, archive) in archives {
      let hasMappedClass = archive.objects.contains {
        if case .classDescription(let description) = $0 {
          return Self.mapping.map(description.name) != description.name
        }
        return false
      }
      let result = plan(bytes)
      guard hasMappedClass else {
        #expect(result.outcome == .alreadyCurrent, "\(path)")
        continue
      }
      guard case .rewritten(let renamed, let reread) = try byteRename(bytes) else {
        Issue.record("\(path): not renamed at the byte level")
        continue
      }
      renamedCount += 1
      // The transform takes the byte path: its replacement is these bytes.
      #expect(result.outcome.name == "will-rewrite", "\(path)")
      #expect(result.replacement == renamed, "\(path)")
      // Read by the tree path too, and compared as graphs by the comparator.
      let tree = try KeyedArchive(bytes: renamed)
      #expect(tree == reread, "\(path)")
      #expect(ArchiveGraphComparator(mapping: Self.mapping).difference(archive, tree) == nil)
      #expect(!contains(renamed, "ProfilesApp"), "\(path)")
      // Every object but the renamed strings is as it was: the same number of objects.
      let before = try #require(try PropertyListReader().binaryView(bytes))
      let after = try #require(try PropertyListReader().binaryView(renamed))
      #expect(after.objectCount == before.objectCount, "\(path)")
      // Renaming again changes nothing.
      #expect(plan(renamed).outcome == .alreadyCurrent, "\(path)")
    }
    #expect(renamedCount >= 16)
  }

  @Test(
    "Python's plistlib reads the renamed legacy archives equal to the originals modulo the renames",
    .enabled(if: hasPython, "python3 is not installed"))
  func plistlibReadsRenamedArchives() throws {
    var pairs: [(original: [UInt8], renamed: [UInt8])] = []
    for (_, bytes, _) in try Self.legacyArchives() {
      if case .rewritten(let renamed, _) = try byteRename(bytes) {
        pairs.append((bytes, renamed))
      }
    }
    pairs.append(
      (MigrationFixtures.profile(), try #require(plan(MigrationFixtures.profile()).replacement)))
    let shared = sharedStringArchive()
    pairs.append((shared, try #require(plan(shared).replacement)))
    // 255 objects in one-byte references, renamed by the graph path.
    let full = try fullArchive(shared: ["ProfilesApp.Address"])
    pairs.append((full, try #require(plan(full).replacement)))
    let output = try #require(try plistlibAgrees(pairs))
    #expect(output == "ok \(pairs.count)\n")
  }

  /// An archive whose field holds the text of a class name: the writer shares the string.
  private func sharedStringArchive() -> [UInt8] {
    var builder = ArchiveBuilder()
    let kind = builder.string("ProfilesApp.Address")
    let address = builder.object(
      "ProfilesApp.Address", [("kind", kind), ("label", .string("ProfilesApp.Address"))])
    builder.setRoot(address)
    return builder.bytes()
  }

  @Test("A string used as a class name and as a value keeps the value; the new name is added")
  func sharedStringClassNameAndValue() throws {
    let bytes = sharedStringArchive()
    let view = try #require(try PropertyListReader().binaryView(bytes))
    // The writer keeps one string object for the class name and both values.
    var names = 0
    for object in 0..<view.objectCount where view.string(object) == "ProfilesApp.Address" {
      names += 1
    }
    #expect(names == 1)
    guard case .rewritten(let renamed, let reread) = try byteRename(bytes) else {
      Issue.record("not renamed at the byte level")
      return
    }
    let after = try #require(try PropertyListReader().binaryView(renamed))
    #expect(after.objectCount == view.objectCount + 1)
    let original = try KeyedArchive(bytes: bytes)
    #expect(ArchiveGraphComparator(mapping: Self.mapping).difference(original, reread) == nil)
    let instance = try #require(reread.instance(at: 2))
    #expect(instance.className == "ProfileKit.Address")
    #expect(instance.fields["label"] == .string("ProfilesApp.Address"))
    #expect(reread.objects[1] == .value(.string("ProfilesApp.Address")))
    #expect(plan(bytes).replacement == renamed)
  }

  @Test("A class the mapping does not change keeps its bytes, and an archive of none is current")
  func unmappedNameUnchanged() throws {
    var builder = ArchiveBuilder()
    let other = builder.object(
      "ProfileKit.Other", chain: ["ProfileKit.Other", "NSObject"], [("n", .integer(1))])
    let address = builder.object(
      "ProfilesApp.Address", chain: ["ProfilesApp.Address", "ProfileKit.Other", "NSObject"],
      [("other", other)])
    builder.setRoot(address)
    let bytes = builder.bytes()
    guard case .rewritten(let renamed, let reread) = try byteRename(bytes) else {
      Issue.record("not renamed at the byte level")
      return
    }
    let before = try #require(try PropertyListReader().binaryView(bytes))
    let after = try #require(try PropertyListReader().binaryView(renamed))
    #expect(after.objectCount == before.objectCount)
    var changed: [String] = []
    for object in 0..<before.objectCount {
      let old = try #require(before.extent(object))
      let new = try #require(after.extent(object))
      if before.bytes[old] != after.bytes[new] { changed.append(before.string(object) ?? "?") }
    }
    #expect(changed == ["ProfilesApp.Address"])
    let descriptions = reread.objects.compactMap { object -> ArchiveClass? in
      if case .classDescription(let description) = object { return description }
      return nil
    }
    #expect(descriptions.map(\.name).sorted() == ["ProfileKit.Address", "ProfileKit.Other"])
    #expect(
      descriptions.first { $0.name == "ProfileKit.Address" }?.chain == [
        "ProfileKit.Address", "ProfileKit.Other", "NSObject",
      ])
    // A mapping that changes nothing in the archive: already current, no bytes.
    let unrelated = ClassNameMapping(["ProfilesApp.Memo": "ProfileKit.Memo"])
    #expect(plan(bytes, mapping: unrelated).outcome == .alreadyCurrent)
    #expect(plan(bytes, mapping: unrelated).replacement == nil)
  }

  /// An archive of exactly 255 list objects (one-byte references) in which each of `shared`
  /// is a class name and also a field's value, so that renaming adds an object for each.
  private func fullArchive(shared: [String]) throws -> [UInt8] {
    // Each filler string adds two list objects (the string and its UID); `odd` adds one more.
    for filler in 60..<140 {
      for odd in [false, true] {
        var builder = ArchiveBuilder()
        var fields: [(String, PropertyListValue)] = odd ? [("odd", .integer(123_456))] : []
        for (index, name) in shared.enumerated() {
          fields.append(("name\(index)", builder.string(name)))
          fields.append(("object\(index)", builder.object(name, [("n", .integer(Int64(index)))])))
        }
        var values: [PropertyListValue] = []
        for index in 0..<filler {
          values.append(builder.string("s\(index)"))
        }
        fields.append(("strings", builder.array(values)))
        builder.setRoot(builder.object("ProfileKit.Holder", fields))
        let bytes = builder.bytes()
        if try PropertyListReader().binaryView(bytes)?.objectCount == 255 { return bytes }
      }
    }
    throw CocoaError(.featureUnsupported)
  }

  @Test("A rename that would outgrow one-byte references falls back to the graph and still works")
  func referenceSizeOverflowFallsBack() throws {
    let bytes = try fullArchive(shared: ["ProfilesApp.Address", "ProfilesApp.UserProfile"])
    let view = try #require(try PropertyListReader().binaryView(bytes))
    #expect(view.referenceWidth == 1)
    #expect(view.objectCount == 255)
    guard case .notHandled = try byteRename(bytes) else {
      Issue.record("expected the byte level to decline")
      return
    }
    let result = plan(bytes)
    guard case .willRewrite(let summary) = result.outcome else {
      Issue.record("expected will-rewrite, got \(result.outcome)")
      return
    }
    #expect(summary.contains("ProfilesApp.Address → ProfileKit.Address"))
    let replacement = try #require(result.replacement)
    let rewritten = try KeyedArchive(bytes: replacement)
    let original = try KeyedArchive(bytes: bytes)
    #expect(ArchiveGraphComparator(mapping: Self.mapping).difference(original, rewritten) == nil)
    #expect(try PropertyListReader().binaryView(replacement)?.referenceWidth == 2)
  }

  @Test("One added name that would make 256 objects in one-byte references declines")
  func oneAddedNameDeclinesAt256Objects() throws {
    // Apple's reader refuses 2^8 objects in one-byte references (CFBinaryPList.c), so the byte
    // level declines and the graph path writes two-byte references.
    let bytes = try fullArchive(shared: ["ProfilesApp.Address"])
    let view = try #require(try PropertyListReader().binaryView(bytes))
    #expect(view.referenceWidth == 1)
    #expect(view.objectCount == 255)
    guard case .notHandled = try byteRename(bytes) else {
      Issue.record("expected the byte level to decline")
      return
    }
    let replacement = try #require(plan(bytes).replacement)
    let after = try #require(try PropertyListReader().binaryView(replacement))
    #expect(after.referenceWidth == 2)
    let original = try KeyedArchive(bytes: bytes)
    let rewritten = try KeyedArchive(bytes: replacement)
    #expect(ArchiveGraphComparator(mapping: Self.mapping).difference(original, rewritten) == nil)
  }

  /// A string object's encoding, of any length.
  private static func string(_ text: String) -> [UInt8] {
    let utf8 = Array(text.utf8)
    if utf8.count < 15 { return [0x50 | UInt8(utf8.count)] + utf8 }
    return [0x5F, 0x10, UInt8(utf8.count)] + utf8
  }

  /// A keyed archive written object by object: `$objects[1]` is an instance of
  /// `ProfilesApp.Address` whose field `d` is the very list object of its class description,
  /// `$objects[2]`; with `unreached`, one more object that nothing refers to.
  private func sharedDescriptionArchive(unreached: Bool = false) -> [UInt8] {
    var objects: [[UInt8]] = [
      BinaryPlistBuilder.dictionary(keys: [3, 4, 5, 6], values: [7, 8, 1, 2]),  // 0: root
      BinaryPlistBuilder.dictionary(keys: [9], values: [10]),  // 1: $top
      BinaryPlistBuilder.array([11, 12, 13]),  // 2: $objects
      Self.string("$archiver"), Self.string("$version"), Self.string("$top"),
      Self.string("$objects"),  // 3...6
      Self.string("NSKeyedArchiver"), [0x12, 0x00, 0x01, 0x86, 0xA0],  // 7, 8: 100000
      Self.string("root"), BinaryPlistBuilder.uid(1), Self.string("$null"),  // 9...11
      BinaryPlistBuilder.dictionary(keys: [14, 16], values: [15, 13]),  // 12: the instance
      BinaryPlistBuilder.dictionary(keys: [17, 19], values: [18, 20]),  // 13: the description
      Self.string("$class"), BinaryPlistBuilder.uid(2), Self.string("d"),  // 14...16
      Self.string("$classname"), Self.string("ProfilesApp.Address"),  // 17, 18
      // 19...21
      Self.string("$classes"), BinaryPlistBuilder.array([18, 21]), Self.string("NSObject"),
    ]
    if unreached { objects.append(Self.string("nothing refers to this")) }
    return BinaryPlistBuilder(objects: objects).build()
  }

  @Test("A class description that a field refers to as well is renamed through the graph")
  func sharedDescriptionFallsBack() throws {
    let bytes = sharedDescriptionArchive()
    let original = try KeyedArchive(bytes: bytes)
    guard case .notHandled = try byteRename(bytes) else {
      Issue.record("expected the byte level to decline")
      return
    }
    let result = plan(bytes)
    guard case .willRewrite = result.outcome else {
      Issue.record("expected will-rewrite, got \(result.outcome)")
      return
    }
    let rewritten = try KeyedArchive(bytes: try #require(result.replacement))
    #expect(ArchiveGraphComparator(mapping: Self.mapping).difference(original, rewritten) == nil)
    #expect(try #require(rewritten.instance(at: 1)).className == "ProfileKit.Address")
    let field = try #require(rewritten.instance(at: 1)).fields["d"]
    #expect(field?.dictionaryValue?["$classname"] == .string("ProfilesApp.Address"))
  }

  @Test("A list with an object nothing refers to is renamed through the graph")
  func unreachedObjectFallsBack() throws {
    let bytes = sharedDescriptionArchive(unreached: true)
    guard case .notHandled = try byteRename(bytes) else {
      Issue.record("expected the byte level to decline")
      return
    }
    guard case .willRewrite = plan(bytes).outcome else {
      Issue.record("expected will-rewrite")
      return
    }
  }

  @Test("Damaged archives never crash the rename, and what it would write reads and compares")
  func damagedArchives() throws {
    let original = MigrationFixtures.profile()
    var rewrites = 0
    for position in 8..<original.count {
      for value: UInt8 in [0x00, 0x0F, 0x5F, 0xFF, original[position] ^ 0x01] {
        var bytes = original
        bytes[position] = value
        let result = plan(bytes)
        guard case .willRewrite = result.outcome else { continue }
        rewrites += 1
        let replacement = try #require(result.replacement)
        let archive = try KeyedArchive(bytes: bytes)
        let rewritten = try KeyedArchive(bytes: replacement)
        #expect(
          ArchiveGraphComparator(mapping: Self.mapping).difference(archive, rewritten) == nil,
          "byte \(position) set to \(value)")
      }
    }
    #expect(rewrites > 0)
  }

  @Test("XML archives keep the graph path")
  func xmlKeepsGraphPath() throws {
    let archive = try KeyedArchive(bytes: MigrationFixtures.profile())
    let xml = Array(XMLPropertyListWriter().write(archive.propertyList).utf8)
    let result = plan(xml, mapping: MigrationFixtures.mapping)
    guard case .willRewrite = result.outcome else {
      Issue.record("expected will-rewrite, got \(result.outcome)")
      return
    }
    let rewritten = try KeyedArchive(bytes: try #require(result.replacement))
    #expect(
      ArchiveGraphComparator(mapping: MigrationFixtures.mapping).difference(archive, rewritten)
        == nil)
  }
}
