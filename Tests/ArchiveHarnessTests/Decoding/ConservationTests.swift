import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation
import Testing

/// Version 1 of a notebook, as an old app archived it: a title, a pinned flag, tags and pages.
final class NotebookV1: NSObject, NSCoding {
  let title: String
  let pinned: Bool
  let tags: Set<String>
  let pages: [String]

  init(title: String, pinned: Bool, tags: Set<String>, pages: [String]) {
    self.title = title
    self.pinned = pinned
    self.tags = tags
    self.pages = pages
    super.init()
  }

  init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(title as NSString, forKey: "title")
    coder.encode(pinned, forKey: "pinned")
    coder.encode(NSSet(array: tags.map { $0 as NSString }), forKey: "tags")
    coder.encode(NSArray(array: pages.map { $0 as NSString }), forKey: "pages")
  }
}

/// How a version 2 decoder treats the archived fields; each test registers one of them.
enum NotebookBehaviour {
  case keepsEverything, dropsPinned, pinnedAsInteger, dropsATag, dropsAPage
}

/// Version 2 of the notebook, whose decoder does what `behaviour` says.
class NotebookV2: NSObject, NSSecureCoding {
  class var behaviour: NotebookBehaviour { .keepsEverything }
  static var supportsSecureCoding: Bool { true }
  var title = ""
  var pinned: Int = 0
  var tags: [String] = []
  var pages: [String] = []

  required init?(coder: NSCoder) {
    title = coder.decodeObject(of: NSString.self, forKey: "title") as String? ?? ""
    let archivedPinned = coder.decodeBool(forKey: "pinned")
    let set = coder.decodeObject(of: [NSSet.self, NSString.self], forKey: "tags") as? NSSet
    tags = (set?.allObjects as? [String] ?? []).sorted()
    pages =
      coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "pages") as? [String] ?? []
    pinned = archivedPinned ? 1 : 0
    switch Self.behaviour {
    case .keepsEverything, .pinnedAsInteger: break
    case .dropsPinned: pinned = 0
    case .dropsATag: tags = Array(tags.dropFirst())
    case .dropsAPage: pages = Array(pages.dropLast())
    }
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(title as NSString, forKey: "title")
    if Self.behaviour == .pinnedAsInteger || Self.behaviour == .dropsPinned {
      coder.encode(pinned, forKey: "pinned")
    } else {
      coder.encode(pinned != 0, forKey: "pinned")
    }
    coder.encode(NSSet(array: tags.map { $0 as NSString }), forKey: "tags")
    coder.encode(NSArray(array: pages.map { $0 as NSString }), forKey: "pages")
  }
}

/// A model class for comparisons of archives built by hand.
final class ConservedBox: NSObject {}

final class KeepingNotebook: NotebookV2 {
  override class var behaviour: NotebookBehaviour { .keepsEverything }
}
final class PinnedDroppingNotebook: NotebookV2 {
  override class var behaviour: NotebookBehaviour { .dropsPinned }
}
final class PinnedAsIntegerNotebook: NotebookV2 {
  override class var behaviour: NotebookBehaviour { .pinnedAsInteger }
}
final class TagDroppingNotebook: NotebookV2 {
  override class var behaviour: NotebookBehaviour { .dropsATag }
}
final class PageDroppingNotebook: NotebookV2 {
  override class var behaviour: NotebookBehaviour { .dropsAPage }
}

