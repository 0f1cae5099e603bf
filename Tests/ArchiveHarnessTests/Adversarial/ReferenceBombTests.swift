import ArchiveFormat
import HarnessTestSupport
import Testing

/// Reference bombs: objects shared so often that a naive walk of the graph never ends.
@Suite("Reference bombs")
struct ReferenceBombTests {
  /// An archive in which each of `levels` NSArrays holds the next one twice: 2^levels paths to one string.
  static func doublingArchive(levels: Int) -> [UInt8] {
    var builder = ArchiveBuilder()
    var next = builder.string("leaf")
    for _ in 0..<levels {
      next = builder.array([next, next])
    }
    builder.setRoot(next)
    return builder.bytes()
  }

  @Test("The tree of a 2^40 reference bomb prints each object once")
  func treePrintsEachObjectOnce() throws {
    let archive = try KeyedArchive(bytes: Self.doublingArchive(levels: 40))
    let tree = ArchiveTreePrinter().render(archive)
    let lines = tree.split(separator: "\n")
    // A heading and a shared mark per array, the leaf, and the header line.
    #expect(lines.count <= 2 * archive.objects.count + 2)
    #expect(lines.filter { $0.hasSuffix("(shared, shown above)") }.count == 39)
  }

  @Test("Key paths over a 2^40 reference bomb stop at the match limit or reach one node")
  func keyPathsStayBounded() throws {
    let archive = try KeyedArchive(bytes: Self.doublingArchive(levels: 40))
    var limits = ArchiveLimits()
    limits.maximumKeyPathMatches = 100_000
    let fanOut = try ArchiveKeyPath(String(repeating: "[*]", count: 40))
    let error = try #require(throws: KeyedArchiveError.self) {
      _ = try archive.evaluate(fanOut, limits: limits)
    }
    #expect(error.code == .limitExceeded)
    let single = try archive.evaluate(
      ArchiveKeyPath(String(repeating: "[1]", count: 40)), limits: limits)
    #expect(single.map { archive.leaf(of: $0.node) } == [.string("leaf")])
    let counted = try archive.evaluate(
      ArchiveKeyPath(String(repeating: "[*]", count: 16) + ".@count"), limits: limits)
    #expect(counted.count == 1 << 16)
  }

  @Test("The JSON document of a reference bomb grows linearly with its levels")
  func jsonIsLinear() throws {
    let small = try KeyedArchive(bytes: Self.doublingArchive(levels: 20))
    let large = try KeyedArchive(bytes: Self.doublingArchive(levels: 40))
    let smallSize = ArchiveJSON.text(for: small).utf8.count
    let largeSize = ArchiveJSON.text(for: large).utf8.count
    // Twice the levels is about twice the text; an expanding walk would be 2^20 times.
    #expect(largeSize < 3 * smallSize)
  }

  @Test("Re-encoding a 2^40 reference bomb keeps it the size it was")
  func reencodingKeepsTheSize() throws {
    let bytes = Self.doublingArchive(levels: 40)
    let archive = try KeyedArchive(bytes: bytes)
    let written = BinaryPropertyListWriter().write(archive.propertyList)
    #expect(written.count <= 2 * bytes.count)
    #expect(try KeyedArchive(bytes: written) == archive)
  }

  @Test("A wildcard over many references to one wide array indexes it without copying it each time")
  func wildcardOverWideSharedArray() throws {
    // 50,000 references to one NSArray of 50,000 strings: `[*][7]` is 50,000 steps.
    let width = 50_000
    var builder = ArchiveBuilder()
    let element = builder.string("x")
    let wide = builder.array(Array(repeating: element, count: width))
    let outer = builder.array(Array(repeating: wide, count: width))
    builder.setRoot(outer)
    let archive = try KeyedArchive(bytes: builder.bytes())
    var matches: [KeyPathMatch] = []
    let elapsed = try HostileInput.seconds {
      matches = try archive.evaluate(ArchiveKeyPath("[*][7]"))
    }
    #expect(matches.count == width)
    // Linear work is milliseconds; copying the wide array per match is minutes.
    #expect(elapsed < 10)
  }

  @Test("A field that names one key of a wide shared object is found without listing every key")
  func keyLookupOverWideSharedObject() throws {
    // 50,000 references to one instance of 10,000 fields, asking for the last field.
    let width = 10_000
    var builder = ArchiveBuilder()
    var fields: [(String, PropertyListValue)] = []
    for index in 0..<width {
      fields.append(("field\(index)", .integer(Int64(index))))
    }
    let wide = builder.object("Wide", fields)
    let outer = builder.array(Array(repeating: wide, count: 50_000))
    builder.setRoot(outer)
    let archive = try KeyedArchive(bytes: builder.bytes())
    var matches: [KeyPathMatch] = []
    let elapsed = try HostileInput.seconds {
      matches = try archive.evaluate(ArchiveKeyPath("[*].field\(width - 1)"))
    }
    #expect(matches.count == 50_000)
    #expect(elapsed < 10)
  }

  @Test("Containers shared inside the property list expand no further than the file's size")
  func inlineValueBomb() throws {
    // Plist-level sharing, not UIDs: arrays each holding the next twice, stored
    // inline in one field. 20 levels are 2^20 values from a file of 400 bytes;
    // every walk of them (tree, JSON, re-encoding) would be that large.
    func payload(levels: Int) -> [[UInt8]] {
      var objects: [[UInt8]] = []
      for level in 0..<levels {
        let next = HostileInput.payloadIndex + level + 1
        objects.append(HostileInput.array([next, next], width: 4))
      }
      objects.append(HostileInput.ascii("x"))
      return objects
    }
    let bomb = HostileInput.archive(payload: payload(levels: 20))
    #expect(bomb.count < 1024)
    let failure = HostileInput.archiveError(bomb)
    #expect(failure?.code == .limitExceeded)
    #expect(failure?.propertyListError?.message.contains("shared references") == true)
    // A little sharing, within the file's size, still reads and walks.
    let archive = try KeyedArchive(bytes: HostileInput.archive(payload: payload(levels: 3)))
    let sizes = try HostileInput.walkEverything(archive)
    #expect(sizes.tree < 4096)
  }
}
