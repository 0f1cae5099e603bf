/// Encodes and decodes standard base64 (RFC 4648, with padding), as XML property lists and JSON output use it.
package enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Encodes bytes as base64 text with padding and no line breaks.
  package static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let group =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      output.append(alphabet[Int(group >> 18 & 63)])
      output.append(alphabet[Int(group >> 12 & 63)])
      output.append(alphabet[Int(group >> 6 & 63)])
      output.append(alphabet[Int(group & 63)])
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
      output.append(alphabet[Int(group >> 18 & 63)])
      output.append(alphabet[Int(group >> 12 & 63)])
      output.append(rest == 2 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
      output.append(UInt8(ascii: "="))
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes base64 text, skipping white space; `nil` when the text is not base64.
  package static func decode(_ text: String) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count / 4 * 3)
    var group: UInt32 = 0
    var filled = 0
    var padding = 0
    for byte in text.utf8 {
      let value: UInt32
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      case UInt8(ascii: "="):
        padding += 1
        continue
      case 0x20, 0x09, 0x0A, 0x0D:
        continue
      default:
        return nil
      }
      guard padding == 0 else { return nil }
      group = group << 6 | value
      filled += 1
      if filled == 4 {
        output.append(UInt8(group >> 16 & 0xFF))
        output.append(UInt8(group >> 8 & 0xFF))
        output.append(UInt8(group & 0xFF))
        group = 0
        filled = 0
      }
    }
    switch filled {
    case 0: break
    case 2: output.append(UInt8(group >> 4 & 0xFF))
    case 3:
      output.append(UInt8(group >> 10 & 0xFF))
      output.append(UInt8(group >> 2 & 0xFF))
    default: return nil
    }
    return output
  }
}
