import ArchiveFormat
import HarnessTestSupport
import Testing

/// Invalid text: unpaired UTF-16 surrogates in binary lists and invalid UTF-8 in XML lists.
@Suite("Invalid text")
struct InvalidTextTests {
  @Test(
    "Unpaired or misordered UTF-16 surrogates are refused with the string's offset",
    arguments: [
      [0xD800], [0xDC00], [0x0041, 0xD800], [0xD800, 0x0041], [0xDC00, 0xD800],
      [0xD800, 0xD800], [0xDBFF, 0xDBFF, 0xDC00], [0xDFFF], [0x0041, 0x0042, 0xDBFF],
    ] as [[UInt16]])
  func invalidSurrogates(units: [UInt16]) throws {
    let failure = HostileInput.plistError(HostileInput.binaryList([HostileInput.utf16(units)]))
    #expect(failure?.code == .invalidString)
    #expect((8..<(8 + 1 + 2 * units.count)).contains(failure?.offset ?? -1))
  }

  @Test("Valid surrogate pairs at the edges of the range read")
  func validSurrogatePairs() throws {
    let units: [UInt16] = [0xD800, 0xDC00, 0xDBFF, 0xDFFF, 0xFFFF, 0x0000]
    let value = try PropertyListReader().read(HostileInput.binaryList([HostileInput.utf16(units)]))
    #expect(value == .string("\u{10000}\u{10FFFF}\u{FFFF}\u{0}"))
  }

  @Test("An invalid UTF-16 class name in an archive is refused before the graph is built")
  func invalidSurrogateInAClassName() throws {
    let archive = HostileInput.archive(payload: [HostileInput.utf16([0x0041, 0xDC00])])
    let failure = HostileInput.archiveError(archive)
    #expect(failure?.propertyListError?.code == .invalidString)
  }

  @Test("Invalid UTF-8 in a binary UTF-8 string object is refused")
  func invalidUTF8InBinary() throws {
    for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80]] {
      let object = [0x70 | UInt8(bytes.count)] + bytes
      let failure = HostileInput.plistError(HostileInput.binaryList([object]))
      #expect(failure?.code == .invalidString, "\(bytes)")
    }
  }

  /// Malformed UTF-8 sequences: overlong, an encoded surrogate, past U+10FFFF, truncated, stray.
  static let malformedUTF8: [[UInt8]] = [
    [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xE2, 0x82], [0x80], [0xC3, 0x28],
  ]

  @Test(
    "Invalid UTF-8 in XML string, key and CDATA text is refused with its line and column",
    arguments: malformedUTF8)
  func invalidUTF8InXML(sequence: [UInt8]) throws {
    let places: [(String, String)] = [
      ("<plist version=\"1.0\"><string>a", "b</string></plist>"),
      ("<plist version=\"1.0\"><dict><key>a", "</key><true/></dict></plist>"),
      ("<plist version=\"1.0\"><string>&amp;", "</string></plist>"),
      ("<plist version=\"1.0\"><string><![CDATA[", "]]></string></plist>"),
    ]
    for (before, after) in places {
      let document = Array(before.utf8) + sequence + Array(after.utf8)
      let failure = HostileInput.plistError(document)
      #expect(failure?.code == .invalidString, "\(before)")
      #expect(failure?.line == 1, "\(before)")
    }
  }

  @Test(
    "Character references to surrogates or past U+10FFFF are refused",
    arguments: ["&#xD800;", "&#xDFFF;", "&#x110000;", "&#55296;", "&#xFFFFFFFFF;", "&#;", "&#x;"])
  func invalidCharacterReferences(reference: String) throws {
    let document = Array("<plist version=\"1.0\"><string>\(reference)</string></plist>".utf8)
    let failure = HostileInput.plistError(document)
    #expect(failure?.code == .invalidString || failure?.code == .invalidXML)
  }

  @Test("Invalid UTF-8 in an XML element name is refused as unknown, not trapped")
  func invalidUTF8InElementName() throws {
    let document = Array("<plist version=\"1.0\"><".utf8) + [0xFF, 0xFE] + Array("/></plist>".utf8)
    #expect(HostileInput.plistError(document)?.code == .invalidXML)
  }
}
