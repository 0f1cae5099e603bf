/// Character tests the detectors and pseudonyms share, on Unicode scalars.
extension Unicode.Scalar {
  /// `0`…`9`.
  var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }
  /// `A`…`Z`.
  var isASCIIUppercase: Bool { value >= 0x41 && value <= 0x5A }
  /// `a`…`z`.
  var isASCIILowercase: Bool { value >= 0x61 && value <= 0x7A }
  /// An ASCII letter.
  var isASCIILetter: Bool { isASCIIUppercase || isASCIILowercase }
  /// An ASCII letter or digit.
  var isASCIIAlphanumeric: Bool { isASCIILetter || isASCIIDigit }
  /// `0`…`9`, `a`…`f` or `A`…`F`.
  var isASCIIHexDigit: Bool {
    isASCIIDigit || (value >= 0x41 && value <= 0x46) || (value >= 0x61 && value <= 0x66)
  }
  /// A letter or digit of any script.
  var isWordCharacter: Bool {
    if isASCII { return isASCIIAlphanumeric || self == "_" }
    switch properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter,
      .decimalNumber:
      return true
    default:
      return false
    }
  }
  /// White space, including line breaks.
  var isSpace: Bool { properties.isWhitespace }

  /// The digit's value, for `0`…`9`.
  var asciiDigitValue: Int { Int(value) - 0x30 }
}
