import ArchiveFormat
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

@Suite("Rename-only transform and graph comparison")
struct RenameOnlyTransformTests {
  private func plan(_ bytes: [UInt8], transform: any RecordTransform) -> RecordPlan {
    let record = StoreRecord(
      id: .file(path: "/store/x.archive", relativePath: "x.archive"), content: .bytes(bytes))
    return RecordMigrator(transform: transform).plan(record)
  }

  @Test("A rename-only round trip renames $classname and $classes and keeps the graph")
  func renameOnlyRoundTrip() throws {
    let original = MigrationFixtures.profile()
    let result = plan(original, transform: RenameOnlyTransform(mapping: MigrationFixtures.mapping))
    guard case .willRewrite(let summary) = result.outcome else {
      Issue.record("expected will-rewrite, got \(result.outcome)")
      return
    }
    #expect(summary.contains("ProfilesApp.UserProfile → ProfileKit.UserProfile"))
    let rewritten = try KeyedArchive(bytes: try #require(result.replacement))
    var names: [String] = []
    for case .classDescription(let description) in rewritten.objects {
      names.append(description.name)
      #expect(!description.chain.contains { $0.hasPrefix("ProfilesApp.") })
    }
    #expect(names.contains("ProfileKit.UserProfile"))
    #expect(names.contains("ProfileKit.Address"))
    #expect(!names.contains { $0.hasPrefix("ProfilesApp.") })
    let comparator = ArchiveGraphComparator(mapping: MigrationFixtures.mapping)
    #expect(comparator.difference(try KeyedArchive(bytes: original), rewritten) == nil)
    // The new archive is what the v2 app reads: migrating it again changes nothing.
    let again = plan(
      try #require(result.replacement),
      transform: RenameOnlyTransform(mapping: MigrationFixtures.mapping))
    #expect(again.outcome == .alreadyCurrent)
  }

  @Test("A record without mapped names is already current")
  func alreadyCurrent() {
    let result = plan(
      MigrationFixtures.profile(module: "ProfileKit"),
      transform: RenameOnlyTransform(mapping: MigrationFixtures.mapping))
    #expect(result.outcome == .alreadyCurrent)
    #expect(result.replacement == nil)
  }

  @Test("Names that occur only in a $classes chain are renamed")
  func chainOnlyName() throws {
    var builder = ArchiveBuilder()
    let root = builder.object(
      "ProfileKit.Special", chain: ["ProfileKit.Special", "ProfilesApp.Base", "NSObject"],
      [("value", .integer(1))])
    builder.setRoot(root)
    let mapping = ClassNameMapping(["ProfilesApp.Base": "ProfileKit.Base"])
    let result = plan(builder.bytes(), transform: RenameOnlyTransform(mapping: mapping))
    let rewritten = try KeyedArchive(bytes: try #require(result.replacement))
    let chains = rewritten.objects.compactMap { object -> [String]? in
      if case .classDescription(let description) = object { return description.chain }
      return nil
    }
    #expect(chains == [["ProfileKit.Special", "ProfileKit.Base", "NSObject"]])
  }

  @Test("The comparator accepts equal graphs whose objects are numbered differently")
  func comparatorIgnoresNumbering() throws {
    var first = ArchiveBuilder()
    let a1 = first.string("x")
    let b1 = first.string("y")
    first.setRoot(first.object("T", [("a", a1), ("b", b1)]))
    var second = ArchiveBuilder()
    let b2 = second.string("y")
    let a2 = second.string("x")
    second.setRoot(second.object("T", [("b", b2), ("a", a2)]))
    let comparator = ArchiveGraphComparator(mapping: ClassNameMapping())
    #expect(
      comparator.difference(
        try KeyedArchive(bytes: first.bytes()), try KeyedArchive(bytes: second.bytes())) == nil)
  }

  @Test("The comparator reports a changed value with its key path")
  func comparatorReportsValue() throws {
    let comparator = ArchiveGraphComparator(mapping: ClassNameMapping())
    let difference = comparator.difference(
      try KeyedArchive(bytes: MigrationFixtures.profile(id: 1)),
      try KeyedArchive(bytes: MigrationFixtures.profile(id: 2)))
    let found = try #require(difference)
    #expect(found.keyPath.hasPrefix("$top.root"))
    #expect(found.message == "1 became 2")
  }

  @Test("The comparator reports a shared object that became two copies")
  func comparatorReportsLostSharing() throws {
    var shared = ArchiveBuilder()
    let address = shared.object("A", [("city", .string("X"))])
    shared.setRoot(shared.object("T", [("home", address), ("work", address)]))
    var copied = ArchiveBuilder()
    let home = copied.object("A", [("city", .string("X"))])
    let work = copied.object("A", [("city", .string("X"))])
    copied.setRoot(copied.object("T", [("home", home), ("work", work)]))
    let comparator = ArchiveGraphComparator(mapping: ClassNameMapping())
    let difference = comparator.difference(
      try KeyedArchive(bytes: shared.bytes()), try KeyedArchive(bytes: copied.bytes()))
    #expect(difference?.message.contains("sharing or identity changed") == true)
  }

  @Test("The comparator reports an unmapped class rename")
  func comparatorReportsUnmappedRename() throws {
    let comparator = ArchiveGraphComparator(
      mapping: ClassNameMapping(["ProfilesApp.UserProfile": "ProfileKit.UserProfile"]))
    let difference = comparator.difference(
      try KeyedArchive(bytes: MigrationFixtures.profile()),
      try KeyedArchive(bytes: MigrationFixtures.profile(module: "ProfileKit")))
    #expect(
      difference?.message.contains("class 'ProfilesApp.Address' became 'ProfileKit.Address'")
        == true)
  }

  @Test("A long cycle compares in linear time without recursion")
  func longCycle() throws {
    var builder = ArchiveBuilder()
    let first = builder.reserve()
    var previous = first
    for index in 1..<20_000 {
      let node = builder.reserve()
      builder.fill(
        previous,
        with: builder.instanceValue(
          "ProfilesApp.Node", [("i", .integer(Int64(index))), ("next", node)]))
      previous = node
    }
    builder.fill(
      previous,
      with: builder.instanceValue("ProfilesApp.Node", [("i", .integer(0)), ("next", first)]))
    builder.setRoot(first)
    let mapping = ClassNameMapping(["ProfilesApp.Node": "ProfileKit.Node"])
    let result = plan(builder.bytes(), transform: RenameOnlyTransform(mapping: mapping))
    guard case .willRewrite = result.outcome else {
      Issue.record("expected will-rewrite, got \(result.outcome)")
      return
    }
  }
}
