import ArchiveFormat
import Foundation

// NSDecimalNumber and NSError, read with the keys Foundation writes: `NS.exponent`,
// `NS.length`, `NS.negative`, `NS.compact`, `NS.bo` and the 16-byte `NS.mantissa`; `NSDomain`,
// `NSCode` and `NSUserInfo`.
extension HarnessUnarchiver {
  /// The classes NSError's secure read allows for `NSUserInfo`, as swift-corelibs-foundation
  /// lists them.
  static var errorUserInfoClasses: [AnyClass] {
    [
      NSSet.self, NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSData.self,
      NSURL.self,
    ]
  }

  func buildDecimalNumber(_ fields: PropertyListDictionary) -> AnyObject? {
    let exponent = integerField(fields, "NS.exponent", in: -128...127) ?? 0
    let length = integerField(fields, "NS.length", in: 0...8) ?? 0
    let negative = boolField(fields, "NS.negative") ?? false
    // NS.compact only says whether the mantissa is normalized; it is checked, not used.
    _ = boolField(fields, "NS.compact")
    let byteOrder = integerField(fields, "NS.bo", in: Int64(Int32.min)...Int64(Int32.max)) ?? 0
    guard failure == nil else { return nil }
    guard case .data(let mantissa)? = scalarField(fields, "NS.mantissa") else {
      if let value = fields["NS.mantissa"] {
        fieldMismatch("NS.mantissa", value, expected: "data")
      } else {
        failAt("NS.mantissa", .missingField, "NSDecimalNumber has no NS.mantissa")
      }
      return nil
    }
    guard mantissa.count == 16 else {
      failAt(
        "NS.mantissa", .malformed, "NS.mantissa has \(mantissa.count) bytes, not 16")
      return nil
    }
    // NS.bo 1 marks little-endian 16-bit words.
    var words: [UInt16] = []
    for index in stride(from: 0, to: 16, by: 2) {
      let low = UInt16(mantissa[index])
      let high = UInt16(mantissa[index + 1])
      words.append(byteOrder == 1 ? high << 8 | low : low << 8 | high)
    }
    // The mantissa is a 128-bit integer in eight words, least significant first, of which
    // NS.length are used; a zero length with the sign set is NaN.
    if length == 0 {
      return NSDecimalNumber(decimal: negative ? Decimal.nan : Decimal(0))
    }
    var significand = Decimal(0)
    for word in words[0..<Int(length)].reversed() {
      significand = significand * 65536 + Decimal(Int(word))
    }
    let decimal = Decimal(
      sign: negative ? .minus : .plus, exponent: Int(exponent), significand: significand)
    return NSDecimalNumber(decimal: decimal)
  }

  func buildError(_ fields: PropertyListDictionary) -> AnyObject? {
    // Foundation archives the code as a 32-bit integer and writes it back the same way.
    let code = integerField(fields, "NSCode", in: Int64(Int32.min)...Int64(Int32.max)) ?? 0
    guard let domain = requiredStringObjectField(fields, "NSDomain", of: "NSError") else {
      return nil
    }
    let userInfo = objectField(
      fields, "NSUserInfo", allowed: Self.errorUserInfoClasses, expecting: [NSDictionary.self])
    guard failure == nil else { return nil }
    var info: [String: Any] = [:]
    if let dictionary = userInfo as? NSDictionary {
      // Foundation keeps only the entries whose keys are strings.
      for (key, value) in builtEntries(of: dictionary) ?? [] {
        if let name = key as? NSString { info[name as String] = value }
      }
    }
    return NSError(domain: domain, code: Int(code), userInfo: userInfo == nil ? nil : info)
  }
}
