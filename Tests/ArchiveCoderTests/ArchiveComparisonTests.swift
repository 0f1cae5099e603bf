import ArchiveCoder
import ArchiveFormat
import Foundation
import Testing

/// Two archives compared as graphs: what `diff` reports, built by hand so that each case holds
/// exactly the difference it is about.
@Suite("Archive comparison: two graphs at key paths")
struct ArchiveComparisonTests {
  /// An archive of one `Shop.Box` with the given inline fields.
  static func box(_ fields: [(String, PropertyListValue)], className: String = "Shop.Box") throws
    -> KeyedArchive
  {
    var builder = KeyedArchiveBuilder()
    builder.setRoot(builder.object(className, fields))
    return try KeyedArchive(bytes: builder.bytes())
  }

  static func differences(
    _ old: KeyedArchive, _ new: KeyedArchive, map: String = ""
  ) throws -> [ArchiveDifference] {
    try ArchiveComparison(classMap: ClassNameMap(parsing: map)).differences(old, new)
  }

  @Test("Equal graphs have no differences")
  func equalGraphsAreEqual() throws {
    let fields: [(String, PropertyListValue)] = [("count", .integer(3)), ("flag", .bool(true))]
    #expect(try Self.differences(Self.box(fields), Self.box(fields)).isEmpty)
  }

  @Test("A field only the new archive has is added, with its value")
  func addedField() throws {
    let found = try Self.differences(
      Self.box([("count", .integer(3))]),
      Self.box([("count", .integer(3)), ("note", .string("new"))]))
    #expect(found == [.added(ArchiveKeyPath(components: [.key("note")]), .leaf(.string("new")))])
    #expect(found.first?.description == #"added note: "new" (string)"#)
  }

  @Test("A field only the old archive has is removed, with its value")
  func removedField() throws {
    let found = try Self.differences(
      Self.box([("count", .integer(3)), ("pinned", .bool(true))]),
      Self.box([("count", .integer(3))]))
    #expect(found.map(\.kind) == [.removed])
    #expect(found.first?.description == "removed pinned: true (bool)")
  }

