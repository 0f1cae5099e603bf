/// Hexadecimal text: digests, UUIDs, journal blobs and byte values in messages, written one way.
///
/// Bytes become two digits each, most significant nibble first; integers
/// become their full width in digits, zero-padded, so `0x0A` as a `UInt16`
/// is `000a`.
///
/// ```swift
/// Hex.encode([0xCA, 0xFE])                   // "cafe"
/// Hex.encode([0xCA, 0xFE], uppercase: true)  // "CAFE"
/// Hex.digits(UInt16(0x0A))                   // "000a"
/// Hex.decode("CAFE")                         // [0xCA, 0xFE]
/// ```
package enum Hex {
  private static let lowercaseDigits = Array("0123456789abcdef".utf8)
  private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

  /// Spells bytes as hexadecimal digits, two a byte.
  ///
  /// - Parameters:
  ///   - bytes: The bytes.
  ///   - uppercase: Whether to use `A`–`F` rather than `a`–`f`.
  /// - Returns: Twice as many digits as there are bytes.
  package static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, uppercase: Bool = false)
    -> String
  {
    let digits = uppercase ? uppercaseDigits : lowercaseDigits
    var text: [UInt8] = []
    text.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Spells an unsigned integer in hexadecimal at its full width: two digits a byte.
  ///
  /// - Parameters:
  ///   - value: The integer, such as a `UInt8` byte or a `UInt16` UTF-16 unit.
  ///   - uppercase: Whether to use `A`–`F` rather than `a`–`f`.
  /// - Returns: The digits, zero-padded to the type's width.
  package static func digits<Value: FixedWidthInteger & UnsignedInteger>(
    _ value: Value, uppercase: Bool = false
  ) -> String {
    withUnsafeBytes(of: value.bigEndian) { encode($0, uppercase: uppercase) }
  }

  /// Reads hexadecimal digits back into bytes, in either case.
  ///
  /// - Parameter text: An even number of hexadecimal digits.
  /// - Returns: The bytes, or `nil` when the text is not hexadecimal.
  package static func decode(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count / 2)
    var index = 0
    while index < utf8.count {
      guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func nibble(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
