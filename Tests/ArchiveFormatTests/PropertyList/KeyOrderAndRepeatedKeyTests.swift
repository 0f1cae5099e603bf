import ArchiveFormat
import HarnessTestSupport
import Testing

/// What a rewrite of a whole property list depends on: the order of keys survives a read and a
/// write in both formats, and a repeated key (whose values a read would merge) can be refused.
@Suite("Property lists: key order and repeated keys")
struct KeyOrderAndRepeatedKeyTests {
  /// Keys in no sorted order, nested, with the order inside each dictionary deliberate.
  private let tree: PropertyListValue = .dictionary([
    "zeta": .integer(1),
    "Alpha": .dictionary(["z": .bool(true), "b": .string("x"), "a": .array([.real(0.5)])]),
    "mid": .array([.dictionary(["9": .date(3), "10": .data([1, 2])])]),
    "é": .string("precomposed"),
  ])

  private func keys(_ value: PropertyListValue?) -> [String] {
    value?.dictionaryValue?.keys ?? []
  }

  @Test(
    "Reading keeps each dictionary's key order, binary and XML, and writing it back keeps it again",
    arguments: [PropertyListFormat.binary, .xml])
  func keyOrderSurvivesReadAndWrite(format: PropertyListFormat) throws {
    let bytes =
      format == .binary
      ? BinaryPropertyListWriter().write(tree) : Array(XMLPropertyListWriter().write(tree).utf8)
    let (value, readFormat) = try PropertyListReader().readWithFormat(bytes)
    #expect(readFormat == format)
    #expect(value == tree)
    #expect(keys(value) == ["zeta", "Alpha", "mid", "é"])
    #expect(keys(value.dictionaryValue?["Alpha"]) == ["z", "b", "a"])
    #expect(keys(value.dictionaryValue?["mid"]?.arrayValue?.first) == ["9", "10"])
    let again =
      format == .binary
      ? BinaryPropertyListWriter().write(value) : Array(XMLPropertyListWriter().write(value).utf8)
    #expect(again == bytes, "the writers are deterministic, so a read tree writes the same bytes")
  }

  /// `{a: 1, a: 2}` in binary: one dictionary whose two key references name the same string.
  private var binaryWithRepeatedKey: [UInt8] {
    BinaryPlistBuilder(objects: [
      [0xD2, 1, 1, 2, 3], [0x51, UInt8(ascii: "a")], [0x10, 1], [0x10, 2],
    ]).build()
  }

  private let xmlWithRepeatedKey = Array(
    """
    <plist version="1.0">
    <dict>
      <key>a</key><integer>1</integer>
      <key>a</key><integer>2</integer>
    </dict>
    </plist>
    """.utf8)

  @Test("By default a repeated key keeps its first place and its last value, binary and XML")
  func repeatedKeyKeepsLastValueByDefault() throws {
    #expect(try PropertyListReader().read(binaryWithRepeatedKey) == .dictionary(["a": .integer(2)]))
    #expect(try PropertyListReader().read(xmlWithRepeatedKey) == .dictionary(["a": .integer(2)]))
  }

  @Test("A reader that refuses repeated keys names the binary offset of the second key")
  func refusesRepeatedKeyInBinary() throws {
    let reader = PropertyListReader(refusesRepeatedKeys: true)
    do {
      _ = try reader.read(binaryWithRepeatedKey)
      Issue.record("a repeated key was read")
    } catch {
      #expect(error.code == .repeatedKey)
      #expect(error.offset == 10, "the second key reference, after 'bplist00', the marker and one")
      #expect(error.message.contains("'a' twice"))
    }
  }

  @Test("A reader that refuses repeated keys names the XML line and column of the second key")
  func refusesRepeatedKeyInXML() throws {
    let reader = PropertyListReader(refusesRepeatedKeys: true)
    do {
      _ = try reader.read(xmlWithRepeatedKey)
      Issue.record("a repeated key was read")
    } catch {
      #expect(error.code == .repeatedKey)
      #expect(error.place == Place(.line(4, column: 3)))
    }
  }

  @Test("Canonically equal spellings of a key are one key, so refusing readers refuse them")
  func canonicallyEqualKeysAreRepeated() throws {
    let xml = Array(
      "<plist version=\"1.0\"><dict><key>\u{E9}</key><true/><key>e\u{301}</key><false/></dict></plist>"
        .utf8)
    #expect(throws: PropertyListError.self) {
      try PropertyListReader(refusesRepeatedKeys: true).read(xml)
    }
  }

  @Test("A refusing reader streams no JSON for a binary list with a repeated key")
  func refusingReaderDoesNotStreamJSON() throws {
    var text = ""
    var writer = JSONWriter(sortedKeys: false, sink: { text += $0 })
    #expect(throws: PropertyListError.self) {
      try PropertyListReader(refusesRepeatedKeys: true).writeJSON(
        binaryWithRepeatedKey, to: &writer)
    }
    #expect(text.isEmpty)
  }
}
