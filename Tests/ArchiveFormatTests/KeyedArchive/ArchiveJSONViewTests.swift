import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// Collects what a writer hands to its sink.
private final class SinkText {
  var text = ""
}

/// `inspect --format json` writes a binary archive's graph from the bytes read in place
/// (``CheckedArchiveView``); the text must be the one the whole archive read through the tree
/// gives, byte for byte, and every refusal the tree path's.
@Suite("Graph JSON written in place is the tree path's, byte for byte")
struct ArchiveJSONViewTests {
  /// The JSON the archive read through the tree gives, or the tree path's error.
  private func treeText(_ bytes: [UInt8], limits: ArchiveLimits, pretty: Bool) -> Result<
    String, KeyedArchiveError
  > {
    Result { () throws(KeyedArchiveError) in
      let archive = try KeyedArchive(readingTree: bytes, limits: limits)
      var writer = JSONWriter(sortedKeys: false, pretty: pretty)
      ArchiveJSON.write(archive, to: &writer)
      writer.endLine()
      return writer.text()
    }
  }

  /// The JSON written in place through a sink in small chunks, or the error of the check.
  private func viewText(_ bytes: [UInt8], limits: ArchiveLimits, pretty: Bool) -> Result<
    String, KeyedArchiveError
  >? {
    let checked = Result { () throws(KeyedArchiveError) in
      try CheckedArchiveView(bytes: bytes, limits: limits)
    }
    switch checked {
    case .failure(let error):
      return .failure(error)
    case .success(nil):
      return nil
    case .success(let archive?):
      let sink = SinkText()
      var writer = JSONWriter(
        sortedKeys: false, pretty: pretty, chunkSize: 97, sink: { sink.text += $0 })
      ArchiveJSON.write(archive, to: &writer)
      writer.endLine()
      return .success(sink.text)
    }
  }