/// The archive is the oracle: a decoder that drops or changes a value is caught by comparing
/// what the old bytes hold with what the current code writes back, not the code with itself.
@Suite("Conservation: the archive is the reference")
struct ConservationTests {
  /// A version 1 notebook, archived by Foundation under its class's name, `ArchiveHarnessTests.NotebookV1`.
  static let archive: [UInt8] = {
    let notebook = NotebookV1(
      title: "Field notes", pinned: true, tags: ["birds", "moss", "rain"],
      pages: ["Monday", "Tuesday"])
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(notebook, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return [UInt8](archiver.encodedData)
  }()

  /// Decodes the archive on both paths with `type` as version 2's notebook.
  static func decode(
    with type: NotebookV2.Type, declaredChanges: [DeclaredChange] = []
  ) throws -> [HarnessDecodeResult] {
    let name = NSStringFromClass(type)
    var classMap = try ClassNameMap(parsing: "ArchiveHarnessTests.NotebookV1=\(name)")
    classMap.fieldChanges = declaredChanges
    let decoder = HarnessDecoder(registry: ClassRegistry(modelClasses: [type]), classMap: classMap)
    return [false, true].map {
      decoder.decode(archive, secure: $0, allowedClasses: [name])
    }
  }

  @Test("A decoder that keeps every value decodes, with nothing to report")
  func keptValuesDecode() throws {
    for result in try Self.decode(with: KeepingNotebook.self) {
      #expect(result.outcome.kind == .decoded, "\(result.outcome.rejection?.message ?? "")")
      #expect(result.warnings.isEmpty, "\(result.warnings)")
    }
  }

  @Test("A decoder that drops a field is not-conserved at the field's key path")
  func droppedFieldIsNotConserved() throws {
    for result in try Self.decode(with: PinnedDroppingNotebook.self) {
      let rejection = try #require(result.outcome.rejection)
      #expect(rejection.category == .notConserved)
      #expect(rejection.keyPath == "pinned")
      #expect(
        rejection.message.contains(
          "pinned: the archive holds true (bool); the current code writes 0 (integer)"),
        "\(rejection.message)")
    }
  }

