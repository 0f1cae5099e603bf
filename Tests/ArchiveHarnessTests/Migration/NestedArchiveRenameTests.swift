import ArchiveFormat
import Testing

@testable import ArchiveHarness

@Suite("Archives inside Data values: renamed with --nested, re-read and compared")
struct NestedArchiveRenameTests {
  /// A settings object whose `profile` field is a Data value holding a whole profile archive,
  /// referenced as an object and, with `inline`, also kept inline in the fields.
  private func settings(module: String = "ProfilesApp", nested: [UInt8], inline: Bool = false)
    -> [UInt8]
  {
    var builder = KeyedArchiveBuilder()
    var fields: [(String, PropertyListValue)] = [
      ("profile", builder.add(.data(nested))), ("theme", builder.string("dark")),
    ]
    if inline { fields.append(("cached", .data(nested))) }
    let root = builder.object("\(module).Settings", fields)
    builder.setRoot(root)
    return builder.bytes()
  }

  private let mapping = ClassNameMapping([
    "ProfilesApp.UserProfile": "ProfileKit.UserProfile",
    "ProfilesApp.Address": "ProfileKit.Address",
    "ProfilesApp.Settings": "ProfileKit.Settings",
  ])

  private func rewrite(_ bytes: [UInt8], nested: Bool) throws -> KeyedArchive? {
    let input = TransformInput(
      id: .file(path: "/s/x", relativePath: "x"), bytes: bytes,
      archive: try KeyedArchive(bytes: bytes))
    switch RenameOnlyTransform(mapping: mapping, nested: nested).transform(input) {
    case .rewritten(let new, _, _): return try KeyedArchive(bytes: new)
    case .unchanged: return nil
    case .refused(let refusal): throw refusal
    }
  }

  /// The class names of every archive nested in `archive`'s Data values, one level down.
  private func nestedClassNames(_ archive: KeyedArchive) -> Set<String> {
    var names: Set<String> = []
    for object in archive.objects {
      var datas: [[UInt8]] = []
      if case .value(.data(let bytes)) = object { datas.append(bytes) }
      if case .instance(let instance) = object {
        for entry in instance.fields.entries {
          if case .data(let bytes) = entry.value { datas.append(bytes) }
        }
      }
      for bytes in datas { names.formUnion(NestedArchive(bytes)?.classNames ?? []) }
    }
    return names
  }

  @Test("--nested renames the classes of an archive inside a Data value, referenced or inline")
  func renamesNested() throws {
    let bytes = settings(nested: MigrationFixtures.profile(), inline: true)
    let rewritten = try #require(try rewrite(bytes, nested: true))
    let names = nestedClassNames(rewritten)
    #expect(!names.contains { $0.hasPrefix("ProfilesApp.") })
    #expect(names.contains("ProfileKit.UserProfile"))
    #expect(names.contains("ProfileKit.Address"))
    let classes = rewritten.objects.compactMap { object -> String? in
      if case .instance(let instance) = object { return instance.className }
      return nil
    }
    #expect(classes.contains("ProfileKit.Settings"))
    // Both copies, the referenced one and the inline one, were renamed.
    let datas = rewritten.objects.flatMap { object -> [[UInt8]] in
      switch object {
      case .value(.data(let bytes)): return [bytes]
      case .instance(let instance):
        return instance.fields.entries.compactMap {
          if case .data(let bytes) = $0.value { return bytes }
          return nil
        }
      default: return []
      }
    }
    #expect(datas.count == 2)
    #expect(
      datas.allSatisfy { NestedArchive($0)?.classNames.contains("ProfileKit.UserProfile") == true })
  }

  @Test("Without --nested, the nested archive keeps its bytes")
  func leavesNestedAlone() throws {
    let inner = MigrationFixtures.profile()
    let rewritten = try #require(try rewrite(settings(nested: inner), nested: false))
    #expect(nestedClassNames(rewritten).contains("ProfilesApp.UserProfile"))
    #expect(rewritten.objects.contains { $0 == .value(.data(inner)) })
  }

  @Test("A record whose only old names are in a nested archive is rewritten with --nested")
  func onlyNestedNeedsRenaming() throws {
    let bytes = settings(module: "ProfileKit", nested: MigrationFixtures.profile())
    #expect(try rewrite(bytes, nested: false) == nil)
    #expect(try rewrite(bytes, nested: true) != nil)
  }

  @Test("A nested archive whose graph changed beyond the renames is a difference")
  func nestedDifferenceIsFound() throws {
    let before = try KeyedArchive(bytes: settings(nested: MigrationFixtures.profile(id: 1)))
    let after = try KeyedArchive(
      bytes: settings(
        module: "ProfileKit", nested: MigrationFixtures.profile(module: "ProfileKit", id: 2)))
    let comparator = ArchiveGraphComparator(mapping: mapping, nestedDepth: 1)
    let difference = try #require(comparator.difference(before, after))
    #expect(difference.message.contains("in the nested archive"))
    // Renamed and otherwise equal: no difference.
    let renamed = try KeyedArchive(
      bytes: settings(
        module: "ProfileKit", nested: MigrationFixtures.profile(module: "ProfileKit", id: 1)))
    #expect(comparator.difference(before, renamed) == nil)
    // Without nested comparison the bytes differ.
    #expect(ArchiveGraphComparator(mapping: mapping).difference(before, renamed) != nil)
  }

  @Test("Data that only starts like a property list is plain data, not a nested archive")
  func plainDataIsNotNested() {
    #expect(NestedArchive(Array("bplist00 and then nothing".utf8)) == nil)
    #expect(
      NestedArchive(Array("<?xml version=\"1.0\"?><plist><string>x</string></plist>".utf8)) == nil)
    #expect(NestedArchive([0x00, 0x01]) == nil)
  }
}
