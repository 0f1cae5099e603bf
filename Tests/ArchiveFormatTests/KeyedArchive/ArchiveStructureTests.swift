import ArchiveFormat
import HarnessTestSupport
import Testing

@Suite("Keyed-archive graph")
struct ArchiveStructureTests {
  /// A profile with a nested address, a tags array, a settings dictionary and a shared reference.
  static func profileArchive() -> [UInt8] {
    var builder = ArchiveBuilder()
    let street = builder.string("1 Main St")
    let city = builder.string("Springfield")
    let address = builder.object(
      "ProfilesApp.Address", [("street", street), ("city", city)])
    let tags = builder.array([builder.string("a"), builder.string("b"), builder.string("c")])
    let themeKey = builder.string("ui.theme")
    let settings = builder.dictionary(keys: [themeKey], values: [builder.string("dark")])
    let name = builder.object(
      "NSMutableString", chain: ["NSMutableString", "NSString", "NSObject"],
      [("NS.string", .string("Ada"))])
    let profile = builder.object(
      "ProfilesApp.UserProfile",
      [
        ("id", .integer(42)), ("name", name), ("isActive", .bool(true)), ("address", address),
        ("tags", tags), ("settings", settings), ("billing", address),
      ])
    builder.setRoot(profile)
    return builder.bytes()
  }

  private func leaves(_ archive: KeyedArchive, _ path: String) throws -> [ArchiveLeaf] {
    try archive.evaluate(ArchiveKeyPath(path)).map { archive.leaf(of: $0.node) }
  }

  @Test("Key paths reach fields, elements, counts and dictionary keys")
  func keyPaths() throws {
    let archive = try KeyedArchive(bytes: Self.profileArchive())
    #expect(try leaves(archive, "id") == [.integer(42)])
    #expect(try leaves(archive, "name") == [.string("Ada")])
    #expect(try leaves(archive, "address.city") == [.string("Springfield")])
    #expect(try leaves(archive, "tags[2]") == [.string("c")])
    #expect(try leaves(archive, "tags.@count") == [.integer(3)])
    #expect(try leaves(archive, "tags[*]") == [.string("a"), .string("b"), .string("c")])
    #expect(try leaves(archive, #"settings["ui.theme"]"#) == [.string("dark")])
    #expect(try leaves(archive, "tags[3]").isEmpty)
    #expect(try leaves(archive, "missing.field").isEmpty)
  }

  @Test("Wildcard matches carry their concrete paths")
  func wildcardPaths() throws {
    let archive = try KeyedArchive(bytes: Self.profileArchive())
    let paths = try archive.evaluate(ArchiveKeyPath("tags[*]")).map(\.path.description)
    #expect(paths == ["tags[0]", "tags[1]", "tags[2]"])
  }