  @Test("A value kept with another stored type is a type-change warning, not a loss")
  func keptValueOfAnotherTypeWarns() throws {
    for result in try Self.decode(with: PinnedAsIntegerNotebook.self) {
      #expect(result.outcome.kind == .decoded, "\(result.outcome)")
      #expect(
        result.warnings.contains { $0.hasPrefix("type-changed: pinned:") }, "\(result.warnings)")
    }
  }

  @Test("A declared conversion silences the type change")
  func declaredConversionIsAccepted() throws {
    let name = NSStringFromClass(PinnedAsIntegerNotebook.self)
    let declared = [DeclaredChange(className: name, key: "pinned", .converted)]
    for result in try Self.decode(with: PinnedAsIntegerNotebook.self, declaredChanges: declared) {
      #expect(result.outcome.kind == .decoded)
      #expect(result.warnings.isEmpty, "\(result.warnings)")
    }
  }

  @Test("A declared drop accepts the dropped value")
  func declaredDropIsAccepted() throws {
    let name = NSStringFromClass(PinnedDroppingNotebook.self)
    let declared = [DeclaredChange(className: name, key: "pinned", .dropped(reason: "unused"))]
    for result in try Self.decode(with: PinnedDroppingNotebook.self, declaredChanges: declared) {
      #expect(result.outcome.kind == .decoded, "\(result.outcome)")
    }
  }

  @Test("A set element that is not written back is lost, matched without order")
  func droppedSetElementIsLost() throws {
    for result in try Self.decode(with: TagDroppingNotebook.self) {
      let rejection = try #require(result.outcome.rejection)
      #expect(rejection.category == .notConserved)
      #expect(rejection.keyPath == "tags[*]", "\(rejection.message)")
    }
  }

  @Test("An array that loses its last element is lost at the array")
  func droppedArrayElementIsLost() throws {
    for result in try Self.decode(with: PageDroppingNotebook.self) {
      let rejection = try #require(result.outcome.rejection)
      #expect(rejection.keyPath == "pages", "\(rejection.message)")
      #expect(rejection.message.contains("2 elements (array)"))
    }
  }

  /// Two archives of one `Shop.Box` each, with the given fields.
  static func boxes(
    _ old: [(String, PropertyListValue)], _ new: [(String, PropertyListValue)]
  ) throws -> [ConservationFinding] {
    func archive(_ fields: [(String, PropertyListValue)]) throws -> KeyedArchive {
      var builder = KeyedArchiveBuilder()
      builder.setRoot(builder.object("Shop.Box", fields))
      return try KeyedArchive(bytes: builder.bytes())
    }
    let registry = ClassRegistry(modelClasses: [ConservedBox.self])
    let check = ConservationCheck(
      registry: registry,
      classMap: try ClassNameMap(parsing: "Shop.Box=\(NSStringFromClass(ConservedBox.self))"))
    var rewritten = KeyedArchiveBuilder()
    rewritten.setRoot(rewritten.object(NSStringFromClass(ConservedBox.self), new))
    return try check.findings(try archive(old), try KeyedArchive(bytes: rewritten.bytes()))
  }

  @Test("Numbers compare as NSNumber does: true is 1, and 1 is 1.0, each a type change")
  func numbersCompareAsNSNumber() throws {
    let findings = try Self.boxes(
      [("flag", .bool(true)), ("count", .integer(1)), ("ratio", .real(0.5))],
      [("flag", .integer(1)), ("count", .real(1.0)), ("ratio", .real(0.5))])
    #expect(findings.map(\.kind) == [.typeChanged, .typeChanged], "\(findings)")
    #expect(findings.map(\.keyPath) == ["flag", "count"])
  }

  @Test("A number that changes value is changed, and a field the new code adds is no finding")
  func changedNumberIsChanged() throws {
    let findings = try Self.boxes(
      [("count", .integer(3))], [("count", .integer(4)), ("added", .string("new"))])
    #expect(findings.map(\.kind) == [.changed], "\(findings)")
    #expect(
      findings.first?.description
        == "count: the archive holds 3 (integer); the current code writes 4 (integer)")
  }

  @Test("A field the new code does not write is lost")
  func missingFieldIsLost() throws {
    let findings = try Self.boxes([("note", .string("keep me"))], [])
    #expect(findings.map(\.kind) == [.lost])
    #expect(findings.first?.current == "nothing")
  }

  @Test("An archived nil that the new code leaves out is no loss")
  func archivedNilLeftOutIsKept() throws {
    // Object 0 of every keyed archive is `$null`.
    let findings = try Self.boxes(
      [("note", .uid(0)), ("kept", .integer(1))], [("kept", .integer(1))])
    #expect(findings.isEmpty, "\(findings)")
  }

  @Test("A record whose rewrite loses a value is refused at the conserve step")
  func roundTripRefusesALoss() throws {
    let name = NSStringFromClass(PinnedDroppingNotebook.self)
    let trip = RoundTrip(
      registry: ClassRegistry(modelClasses: [PinnedDroppingNotebook.self]),
      classMap: try ClassNameMap(parsing: "ArchiveHarnessTests.NotebookV1=\(name)"),
      allowedClasses: [name])
    switch trip.run(Self.archive) {
    case .success(let migrated):
      Issue.record("the lossy rewrite was accepted: \(migrated.after)")
    case .failure(let refusal):
      #expect(refusal.step == .conserve, "\(refusal)")
      #expect(refusal.reason.contains("pinned: the archive holds true (bool)"), "\(refusal)")
    }
  }

  @Test("A record whose rewrite keeps every value migrates")
  func roundTripKeepsAKeptRecord() throws {
    let name = NSStringFromClass(KeepingNotebook.self)
    let trip = RoundTrip(
      registry: ClassRegistry(modelClasses: [KeepingNotebook.self]),
      classMap: try ClassNameMap(parsing: "ArchiveHarnessTests.NotebookV1=\(name)"),
      allowedClasses: [name])
    guard case .success = trip.run(Self.archive) else {
      Issue.record("\(trip.run(Self.archive))")
      return
    }
  }
}
