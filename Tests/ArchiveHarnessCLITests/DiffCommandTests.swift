import ArchiveFormat
import Foundation
import HarnessTestSupport
import ProfileKit
import ProfilesApp
import Testing

/// Version 2 of the sample app's profile, as the tests write it: archived as
/// `ProfileKit.UserProfile`, without the `isActive` field version 1 has.
final class ProfileWithoutActiveFlag: NSObject, NSCoding {
  let id: Int
  let name: String
  let address: ProfileKit.Address

  init(id: Int, name: String, address: ProfileKit.Address) {
    self.id = id
    self.name = name
    self.address = address
    super.init()
  }

  init?(coder: NSCoder) { nil }

  /// Archived under ProfileKit's name (swift-corelibs-foundation's archiver ignores
  /// `setClassName(_:for:)`, and takes this).
  override var classForKeyedArchiver: AnyClass? { ProfileKit.UserProfile.self }

  func encode(with coder: NSCoder) {
    coder.encode(id, forKey: "id")
    coder.encode(name as NSString, forKey: "name")
    coder.encode(address, forKey: "address")
  }
}

/// `diff`, run as a user would: archives written by Foundation's NSKeyedArchiver
/// (swift-corelibs-foundation on Linux), by hand, and in stores.
@Suite("archive-harness diff, run as a user would")
struct DiffCommandTests {
  /// Archives `root` with Foundation.
  static func foundationArchive(_ root: NSObject) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return archiver.encodedData
  }

  static func versionOne() -> ProfilesApp.UserProfile {
    ProfilesApp.UserProfile(
      id: 7, name: "Avery", isActive: true,
      address: ProfilesApp.Address(street: "1 Fixture Road", city: "Town"))
  }

  static func versionTwo() -> ProfileWithoutActiveFlag {
    ProfileWithoutActiveFlag(
      id: 7, name: "Avery", address: ProfileKit.Address(street: "1 Fixture Road", city: "Town"))
  }

  /// A new folder holding the named files; the caller removes it.
  static func folder(_ files: [String: Data]) throws -> String {
    let folder = try StoreFixtures.temporaryFolder()
    for (name, data) in files {
      try data.write(to: URL(fileURLWithPath: folder + "/" + name))
    }
    return folder
  }

  static func diff(_ arguments: [String], in folder: String) throws -> CommandRunner.Result {
    try CommandRunner.run(["diff"] + arguments, in: URL(fileURLWithPath: folder))
  }

  /// Version 1 and version 2 of the sample profile, each archived by Foundation.
  static func versions() throws -> String {
    try folder([
      "v1.archive": foundationArchive(versionOne()), "v2.archive": foundationArchive(versionTwo()),
    ])
  }

  @Test("A renamed class and a dropped field between two versions of the sample archive")
  func renamedClassAndDroppedField() throws {
    let folder = try Self.versions()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(["v1.archive", "v2.archive"], in: folder)
    Self.expectVersionOneToTwo(result, old: "v1.archive", new: "v2.archive")
  }

  /// Checks the text of `diff OLD NEW` from version 1 of the sample profile to version 2:
  /// exit 1, the header, the renamed classes and the dropped field, and the summary.
  static func expectVersionOneToTwo(
    _ result: CommandRunner.Result, old: String, new: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
    // The differences come in the old archive's field order, which Foundation's archiver
    // on Linux does not fix; the lines are the same.
    var lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.prefix(2) == ["--- \(old)", "+++ \(new)"], "\(result.stdout)",
      sourceLocation: sourceLocation)
    #expect(
      lines.last == "3 differences: 1 removed, 2 changed in type", "\(result.stdout)",
      sourceLocation: sourceLocation)
    lines = Array(lines.dropFirst(2).dropLast())
    #expect(
      Set(lines) == [
        "type-changed root: an instance of ProfilesApp.UserProfile → an instance of ProfileKit.UserProfile",
        "removed isActive: true (bool)",
        "type-changed address: an instance of ProfilesApp.Address → an instance of ProfileKit.Address",
      ], "\(result.stdout)", sourceLocation: sourceLocation)
    #expect(
      lines.first?.hasPrefix("type-changed root: ") == true, "\(result.stdout)",
      sourceLocation: sourceLocation)
  }

  @Test("--class-map makes the renamed classes equal, and the dropped field remains")
  func classMapLeavesTheDroppedField() throws {
    let folder = try Self.versions()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(
      ["v1.archive", "v2.archive", "--class-map", "ProfilesApp.*=ProfileKit.*"], in: folder)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(!result.stdout.contains("type-changed"), "\(result.stdout)")
    #expect(result.stdout.contains("\nremoved isActive: true (bool)\n"), "\(result.stdout)")
  }

  @Test("With --class-map, a renamed class that keeps its fields shows nothing and exits 0")
  func classMapMakesARenameEqual() throws {
    let current = ProfileKit.UserProfile(
      id: 7, name: "Avery", isActive: true,
      address: ProfileKit.Address(street: "1 Fixture Road", city: "Town"))
    let folder = try Self.folder([
      "v1.archive": Self.foundationArchive(Self.versionOne()),
      "current.archive": Self.foundationArchive(current),
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let unmapped = try Self.diff(["v1.archive", "current.archive"], in: folder)
    #expect(unmapped.status == 1)
    #expect(
      unmapped.stdout.contains(
        "type-changed root: an instance of ProfilesApp.UserProfile → an instance of "
          + "ProfileKit.UserProfile"), "\(unmapped.stdout)")
    let mapped = try Self.diff(
      [
        "v1.archive", "current.archive", "--class-map",
        "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
        "ProfilesApp.Address=ProfileKit.Address",
      ], in: folder)
    #expect(mapped.status == 0, "\(mapped.stdout)\(mapped.stderr)")
    #expect(mapped.stdout.isEmpty)
  }

  /// A graph with shared references: a list that holds one profile twice, and a dictionary
  /// of profiles, built in the given order.
  static func sharedGraph(reversed: Bool) -> NSObject {
    let first = versionOne()
    let second = ProfilesApp.UserProfile(
      id: 8, name: "Blake", isActive: false, address: first.address)
    let pairs = [("7", first), ("8", second)]
    let byID = NSMutableDictionary()
    for (key, profile) in reversed ? pairs.reversed() : pairs { byID[key as NSString] = profile }
    let list = NSArray(array: [first, second, first])
    let tags = NSSet(array: (reversed ? ["b", "a"] : ["a", "b"]) as [NSString])
    return NSDictionary(dictionary: ["list": list, "byID": byID, "tags": tags] as [NSString: Any])
  }

  @Test("The same graph archived twice by Foundation shows nothing and exits 0")
  func sameGraphTwiceIsEqual() throws {
    let folder = try Self.folder([
      "a.archive": Self.foundationArchive(Self.sharedGraph(reversed: false)),
      "b.archive": Self.foundationArchive(Self.sharedGraph(reversed: true)),
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(["a.archive", "b.archive"], in: folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.isEmpty, "\(result.stdout)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  /// A box with a shared child that points back at the box, its objects written in the order
  /// given; with `changed`, the child's name differs.
  static func handBuilt(childFirst: Bool, name: String = "bolt") -> Data {
    var builder = KeyedArchiveBuilder()
    let child: PropertyListValue
    let box: PropertyListValue
    if childFirst {
      child = builder.reserve()
      box = builder.reserve()
    } else {
      box = builder.reserve()
      child = builder.reserve()
    }
    let nameValue = builder.string(name)
    let item = builder.instanceValue("Shop.Item", [("name", nameValue), ("owner", box)])
    builder.fill(child, with: item)
    let items = builder.array([child, child])
    let boxValue = builder.instanceValue("Shop.Box", [("first", child), ("items", items)])
    builder.fill(box, with: boxValue)
    builder.setRoot(box)
    return Data(builder.bytes())
  }

  @Test("The same graph with its objects in another order (other UIDs) shows nothing")
  func renumberedUIDsAreEqual() throws {
    let a = Self.handBuilt(childFirst: true)
    let b = Self.handBuilt(childFirst: false)
    #expect(a != b)
    let folder = try Self.folder(["a.archive": a, "b.archive": b])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(["a.archive", "b.archive"], in: folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.isEmpty, "\(result.stdout)")
  }

  @Test("A shared object in a cycle is compared once, and a change inside it is shown once")
  func sharedReferenceAndCycle() throws {
    let folder = try Self.folder([
      "a.archive": Self.handBuilt(childFirst: true),
      "b.archive": Self.handBuilt(childFirst: false, name: "nut"),
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(["a.archive", "b.archive"], in: folder)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stdout.contains(#"changed first.name: "bolt" (string) → "nut" (string)"#),
      "\(result.stdout)")
    #expect(result.stdout.hasSuffix("1 difference: 1 changed\n"), "\(result.stdout)")
  }

  @Test("A changed value and an integer that became a string, each with both values")
  func changedValueAndType() throws {
    func box(_ count: PropertyListValue, _ label: String) -> Data {
      var builder = KeyedArchiveBuilder()
      let text = builder.string(label)
      builder.setRoot(builder.object("Shop.Box", [("count", count), ("label", text)]))
      return Data(builder.bytes())
    }
    let folder = try Self.folder([
      "old.archive": box(.integer(3), "screws"), "new.archive": box(.string("3"), "nails"),
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(["old.archive", "new.archive"], in: folder)
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(#"type-changed count: 3 (integer) → "3" (string)"#),
      "\(result.stdout)")
    #expect(
      result.stdout.contains(#"changed label: "screws" (string) → "nails" (string)"#),
      "\(result.stdout)")
  }

  @Test("A field only the new version has is added")
  func addedField() throws {
    let folder = try Self.versions()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(
      ["v2.archive", "v1.archive", "--class-map", "ProfileKit.*=ProfilesApp.*"], in: folder)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.contains("\nadded isActive: true (bool)\n"), "\(result.stdout)")
  }

  @Test("A row of an SQLite store and a file of a folder store, each named by its place")
  func storePlaces() throws {
    let folder = try StoreFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try StoreFixtures.makeSQLiteStore(at: folder + "/store.sqlite")
    try FileManager.default.createDirectory(
      atPath: folder + "/Files/profiles", withIntermediateDirectories: true)
    try Data(StoreFixtures.shipped(StoreFixtures.legacyProfile)).write(
      to: URL(fileURLWithPath: folder + "/Files/profiles/1.archive"))
    try Self.foundationArchive(Self.versionTwo()).write(
      to: URL(fileURLWithPath: folder + "/Files/profiles/2.archive"))
    let same = try Self.diff(
      ["store.sqlite:store[key='a-legacy']", "Files:profiles/1.archive"], in: folder)
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    #expect(same.stdout.isEmpty)
    let different = try Self.diff(
      ["store.sqlite:store['a-legacy']", "Files:profiles/2.archive"], in: folder)
    #expect(different.status == 1, "\(different.stderr)")
    #expect(different.stdout.hasPrefix("--- store.sqlite:store['a-legacy']\n"))
    #expect(different.stdout.contains("\nremoved isActive: true (bool)\n"), "\(different.stdout)")
  }

  /// A folder store of the shipped v1 archives, a copy of it, and the store migrated with
  /// `migrate --rename-only`; the caller removes the folder.
  static func migratedStore() throws -> String {
    let folder = try StoreFixtures.temporaryFolder()
    for name in ["Backup", "Store"] {
      try FileManager.default.createDirectory(
        atPath: folder + "/" + name, withIntermediateDirectories: true)
      for file in ["profile-valid.archive", "profiles-list.archive", "memo-valid.archive"] {
        try Data(StoreFixtures.shipped("LegacyArchives/ProfilesApp-1.0/" + file)).write(
          to: URL(fileURLWithPath: folder + "/" + name + "/" + file))
      }
    }
    let migrated = try CommandRunner.run(
      [
        "migrate", "--store", "Store", "--rename-only", "--class-map",
        "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
        "ProfilesApp.Address=ProfileKit.Address", "--no-backup",
      ], in: URL(fileURLWithPath: folder))
    #expect(migrated.status == 0, "\(migrated.stdout)\(migrated.stderr)")
    return folder
  }

  @Test("--store compares a folder store with its migrated copy record by record")
  func storeAndItsMigratedCopy() throws {
    let folder = try Self.migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(["--store", "Backup", "Store"], in: folder)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "Store/profile-valid.archive\n  type-changed root: an instance of ProfilesApp.UserProfile"
          + " → an instance of ProfileKit.UserProfile\n"), "\(result.stdout)")
    #expect(result.stdout.contains("  type-changed [2].address: "), "\(result.stdout)")
    #expect(!result.stdout.contains("memo-valid"), "\(result.stdout)")
    #expect(result.stdout.hasPrefix("--- Backup\n+++ Store\n"))
    #expect(result.stdout.contains("2 of 3 records differ (2 different)"), "\(result.stdout)")
    let mapped = try Self.diff(
      [
        "--store", "Backup", "Store", "--class-map",
        "ProfilesApp.UserProfile=ProfileKit.UserProfile", "--class-map",
        "ProfilesApp.Address=ProfileKit.Address",
      ], in: folder)
    #expect(mapped.status == 0, "\(mapped.stdout)\(mapped.stderr)")
    #expect(mapped.stdout.isEmpty)
  }

  @Test("--store names a record only one store holds")
  func storeRecordOnlyInOne() throws {
    let folder = try Self.migratedStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.removeItem(atPath: folder + "/Store/memo-valid.archive")
    let result = try Self.diff(["--store", "Backup", "Store", "--format", "json"], in: folder)
    #expect(result.status == 1, "\(result.stderr)")
    let violations = try JSONSchemas.violations(of: result.stdout, against: .diff)
    #expect(violations.isEmpty, "\(violations)")
    #expect(result.stdout.contains(#""old": "Backup/memo-valid.archive""#), "\(result.stdout)")
    #expect(result.stdout.contains(#""only-in-old""#), "\(result.stdout)")
  }

  @Test("JSON output validates against schemas/diff.schema.json")
  func jsonValidates() throws {
    let folder = try Self.versions()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(["v1.archive", "v2.archive", "--format", "json"], in: folder)
    #expect(result.status == 1, "\(result.stderr)")
    let violations = try JSONSchemas.violations(of: result.stdout, against: .diff)
    #expect(violations.isEmpty, "\(violations)")
    let document = try JSONDocument(parsing: result.stdout)
    #expect(document["summary"]?["differences"]?["removed"] == .number(1))
    #expect(document["summary"]?["differences"]?["type-changed"] == .number(2))
    guard case .array(let records)? = document["records"], records.count == 1,
      case .array(let differences)? = records[0]["differences"], let first = differences.first
    else {
      Issue.record("no record with differences: \(result.stdout)")
      return
    }
    #expect(first["kind"] == .string("type-changed"))
    #expect(first["keyPath"] == .string("root"))
    #expect(first["old"]?["className"] == .string("ProfilesApp.UserProfile"))
    #expect(first["new"]?["className"] == .string("ProfileKit.UserProfile"))
  }

  @Test("HTML output is one page with old and new side by side, written to --output")
  func htmlWritten() throws {
    let folder = try Self.versions()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Self.diff(
      ["v1.archive", "v2.archive", "--format", "html", "--output", "diff.html"], in: folder)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    let page = try String(contentsOfFile: folder + "/diff.html", encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(
      page.contains("<th scope=\"col\">Old: v1.archive</th><th scope=\"col\">New: v2.archive</th>"))
    #expect(
      page.contains(
        "<tr class=\"difference removed\"><th scope=\"row\" class=\"path\">isActive</th>"
          + "<td data-label=\"Difference\" class=\"kind\">removed</td>"
          + "<td data-label=\"Old\" class=\"old\">true (bool)</td>"), "\(page)")
    #expect(page.hasSuffix("</html>\n"))
  }

  @Test("A place naming a missing row exits 2 with an error at that row")
  func missingRowIsLocated() throws {
    let folder = try StoreFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try StoreFixtures.makeSQLiteStore(at: folder + "/store.sqlite")
    let result = try Self.diff(
      ["store.sqlite:store[nope]", "store.sqlite:store[a-legacy]"], in: folder)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "store.sqlite:store[key='nope']: error: [record-not-found] no row of 'store' has key = 'nope'\n"
    )
  }

  @Test("A malformed place exits 2 naming it, and so does a file that is not an archive")
  func malformedPlaceIsLocated() throws {
    let folder = try StoreFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try StoreFixtures.makeSQLiteStore(at: folder + "/store.sqlite")
    try Data("not an archive".utf8).write(to: URL(fileURLWithPath: folder + "/note.txt"))
    let malformed = try Self.diff(["store.sqlite:store[a-legacy", "note.txt"], in: folder)
    #expect(malformed.status == 2)
    #expect(
      malformed.stderr.hasPrefix("store.sqlite:store[a-legacy: error: [invalid-place] "),
      "\(malformed.stderr)")
    let notArchive = try Self.diff(["note.txt", "store.sqlite:store[a-legacy]"], in: folder)
    #expect(notArchive.status == 2)
    #expect(notArchive.stderr.hasPrefix("note.txt:offset 0: error: "), "\(notArchive.stderr)")
    let null = try Self.diff(["store.sqlite:store[b-null]", "note.txt"], in: folder)
    #expect(null.status == 2)
    #expect(
      null.stderr
        == "store.sqlite:store[key='b-null']: error: [invalid] the value is NULL, not an archive\n")
  }
}