  @Test("A value of one type that differs is changed, with both values")
  func changedValue() throws {
    let found = try Self.differences(
      Self.box([("count", .integer(3))]), Self.box([("count", .integer(4))]))
    #expect(
      found == [
        .changed(
          ArchiveKeyPath(components: [.key("count")]), old: .leaf(.integer(3)),
          new: .leaf(.integer(4)))
      ])
  }

  @Test("An integer that became a string, or a bool that became 1, changed in type")
  func changedType() throws {
    let found = try Self.differences(
      Self.box([("count", .integer(3)), ("flag", .bool(true)), ("ratio", .real(0.5))]),
      Self.box([("count", .string("3")), ("flag", .integer(1)), ("ratio", .real(0.5))]))
    #expect(found.map(\.kind) == [.typeChanged, .typeChanged])
    #expect(found.map(\.keyPath.displayText) == ["count", "flag"])
    #expect(found.first?.description == #"type-changed count: 3 (integer) → "3" (string)"#)
  }

  @Test("A renamed class is a type change at the object, and its fields are still compared")
  func renamedClass() throws {
    let found = try Self.differences(
      Self.box([("count", .integer(3)), ("gone", .integer(1))], className: "Old.Box"),
      Self.box([("count", .integer(3))], className: "New.Box"))
    #expect(found.map(\.kind) == [.typeChanged, .removed], "\(found)")
    #expect(
      found.first?.description
        == "type-changed root: an instance of Old.Box → an instance of New.Box")
  }

  @Test("A class map makes a renamed class equal; a module rename too")
  func classMapMakesARenameEqual() throws {
    let old = try Self.box([("count", .integer(3))], className: "Old.Box")
    let new = try Self.box([("count", .integer(3))], className: "New.Box")
    #expect(try Self.differences(old, new, map: "Old.Box=New.Box").isEmpty)
    #expect(try Self.differences(old, new, map: "Old.*=New.*").isEmpty)
    // A map to another name shows both: what the archive holds, and what the map made of it.
    let other = try Self.differences(old, new, map: "Old.Box=Other.Box")
    #expect(
      other.first?.old?.description == "an instance of Old.Box (mapped to Other.Box)", "\(other)")
  }

  @Test("A Swift mangled class name equals its readable name")
  func mangledNameIsReadableName() throws {
    let readable = try Self.box([("count", .integer(3))], className: "ProfilesApp.Address")
    let mangled = try Self.box(
      [("count", .integer(3))], className: "_TtC11ProfilesApp7Address")
    #expect(try Self.differences(readable, mangled).isEmpty)
    #expect(try Self.differences(mangled, readable).isEmpty)
  }

  /// A graph of a root with a shared child and a cycle back to the root, its objects written
  /// in the order given (so its UIDs differ from one order to another).
  static func sharedGraph(childFirst: Bool, shareChild: Bool = true) throws -> KeyedArchive {
    var builder = KeyedArchiveBuilder()
    let child: PropertyListValue
    let root: PropertyListValue
    if childFirst {
      child = builder.reserve()
      root = builder.reserve()
    } else {
      root = builder.reserve()
      child = builder.reserve()
    }
    var second = child
    if !shareChild {
      second = builder.reserve()
      builder.fill(
        second,
        with: builder.instanceValue("Shop.Item", [("name", .string("bolt")), ("owner", root)]))
    }
    builder.fill(
      child, with: builder.instanceValue("Shop.Item", [("name", .string("bolt")), ("owner", root)]))
    builder.fill(
      root,
      with: builder.instanceValue(
        "Shop.Box", [("first", child), ("second", second), ("items", builder.array([child]))]))
    builder.setRoot(root)
    return try KeyedArchive(bytes: builder.bytes())
  }

  @Test("The same graph with its objects in another order (other UIDs) has no differences")
  func uidsAreNormalized() throws {
    let a = try Self.sharedGraph(childFirst: true)
    let b = try Self.sharedGraph(childFirst: false)
    #expect(a.top["root"] != b.top["root"])
    #expect(try Self.differences(a, b).isEmpty)
  }

  @Test("A shared object and a cycle are followed once, and equal graphs stay equal")
  func sharedObjectAndCycleEnd() throws {
    let graph = try Self.sharedGraph(childFirst: false)
    let comparison = ArchiveComparison(maximumVisits: 64)
    #expect(try comparison.differences(graph, graph).isEmpty)
  }

  @Test("A reference shared on one side and copied on the other is a change at that reference")
  func sharingThatDiffersIsAChange() throws {
    let shared = try Self.sharedGraph(childFirst: false)
    let copied = try Self.sharedGraph(childFirst: false, shareChild: false)
    let found = try Self.differences(shared, copied)
    #expect(found.map(\.kind) == [.changed], "\(found)")
    #expect(found.first?.keyPath.displayText == "second")
    #expect(
      found.first?.old
        == .sharedInstance(
          className: "Shop.Item", firstReachedAt: ArchiveKeyPath(components: [.key("first")])))
    #expect(found.first?.new == .instance(className: "Shop.Item"))
  }

  @Test("Set elements match without order; an element only one side has is removed or added")
  func setsCompareWithoutOrder() throws {
    func tags(_ names: [String]) throws -> KeyedArchive {
      var builder = KeyedArchiveBuilder()
      let elements = names.map { builder.string($0) }
      builder.setRoot(builder.array(elements, className: "NSSet"))
      return try KeyedArchive(bytes: builder.bytes())
    }
    #expect(try Self.differences(tags(["a", "b", "c"]), tags(["c", "a", "b"])).isEmpty)
    let found = try Self.differences(tags(["a", "b"]), tags(["b", "z"]))
    #expect(
      found.map(\.description) == [#"removed [*]: "a" (string)"#, #"added [*]: "z" (string)"#])
  }

  @Test("Array elements compare in order; extra elements are added or removed at their index")
  func arraysCompareInOrder() throws {
    func pages(_ names: [String]) throws -> KeyedArchive {
      var builder = KeyedArchiveBuilder()
      let elements = names.map { builder.string($0) }
      builder.setRoot(builder.array(elements))
      return try KeyedArchive(bytes: builder.bytes())
    }
    let found = try Self.differences(pages(["a", "b", "c"]), pages(["a", "x"]))
    #expect(
      found.map(\.description) == [
        #"changed [1]: "b" (string) → "x" (string)"#, #"removed [2]: "c" (string)"#,
      ])
  }

  @Test("A graph deeper than the limit stops the comparison instead of passing as equal")
  func tooDeepThrows() throws {
    var builder = KeyedArchiveBuilder()
    var node = builder.string("leaf")
    for _ in 0..<8 { node = builder.object("Shop.Node", [("next", node)]) }
    builder.setRoot(node)
    let archive = try KeyedArchive(bytes: builder.bytes())
    let error = #expect(throws: ArchiveComparison.LimitExceeded.self) {
      try ArchiveComparison(maximumDepth: 4).differences(archive, archive)
    }
    #expect(error?.limit == .depth(4))
  }
}
