import ArchiveFormat
import Testing

@Suite("Property-list writers")
struct WriterTests {
  private let sample: PropertyListValue = .dictionary([
    "$archiver": .string("NSKeyedArchiver"),
    "$objects": .array([.string("$null"), .string("ünï"), .uid(1), .real(-0.5), .date(12.25)]),
    "n": .integer(-7), "big": .unsignedInteger(UInt64.max), "b": .bool(true), "d": .data([9, 8]),
  ])

  @Test("Binary writing is deterministic")
  func binaryIsDeterministic() {
    #expect(BinaryPropertyListWriter().write(sample) == BinaryPropertyListWriter().write(sample))
  }

  @Test("Binary read(write(x)) equals x")
  func binaryRoundTrips() throws {
    #expect(try PropertyListReader().read(BinaryPropertyListWriter().write(sample)) == sample)
  }

  @Test("A NaN real survives a binary round trip")
  func nanRoundTrips() throws {
    let value = PropertyListValue.array([.real(.nan), .date(.infinity)])
    #expect(try PropertyListReader().read(BinaryPropertyListWriter().write(value)) == value)
  }

  @Test("XML read(write(x)) equals x for whole-second dates")
  func xmlRoundTrips() throws {
    let value: PropertyListValue = .dictionary([
      "s": .string("a<b>&c"), "u": .uid(4), "i": .integer(Int64.min), "r": .real(0.1),
      "e": .array([]), "t": .date(3600),
    ])
    let text = XMLPropertyListWriter().write(value)
    #expect(try PropertyListReader().read(Array(text.utf8)) == value)
  }

  @Test("Strings shared by several containers are written once")
  func scalarsAreShared() {
    let once = BinaryPropertyListWriter().write(.array([.string("shared-string")]))
    let twice = BinaryPropertyListWriter().write(
      .array([.string("shared-string"), .string("shared-string")]))
    #expect(twice.count - once.count <= 2)
  }

  @Test("A non-ASCII string equal to an earlier ASCII one is written once, as the ASCII one")
  func kelvinSignMeetsEarlierK() {
    // U+212A KELVIN SIGN is canonically equivalent to K, so String equality shares them.
    let bytes = BinaryPropertyListWriter().write(.array([.string("K"), .string("\u{212A}")]))
    #expect(Self.objectCount(bytes) == 2)
    #expect(bytes.contains(0x51))
    #expect(!bytes.contains(0x61))
  }

  @Test("An ASCII string equal to an earlier non-ASCII one is written once, as the non-ASCII one")
  func kMeetsEarlierKelvinSign() {
    let bytes = BinaryPropertyListWriter().write(.array([.string("\u{212A}"), .string("K")]))
    #expect(Self.objectCount(bytes) == 2)
    #expect(bytes.contains(0x61))
    #expect(!bytes.contains(0x51))
  }

  @Test("Hundreds of distinct strings, each twice, are each written once")
  func manyStringsAreShared() throws {
    let strings = (0..<300).map { PropertyListValue.string("key-\($0)") }
    let value = PropertyListValue.array(strings + strings)
    let bytes = BinaryPropertyListWriter().write(value)
    #expect(Self.objectCount(bytes) == 301)
    #expect(try PropertyListReader().read(bytes) == value)
  }

  @Test("Small and large UIDs are each written once")
  func uidsAreShared() throws {
    let value = PropertyListValue.array([.uid(5000), .uid(3), .uid(5000), .uid(3), .uid(0)])
    let bytes = BinaryPropertyListWriter().write(value)
    #expect(Self.objectCount(bytes) == 4)
    #expect(try PropertyListReader().read(bytes) == value)
  }

  /// The object count in a binary property list's trailer.
  private static func objectCount(_ bytes: [UInt8]) -> Int {
    bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
  }

  @Test("Raw JSON uses the $date, $data and $uid forms")
  func rawJSONShape() {
    let json = PropertyListValue.array([.date(0), .data([1, 2, 3]), .uid(5)]).jsonValue
    #expect(
      json.render(sortedKeys: true, pretty: false)
        == #"[{"$date":"2001-01-01T00:00:00.000Z"},{"$data":"AQID"},{"$uid":5}]"#)
  }
}

@Suite("ISO 8601 and base64")
struct TextFormatTests {
  @Test(
    "Formats and parses dates in UTC",
    arguments: [
      (0.0, "2001-01-01T00:00:00Z"), (-978_307_200.0, "1970-01-01T00:00:00Z"),
      (86_400.0 * 59, "2001-03-01T00:00:00Z"), (-31_622_400.0, "2000-01-01T00:00:00Z"),
    ])
  func dates(seconds: Double, text: String) {
    #expect(ISO8601.format(seconds) == text)
    #expect(ISO8601.parse(text) == seconds)
  }

  @Test("Refuses to format dates that are not finite")
  func nonFiniteDates() {
    #expect(ISO8601.format(.nan) == nil)
    #expect(ISO8601.format(.infinity) == nil)
    #expect(ISO8601.format(1e300) == nil)
  }

  @Test("Base64 round-trips every length", arguments: 0..<8)
  func base64(length: Int) {
    let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
    #expect(Base64.decode(Base64.encode(bytes)) == bytes)
  }

  @Test("Base64 matches RFC 4648 vectors")
  func base64Vectors() {
    #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
    #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
    #expect(Base64.decode("Zm9v\nYg==") == Array("foob".utf8))
    #expect(Base64.decode("Zm9v!") == nil)
  }
}
