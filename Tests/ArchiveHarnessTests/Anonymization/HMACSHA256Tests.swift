import ArchiveFormat
import ArchiveHarness
import Testing

/// RFC 4231's test vectors for HMAC-SHA-256.
@Suite("HMAC-SHA-256")
struct HMACSHA256Tests {
  /// One RFC 4231 test case: key and data as bytes, the expected code in hexadecimal.
  struct Vector: Sendable, CustomTestStringConvertible {
    var name: String
    var key: [UInt8]
    var data: [UInt8]
    var code: String
    var testDescription: String { name }
  }

  static let vectors: [Vector] = [
    Vector(
      name: "test case 1", key: [UInt8](repeating: 0x0B, count: 20), data: Array("Hi There".utf8),
      code: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    Vector(
      name: "test case 2", key: Array("Jefe".utf8),
      data: Array("what do ya want for nothing?".utf8),
      code: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    Vector(
      name: "test case 3", key: [UInt8](repeating: 0xAA, count: 20),
      data: [UInt8](repeating: 0xDD, count: 50),
      code: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    Vector(
      name: "test case 4", key: Array(1...25),
      data: [UInt8](repeating: 0xCD, count: 50),
      code: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    Vector(
      name: "test case 6 (a key longer than a block)", key: [UInt8](repeating: 0xAA, count: 131),
      data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
      code: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    Vector(
      name: "test case 7 (a key and data longer than a block)",
      key: [UInt8](repeating: 0xAA, count: 131),
      data: Array(
        ("This is a test using a larger than block-size key and a larger than block-size data. "
          + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
      code: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
  ]

  @Test("Gives RFC 4231's codes", arguments: vectors)
  func matchesRFC4231(vector: Vector) {
    let code = HMACSHA256(key: vector.key).authenticationCode(for: vector.data)
    #expect(Hex.encode(code) == vector.code)
  }

  @Test("The same HMAC gives the same code twice")
  func isReusable() {
    let hmac = HMACSHA256(key: Array("key".utf8))
    let message = Array("The quick brown fox jumps over the lazy dog".utf8)
    #expect(hmac.authenticationCode(for: message) == hmac.authenticationCode(for: message))
    #expect(
      Hex.encode(hmac.authenticationCode(for: message))
        == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
  }

  @Test("A salt shorter than 16 bytes is refused")
  func refusesShortSalt() {
    #expect(throws: AnonymizationError.self) { try AnonymizationKey(salt: Array("short".utf8)) }
  }
}