  /// Writes the bytes both ways, compact and pretty; returns the error both gave, if any.
  @discardableResult
  private func expectSameJSON(
    _ bytes: [UInt8], limits: ArchiveLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> KeyedArchiveError? {
    var refusal: KeyedArchiveError?
    for pretty in [false, true] {
      let tree = treeText(bytes, limits: limits, pretty: pretty)
      guard let view = viewText(bytes, limits: limits, pretty: pretty) else {
        Issue.record("not a binary list", sourceLocation: sourceLocation)
        return nil
      }
      switch (tree, view) {
      case (.success(let treeJSON), .success(let viewJSON)):
        #expect(viewJSON == treeJSON, sourceLocation: sourceLocation)
      case (.failure(let treeError), .failure(let viewError)):
        #expect(viewError == treeError, sourceLocation: sourceLocation)
        refusal = viewError
      default:
        Issue.record(
          "in place: \(view); through the tree: \(tree)", sourceLocation: sourceLocation)
      }
    }
    return refusal
  }

  @Test("Every legacy archive", arguments: KeyedArchiveViewTests.legacyArchives)
  func legacyArchives(file: String) throws {
    let url = Corpus.packageRoot.appendingPathComponent("LegacyArchives").appendingPathComponent(
      file)
    let bytes = try Data(contentsOf: url).withUnsafeBytes { Array($0) }
    // The truncated memo is refused, both ways alike; every other one is written.
    #expect((expectSameJSON(bytes) == nil) == !file.hasSuffix("memo-truncated.archive"))
  }

  @Test("Every binary archive of the corpus", arguments: Corpus.allFiles)
  func corpusArchives(file: String) throws {
    let bytes = try Corpus.bytes(file)
    guard bytes.starts(with: Array("bplist00".utf8)) else { return }
    expectSameJSON(bytes)
  }

  @Test("An XML archive is left to the tree path")
  func xmlIsNotReadInPlace() throws {
    var builder = KeyedArchiveBuilder()
    builder.setRoot(builder.string("x"))
    let xml = Array(XMLPropertyListWriter().write(builder.propertyList).utf8)
    #expect(try CheckedArchiveView(bytes: xml) == nil)
  }

  @Test("Foundation values that follow references: strings, data, URLs, UUIDs, dates, null")
  func foundationLeaves() {
    var builder = KeyedArchiveBuilder()
    let text = builder.string("Zoë \u{1F600} long enough to be stored apart")
    let inner = builder.object("NSString", [("NS.string", text)])
    let outer = builder.object("NSMutableString", [("NS.string", inner)])
    let bytesString = builder.object("NSString", [("NS.bytes", .data(Array("bytes".utf8)))])
    let loopA = builder.reserve()
    let loopB = builder.object("NSString", [("NS.string", loopA)])
    let loopValue = builder.instanceValue("NSString", [("NS.string", loopB)])
    builder.fill(loopA, with: loopValue)
    let stored = builder.add(.data([1, 2, 3, 4]))
    let data = builder.object("NSData", [("NS.data", stored)])
    let inlineData = builder.object("NSMutableData", [("NS.bytes", .data([9, 8]))])
    let base = builder.object(
      "NSURL", [("NS.base", .uid(0)), ("NS.relative", builder.string("https://example.com/"))])
    let url = builder.object("NSURL", [("NS.base", base), ("NS.relative", outer)])
    let selfBase = builder.reserve()
    let selfBaseValue = builder.instanceValue(
      "NSURL", [("NS.base", selfBase), ("NS.relative", text)])
    builder.fill(selfBase, with: selfBaseValue)
    let uuid = builder.object("NSUUID", [("NS.uuidbytes", .data(Array(0..<16)))])
    let shortUUID = builder.object("NSUUID", [("NS.uuidbytes", .data([1]))])
    let date = builder.object("NSDate", [("NS.time", .real(12.5))])
    let integerDate = builder.object("NSDate", [("NS.time", .integer(7))])
    let null = builder.object("NSNull", [])
    let subclass = builder.object(
      "MyString", chain: ["MyString", "NSString", "NSObject"], [("NS.string", text)])
    let root = builder.array([
      text, inner, outer, bytesString, loopA, loopB, data, inlineData, base, url, selfBase, uuid,
      shortUUID, date, integerDate, null, subclass, .uid(0),
    ])
    builder.setRoot(root)
    #expect(expectSameJSON(builder.bytes()) == nil)
  }

  @Test(
    "A chain of 50,000 NSStrings, every link written with its text, follows the chain once",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, *)  // Swift Testing's time limits
  func longStringChainIsFollowedOnce() throws {
    var builder = KeyedArchiveBuilder()
    var next = builder.string("the end")
    for _ in 0..<50_000 {
      next = builder.object("NSString", [("NS.string", next)])
    }
    builder.setRoot(next)
    let bytes = builder.bytes()
    #expect(expectSameJSON(bytes) == nil)
    guard case .success(let text)? = viewText(bytes, limits: .default, pretty: false) else {
      Issue.record("the view path wrote nothing")
      return
    }
    let leaves = text.components(separatedBy: "\"foundationValue\":\"the end\"")
    #expect(leaves.count - 1 == 50_000)
  }

  @Test("Collections, inline containers, cycles and values stored in $objects")
  func collectionsAndCycles() {
    var builder = KeyedArchiveBuilder()
    let name = builder.string("Ada")
    let person = builder.reserve()
    let friends = builder.array([person, name], className: "NSMutableArray")
    let personValue = builder.instanceValue(
      "ProfilesApp.UserProfile",
      [
        ("name", name), ("friends", friends), ("age", .integer(-3)),
        ("big", .integer(unsigned: UInt64.max)), ("score", .real(.nan)), ("flag", .bool(true)),
        ("when", .date(-1.5)), ("inline", .array([.uid(1), .dictionary(["k": .uid(2)])])),
        ("nested", .dictionary(["a": .array([]), "b": .string("ü")])),
      ])
    builder.fill(person, with: personValue)
    let dictionary = builder.dictionary(keys: [name], values: [person])
    let ordered = builder.object(
      "NSOrderedSet", [("NS.object.0", name), ("NS.object.1", person)])
    let set = builder.array([name], className: "NSSet")
    let storedArray = builder.add(.array([.uid(1), .integer(2)]))
    let storedReal = builder.add(.real(-.infinity))
    let root = builder.array([person, dictionary, ordered, set, storedArray, storedReal])
    builder.setRoot(root)
    builder.top["extra"] = .array([.uid(3), .string("inline"), .data([0xFF])])
    #expect(expectSameJSON(builder.bytes()) == nil)
  }

  @Test("Archives nested in Data values, in fields and as NSData, to the nesting limit")
  func nestedArchives() throws {
    func wrap(_ inner: [UInt8]) -> [UInt8] {
      var builder = KeyedArchiveBuilder()
      let data = builder.object("NSData", [("NS.data", .data(inner))])
      let root = builder.object(
        "Terminal.Profile", [("BackgroundColor", .data(inner)), ("Data", data)])
      builder.setRoot(root)
      builder.top["raw"] = .data(inner)
      return builder.bytes()
    }
    var inner = KeyedArchiveBuilder()
    inner.setRoot(inner.object("NSColor", [("NSRGB", .data(Array("0 0 1".utf8)))]))
    var bytes = inner.bytes()
    for _ in 0..<(NestedArchive.maximumDepth + 2) {
      bytes = wrap(bytes)
      #expect(expectSameJSON(bytes) == nil)
    }
  }

  @Test("Repeated keys, a class description with extra keys, shared list objects")
  func repeatedKeysAndSharing() {
    // One list object (the array) referenced from two instances, and a repeated `name` key.
    var list = BinaryPlistBuilder(objects: [])
    list.objects = [
      [0xD4, 1, 2, 3, 4, 5, 6, 7, 8],
      [0x59] + Array("$archiver".utf8), [0x58] + Array("$version".utf8),
      [0x54] + Array("$top".utf8), [0x58] + Array("$objects".utf8),
      [0x5F, 0x10, 0x0F] + Array("NSKeyedArchiver".utf8), [0x12, 0x00, 0x01, 0x86, 0xA0],
      [0xD1, 9, 10], [0xA4, 11, 12, 13, 14],
      [0x54] + Array("root".utf8), [0x80, 0x01],
      // 11 $null, 12 and 13 instances, 14 the class description.
      [0x55] + Array("$null".utf8),
      [0xD4, 15, 16, 16, 17, 18, 19, 20, 21],
      [0xD2, 15, 17, 18, 21],
      [0xD3, 22, 23, 24, 25, 26, 27],
      [0x56] + Array("$class".utf8), [0x54] + Array("name".utf8), [0x54] + Array("list".utf8),
      [0x80, 0x03], [0x51, 0x61], [0x51, 0x62], [0xA2, 28, 29],
      [0x5A] + Array("$classname".utf8), [0x58] + Array("$classes".utf8),
      [0x5B] + Array("$classhints".utf8), [0x55] + Array("Thing".utf8), [0xA1, 25],
      [0xA1, 25], [0x10, 0x05], [0x80, 0x02],
    ]
    #expect(expectSameJSON(list.build()) == nil)
  }

  @Test("UIDs out of range in values a repeated key overrides are read as the tree reads them")
  func overriddenValuesOutOfRange() {
    var list = BinaryPlistBuilder(objects: [])
    list.objects = [
      [0xD4, 1, 2, 3, 4, 5, 6, 7, 8],
      [0x59] + Array("$archiver".utf8), [0x58] + Array("$version".utf8),
      [0x54] + Array("$top".utf8), [0x58] + Array("$objects".utf8),
      [0x5F, 0x10, 0x0F] + Array("NSKeyedArchiver".utf8), [0x12, 0x00, 0x01, 0x86, 0xA0],
      [0xD1, 9, 10], [0xA5, 11, 12, 13, 14, 12],
      [0x54] + Array("root".utf8), [0x80, 0x01],
      // $objects: 0 $null, 1 and 4 one instance (its first $class out of range, its last the
      // description), 2 an instance whose first `name` is out of range, 3 the description.
      [0x55] + Array("$null".utf8),
      [0xD3, 15, 16, 15, 17, 18, 19],
      [0xD3, 16, 16, 15, 20, 21, 19],
      [0xD1, 22, 23],
      [0x56] + Array("$class".utf8), [0x54] + Array("name".utf8),
      [0x80, 0x09], [0x80, 0x02], [0x80, 0x03], [0x80, 0x63], [0x80, 0x01],
      [0x5A] + Array("$classname".utf8), [0x55] + Array("Thing".utf8),
    ]
    #expect(expectSameJSON(list.build()) == nil)
  }

  @Test("Refusals are the tree path's, with code, key path and object index")
  func refusals() {
    let classDescription: PropertyListValue = .dictionary([
      "$classname": .string("Thing"), "$classes": .array([.string("Thing")]),
    ])
    func archive(
      top: PropertyListValue = .dictionary(["root": .uid(1)]), _ objects: [PropertyListValue]
    )
      -> [UInt8]
    {
      BinaryPropertyListWriter().write(
        .dictionary([
          "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": top,
          "$objects": .array(objects),
        ]))
    }
    let cases: [[UInt8]] = [
      BinaryPropertyListWriter().write(.array([])),
      Array("bplist00".utf8) + [1, 2, 3],
      archive([.string("$null"), .dictionary(["$class": .integer(2)]), classDescription]),
      archive([.string("$null"), .dictionary(["$class": .uid(1), "x": .uid(0)]), classDescription]),
      archive([.string("$null"), .dictionary(["$class": .uid(2), "x": .uid(9)]), classDescription]),
      archive([
        .string("$null"), .dictionary(["$class": .uid(2), "x": .array([.uid(7)])]),
        .dictionary(["$classname": .string("T")]),
      ]),
      archive([
        .string("$null"), .dictionary(["$class": .uid(2)]), .dictionary(["$classes": .array([])]),
      ]),
      archive([.string("$null"), .array([.uid(0), .uid(5)])]),
      archive([.string("$null"), .uid(0)]),
      archive([.string("$null"), .dictionary(["x": .integer(1)])]),
      archive(top: .dictionary(["root": .uid(8)]), [.string("$null")]),
      archive(top: .string("x"), [.string("$null")]),
    ]
    for bytes in cases {
      #expect(expectSameJSON(bytes) != nil)
    }
    var limits = ArchiveLimits()
    limits.propertyList.maximumObjectCount = 40
    let many = archive(top: .dictionary([:]), (0..<50).map { .integer($0) })
    #expect(expectSameJSON(many, limits: limits)?.code == .limitExceeded)
  }
}
