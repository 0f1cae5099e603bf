import ArchiveFormat
import Testing

/// `String(validUTF8:)` against the standard library's own validating initializer, where the
/// platform has it, and against the Unicode Standard's table of well-formed sequences.
@Suite("Strict UTF-8")
struct UTF8ValidationTests {
  /// The standard library's answer: `String(validating:as:)` (Linux; macOS 15, iOS 18).
  static func reference(_ bytes: [UInt8]) -> String?? {
    if #available(macOS 15, iOS 18, *) {
      return .some(String(validating: bytes, as: UTF8.self))
    }
    return .none
  }

  @Test("Well-formed text of one to four bytes a scalar reads as itself")
  func wellFormedTextReads() {
    let text = "plain ASCII, café, ∑ and 😀 after a long ASCII run of forty bytes or so"
    #expect(String(validUTF8: Array(text.utf8)) == text)
    #expect(String(validUTF8: [UInt8]()) == "")
    #expect(String(validUTF8: [0x00, 0x41]) == "\u{0}A")
  }

  @Test(
    "Ill-formed sequences are refused",
    arguments: [
      ("a stray continuation byte", [0x41, 0x80]),
      ("C0, an overlong lead", [0xC0, 0xAF]),
      ("C1, an overlong lead", [0xC1, 0xBF]),
      ("an overlong three-byte form", [0xE0, 0x80, 0xAF]),
      ("a surrogate", [0xED, 0xA0, 0x80]),
      ("an overlong four-byte form", [0xF0, 0x80, 0x80, 0xAF]),
      ("a scalar past U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
      ("F5, never a lead", [0xF5, 0x80, 0x80, 0x80]),
      ("FF", [0xFF]),
      ("a sequence cut short at the end", [0x61, 0xE2, 0x82]),
      ("a lead followed by ASCII", [0xE2, 0x41, 0x41]),
      ("a bad byte after eight ASCII bytes", Array("abcdefgh".utf8) + [0x80]),
    ] as [(String, [UInt8])])
  func illFormedIsRefused(_ name: String, _ bytes: [UInt8]) {
    #expect(String(validUTF8: bytes) == nil, "\(name)")
    if let reference = Self.reference(bytes) { #expect(reference == nil, "\(name)") }
  }

  @Test("Every sequence of up to three bytes from a boundary set agrees with the standard library")
  func agreesWithStandardLibrary() {
    let interesting: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    var compared = 0
    for first in interesting {
      for second in interesting {
        for third in interesting {
          for bytes in [[first], [first, second], [first, second, third]] {
            guard let reference = Self.reference(bytes) else { return }
            #expect(String(validUTF8: bytes) == reference, "\(bytes)")
            compared += 1
          }
        }
      }
    }
    #expect(compared == 3 * interesting.count * interesting.count * interesting.count)
  }

  @Test("A slice and an array of the same bytes read alike")
  func slicesRead() {
    let bytes = Array("xx€yy".utf8)
    #expect(String(validUTF8: bytes[2..<5]) == "€")
    #expect(String(validUTF8: bytes[2..<4]) == nil)
  }
}