  @Test("Each match of two wildcards carries the index it took at each, and the steps after")
  func nestedWildcardPaths() throws {
    var builder = ArchiveBuilder()
    var rows: [PropertyListValue] = []
    for texts in [["a", "b"], [], ["c"]] {
      var cells: [PropertyListValue] = []
      for text in texts {
        let value = builder.string(text)
        cells.append(builder.object("Cell", [("text", value)]))
      }
      rows.append(builder.array(cells))
    }
    let table = builder.array(rows)
    builder.setRoot(builder.object("Table", [("rows", table)]))
    let archive = try KeyedArchive(bytes: builder.bytes())
    let matches = try archive.evaluate(ArchiveKeyPath("rows[*][*].text"))
    #expect(
      matches.map(\.path.description) == ["rows[0][0].text", "rows[0][1].text", "rows[2][0].text"])
    #expect(
      matches.map { archive.leaf(of: $0.node) } == [.string("a"), .string("b"), .string("c")])
  }

  @Test(
    "Key paths print back to the text they were parsed from",
    arguments: [
      "address.city", "tags[2]", "tags.@count", "items[*].id", #"settings["ui.theme"]"#,
      "$top.other.x",
    ])
  func keyPathRoundTrip(text: String) throws {
    #expect(try ArchiveKeyPath(text).description == text)
  }

  @Test(
    "Malformed key paths are rejected with their position",
    arguments: [
      ("", 0), ("a..b", 2), ("a[", 1), ("a[x]", 2), ("a.", 1), (#"a["b"#, 1), ("$top", 0),
    ])
  func malformedKeyPaths(text: String, offset: Int) {
    #expect {
      _ = try ArchiveKeyPath(text)
    } throws: { error in
      (error as? KeyPathError)?.offset == offset
    }
  }

  @Test("The tree prints a shared object once and references it after")
  func treeMarksSharedObjects() throws {
    let archive = try KeyedArchive(bytes: Self.profileArchive())
    let tree = ArchiveTreePrinter().render(archive)
    #expect(tree.contains("address = ProfilesApp.Address #"))
    #expect(tree.contains("billing → #"))
    #expect(tree.contains("(shared, shown above)"))
    #expect(tree.contains("address.city = \"Springfield\""))
  }

  @Test("A self-referencing container is printed with a cycle mark and does not loop")
  func selfReferencingContainer() throws {
    var builder = ArchiveBuilder()
    let slot = builder.reserve()
    builder.fill(
      slot, with: builder.instanceValue("NSMutableArray", [("NS.objects", .array([slot]))]))
    builder.setRoot(slot)
    let archive = try KeyedArchive(bytes: builder.bytes())
    let tree = ArchiveTreePrinter().render(archive)
    #expect(tree.contains("[0] → #1 (cycle)"))
    #expect(try archive.evaluate(ArchiveKeyPath("[0][0][0].@count")).count == 1)
  }

  @Test("A UID past the end of $objects names its key path")
  func uidPastEnd() throws {
    var builder = ArchiveBuilder()
    let object = builder.object("Thing", [("child", .uid(99))])
    builder.setRoot(object)
    #expect {
      _ = try KeyedArchive(bytes: builder.bytes())
    } throws: { error in
      let error = error as? KeyedArchiveError
      return error?.code == .uidOutOfRange && error?.keyPath == "$objects[1].child"
        && error?.objectIndex == 1
    }
  }

  @Test("A reference bomb of 2^40 paths prints, serialises and evaluates in linear time")
  func referenceBombStaysLinear() throws {
    // Array i holds array i+1 twice: 2^40 paths to the leaf through 41 objects.
    var builder = ArchiveBuilder()
    var next = builder.string("leaf")
    for _ in 0..<40 {
      next = builder.array([next, next])
    }
    builder.setRoot(next)
    let archive = try KeyedArchive(bytes: builder.bytes())
    let tree = ArchiveTreePrinter().render(archive)
    #expect(tree.split(separator: "\n").count < 200)
    let json = ArchiveJSON.text(for: archive)
    #expect(json.utf8.count < 50_000)
    var limits = ArchiveLimits()
    limits.maximumKeyPathMatches = 1000
    #expect(throws: KeyedArchiveError.self) {
      _ = try archive.evaluate(ArchiveKeyPath(String(repeating: "[*]", count: 40)), limits: limits)
    }
  }

  @Test("Deep chains of object references are elided, not recursed without bound")
  func deepReferenceChainsAreElided() throws {
    var builder = ArchiveBuilder()
    var next = builder.string("leaf")
    for _ in 0..<100_000 {
      next = builder.object("Node", [("next", next)])
    }
    builder.setRoot(next)
    var limits = ArchiveLimits()
    limits.propertyList.maximumObjectCount = 1 << 22
    let archive = try KeyedArchive(bytes: builder.bytes(), limits: limits)
    let tree = ArchiveTreePrinter(limits: limits).render(archive)
    #expect(tree.contains("deeper objects elided at depth 256"))
  }

  @Test("Foundation forms are read from their archived fields")
  func foundationForms() throws {
    var builder = ArchiveBuilder()
    let date = builder.object("NSDate", [("NS.time", .real(10.5))])
    let data = builder.object(
      "NSMutableData", chain: ["NSMutableData", "NSData", "NSObject"], [("NS.data", .data([1, 2]))])
    let uuid = builder.object("NSUUID", [("NS.uuidbytes", .data(Array(0..<16)))])
    let base = builder.object(
      "NSURL",
      [("NS.base", ArchiveBuilder.null), ("NS.relative", builder.string("https://example.com/"))])
    let url = builder.object("NSURL", [("NS.base", base), ("NS.relative", builder.string("path"))])
    let null = builder.object("NSNull", [])
    let root = builder.array([date, data, uuid, url, null])
    builder.setRoot(root)
    let archive = try KeyedArchive(bytes: builder.bytes())
    #expect(
      try leaves(archive, "[*]") == [
        .date(10.5), .data([1, 2]), .uuid(Array(0..<16)), .url("https://example.com/path"), .null,
      ])
  }
}
