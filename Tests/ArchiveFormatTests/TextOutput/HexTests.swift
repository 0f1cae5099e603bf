import ArchiveFormat
import Testing

@Suite("Hexadecimal")
struct HexTests {
  @Test("Bytes become two digits each, in either case")
  func encodesBytes() {
    #expect(Hex.encode([0x00, 0x0F, 0xCA, 0xFE, 0xFF]) == "000fcafeff")
    #expect(Hex.encode([0x00, 0x0F, 0xCA, 0xFE, 0xFF], uppercase: true) == "000FCAFEFF")
    #expect(Hex.encode([UInt8]()) == "")
  }

  @Test("Integers are written at their full width")
  func writesIntegerDigits() {
    #expect(Hex.digits(UInt8(0x0A)) == "0a")
    #expect(Hex.digits(UInt8(0xD5), uppercase: true) == "D5")
    #expect(Hex.digits(UInt16(0x0A)) == "000a")
    #expect(Hex.digits(UInt16(0xD800), uppercase: true) == "D800")
    #expect(Hex.digits(UInt32(0x1F)) == "0000001f")
  }

  @Test("Digits in either case read back as the bytes")
  func decodes() {
    #expect(Hex.decode("000fCAfeff") == [0x00, 0x0F, 0xCA, 0xFE, 0xFF])
    #expect(Hex.decode("") == [])
  }

  @Test("An odd number of digits is not hexadecimal")
  func refusesOddLength() {
    #expect(Hex.decode("abc") == nil)
  }

  @Test("A character that is not a digit is not hexadecimal")
  func refusesNonDigits() {
    #expect(Hex.decode("0g") == nil)
  }
}
