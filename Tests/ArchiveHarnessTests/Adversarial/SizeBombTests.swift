import ArchiveFormat
import HarnessTestSupport
import Testing

/// Size bombs: lengths and counts declared far beyond what the file holds.
@Suite("Size bombs")
struct SizeBombTests {
  /// Every object kind that declares a length, with a count far beyond the file.
  static let declaredKinds: [(name: String, marker: UInt8)] = [
    ("data", 0x40), ("ASCII string", 0x50), ("UTF-16 string", 0x60), ("UTF-8 string", 0x70),
    ("array", 0xA0), ("dictionary", 0xD0),
  ]

  @Test(
    "A length declared far beyond the file is refused before anything is allocated",
    arguments: [UInt64(1) << 20, 1 << 31, 1 << 40, 1 << 62, UInt64(Int64.max), UInt64.max])
  func declaredLengthBeyondFile(count: UInt64) throws {
    for kind in Self.declaredKinds {
      let object = HostileInput.marker(kind.marker, count: count, countWidthExponent: 3)
      let failure = try #require(HostileInput.plistError(HostileInput.binaryList([object])))
      #expect(
        failure.code == .truncated || failure.code == .limitExceeded,
        "\(kind.name) of \(count): \(failure)")
      #expect(failure.offset == 8, "\(kind.name) of \(count): \(failure)")
    }
  }

  @Test("A string of 2^31 UTF-16 units claimed in a 1 KB file is refused")
  func utf16StringOf2To31UnitsInOneKilobyte() throws {
    var object = HostileInput.marker(0x60, count: 1 << 31)
    object += [UInt8](repeating: 0x41, count: 900)
    let bytes = HostileInput.binaryList([object])
    #expect(bytes.count < 1024)
    let failure = try #require(HostileInput.plistError(bytes))
    #expect(failure.code == .limitExceeded || failure.code == .truncated)
    // With a string limit above 2^31 the file itself still refuses it.
    var limits = PropertyListLimits()
    limits.maximumStringLength = Int.max / 4
    let unlimited = try #require(HostileInput.plistError(bytes, limits: limits))
    #expect(unlimited.code == .truncated)
  }

  @Test("A UTF-16 string whose doubled length would overflow is refused")
  func utf16LengthThatOverflowsWhenDoubled() throws {
    var limits = PropertyListLimits()
    limits.maximumStringLength = Int.max
    let object = HostileInput.marker(0x60, count: UInt64(Int.max / 2 + 1), countWidthExponent: 3)
    let failure = try #require(
      HostileInput.plistError(HostileInput.binaryList([object]), limits: limits))
    #expect(failure.code == .truncated)
  }

  @Test("An object count far beyond the offset table is refused")
  func objectCountBeyondOffsetTable() throws {
    for count: UInt64 in [2, 1 << 21, 1 << 32, UInt64.max] {
      var builder = BinaryPlistBuilder(objects: [HostileInput.ascii("x")])
      builder.declaredObjectCount = count
      let failure = try #require(HostileInput.plistError(builder.build()))
      #expect(failure.code == .invalidTrailer || failure.code == .limitExceeded, "\(count)")
    }
  }

  @Test("An XML text of more than the string limit is refused, with or without entities")
  func xmlTextBeyondTheLimit() throws {
    var limits = PropertyListLimits()
    limits.maximumStringLength = 1000
    for text in [String(repeating: "a", count: 1001), String(repeating: "&amp;", count: 1001)] {
      let document = Array("<plist version=\"1.0\"><string>\(text)</string></plist>".utf8)
      let failure = HostileInput.plistError(document, limits: limits)
      #expect(failure?.code == .limitExceeded)
    }
  }

  @Test("An input over the size limit is refused before it is parsed")
  func inputOverTheSizeLimit() throws {
    var limits = PropertyListLimits()
    limits.maximumInputSize = 1 << 16
    let bytes = HostileInput.binaryList([HostileInput.ascii(String(repeating: "z", count: 1 << 16))]
    )
    let failure = try #require(HostileInput.plistError(bytes, limits: limits))
    #expect(failure.code == .limitExceeded)
    #expect(failure.offset == 0)
  }
}
