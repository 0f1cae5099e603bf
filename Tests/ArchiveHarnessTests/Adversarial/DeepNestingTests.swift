import ArchiveFormat
import HarnessTestSupport
import Testing

/// Deep nesting, 100,000 levels, in each format and through object references.
@Suite("Deep nesting")
struct DeepNestingTests {
  static let depth = 100_000

  @Test("100,000 levels of binary arrays inside an archive field are refused, not recursed")
  func binaryNestingInsideAnArchive() throws {
    var payload: [[UInt8]] = []
    for level in 0..<Self.depth {
      let next = HostileInput.payloadIndex + level + 1
      payload.append(HostileInput.array([next], width: 4))
    }
    payload.append(HostileInput.ascii("bottom"))
    let failure = HostileInput.archiveError(HostileInput.archive(payload: payload))
    #expect(failure?.code == .limitExceeded)
    #expect(failure?.propertyListError?.message.contains("nesting") == true)
  }

  @Test("100,000 levels of binary dictionaries are refused, not recursed")
  func binaryDictionaryNesting() throws {
    // Object 0 is the key; object i (1...depth) is a dictionary holding object i+1.
    var objects: [[UInt8]] = [HostileInput.ascii("k")]
    for level in 1...Self.depth {
      objects.append(HostileInput.dictionary(keys: [0], values: [level + 1], width: 4))
    }
    objects.append(HostileInput.ascii("bottom"))
    let failure = HostileInput.plistError(HostileInput.binaryList(objects, top: 1))
    #expect(failure?.code == .limitExceeded)
  }

  @Test("100,000 levels of XML arrays and dictionaries inside an archive are refused")
  func xmlNestingInsideAnArchive() throws {
    for (open, close) in [("<array>", "</array>"), ("<dict><key>k</key>", "</dict>")] {
      let payload =
        String(repeating: open, count: Self.depth) + "<string>bottom</string>"
        + String(repeating: close, count: Self.depth)
      let failure = HostileInput.archiveError(HostileInput.xmlArchive(payload: payload))
      #expect(failure?.code == .limitExceeded, "\(open)")
      #expect(failure?.propertyListError?.line != nil, "\(open)")
    }
  }

  @Test("100,000 unclosed XML elements are refused without recursion or quadratic work")
  func xmlUnclosedNesting() throws {
    let document = Array(
      ("<plist version=\"1.0\">" + String(repeating: "<array>", count: Self.depth)).utf8)
    var failure: PropertyListError?
    let elapsed = HostileInput.seconds {
      failure = HostileInput.plistError(document)
    }
    #expect(failure?.code == .limitExceeded)
    #expect(elapsed < 10)
  }

  @Test("100,000 NSArrays each holding the next print, evaluate, serialise and re-encode")
  func objectReferenceChain() throws {
    var builder = ArchiveBuilder()
    var next = builder.string("bottom")
    for _ in 0..<Self.depth {
      next = builder.array([next])
    }
    builder.setRoot(next)
    let archive = try KeyedArchive(bytes: builder.bytes())
    let tree = ArchiveTreePrinter().render(archive)
    #expect(tree.contains("deeper objects elided at depth 256"))
    let path = try ArchiveKeyPath(String(repeating: "[0]", count: Self.depth))
    let matches = try archive.evaluate(path)
    #expect(matches.map { archive.leaf(of: $0.node) } == [.string("bottom")])
    try HostileInput.walkEverything(archive)
  }

  @Test("A cycle through 100,000 objects prints with a cycle mark or elision and never loops")
  func objectReferenceCycle() throws {
    var builder = ArchiveBuilder()
    let first = builder.reserve()
    var next = first
    for _ in 1..<Self.depth {
      next = builder.object("Node", [("next", next)])
    }
    builder.fill(first, with: builder.instanceValue("Node", [("next", next)]))
    builder.setRoot(first)
    let archive = try KeyedArchive(bytes: builder.bytes())
    // The printer recurses one level per object, so it walks only to the default depth.
    let tree = ArchiveTreePrinter(limits: .default).render(archive)
    #expect(tree.contains("elided"))
    let path = try ArchiveKeyPath(String(repeating: "next.", count: Self.depth * 2) + "next")
    let matches = try archive.evaluate(path)
    #expect(matches.count == 1)
    try HostileInput.walkEverything(archive)
  }
}
