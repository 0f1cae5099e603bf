/// Strict UTF-8: text from untrusted bytes only when every byte is well formed.
///
/// The rules are those of the Unicode Standard's table of well-formed byte sequences (3-7): no
/// overlong forms, no surrogates, nothing above U+10FFFF, no stray continuation bytes and no
/// sequence cut short. `String(decoding:as:)` would repair such bytes with U+FFFD, and a value
/// read that way differs from the one archived; `String(validUTF8: as:)` needs macOS 15 and
/// iOS 18. ASCII runs are checked eight bytes at a time.
///
/// ```swift
/// String(validUTF8: [0x63, 0x61, 0x66, 0xC3, 0xA9])  // "café"
/// String(validUTF8: [0xC0, 0xAF])  // nil: an overlong "/"
/// ```
extension String {
  /// Text from bytes that are well-formed UTF-8, or nil.
  package init?<Bytes: Collection>(validUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
    let valid =
      bytes.withContiguousStorageIfAvailable { UTF8Validation.isWellFormed($0) }
      ?? Array(bytes).withUnsafeBufferPointer { UTF8Validation.isWellFormed($0) }
    guard valid else { return nil }
    self = String(decoding: bytes, as: UTF8.self)
  }
}

/// The well-formedness check behind `String(validUTF8:)`.
package enum UTF8Validation {
  /// Whether the bytes are well-formed UTF-8.
  package static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    var index = 0
    while index < count {
      // Eight ASCII bytes at a time while they last.
      while index + 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        guard word & 0x8080_8080_8080_8080 == 0 else { break }
        index += 8
      }
      guard index < count else { return true }
      let lead = base[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var lowest: UInt8 = 0x80
      var highest: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        lowest = 0xA0  // below is an overlong form
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        highest = 0x9F  // above are the surrogates
      case 0xF0:
        length = 4
        lowest = 0x90  // below is an overlong form
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        highest = 0x8F  // above is past U+10FFFF
      default: return false  // a continuation byte, C0, C1 or F5...FF
      }
      guard index + length <= count else { return false }
      let second = base[index + 1]
      guard second >= lowest, second <= highest else { return false }
      var next = index + 2
      while next < index + length {
        guard base[next] & 0xC0 == 0x80 else { return false }
        next += 1
      }
      index += length
    }
    return true
  }
}
