import Foundation

/// The characters a replacement for one character is drawn from: letters of one case and script, or one block's digits.
///
/// Every character of an alphabet has the same UTF-16 width as the characters
/// it replaces, so a pseudonym keeps its length in UTF-16 units. Latin letters
/// with diacritics are replaced by ASCII letters of the same case; Greek,
/// Cyrillic, Armenian, Hebrew, Arabic, Thai, kana, Hangul and CJK letters by
/// letters of their own script; a letter of another script by a letter of
/// the same case and script from the code points around it.
struct ReplacementAlphabet: Hashable, Sendable {
  /// The ranges of scalar values, in order.
  let ranges: [ClosedRange<UInt32>]
  /// How many characters the ranges hold.
  let count: Int

  /// Creates an alphabet from ranges of scalar values with no surrogates in them.
  init(_ ranges: [ClosedRange<UInt32>]) {
    self.ranges = ranges
    count = ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
  }

  /// The character at a position, counting through the ranges in order.
  func scalar(at position: Int) -> Unicode.Scalar? {
    var remaining = UInt32(max(0, position))
    for range in ranges {
      let size = range.upperBound - range.lowerBound + 1
      if remaining < size { return Unicode.Scalar(range.lowerBound + remaining) }
      remaining -= size
    }
    return nil
  }

  /// Whether the alphabet holds a scalar.
  func contains(_ scalar: Unicode.Scalar) -> Bool {
    ranges.contains { $0.contains(scalar.value) }
  }

  static let asciiUppercase = ReplacementAlphabet([0x41...0x5A])
  static let asciiLowercase = ReplacementAlphabet([0x61...0x7A])
  static let asciiDigits = ReplacementAlphabet([0x30...0x39])
  static let lowercaseHexadecimal = ReplacementAlphabet([0x30...0x39, 0x61...0x66])
  static let uppercaseHexadecimal = ReplacementAlphabet([0x30...0x39, 0x41...0x46])
  /// Two letters or digits per class: a stand-in for a token with too little entropy to be one.
  static let lowEntropyUppercase = ReplacementAlphabet([0x41...0x42])
  static let lowEntropyLowercase = ReplacementAlphabet([0x61...0x62])
  static let lowEntropyDigits = ReplacementAlphabet([0x30...0x31])

  private static let fullwidthUppercase = ReplacementAlphabet([0xFF21...0xFF3A])
  private static let fullwidthLowercase = ReplacementAlphabet([0xFF41...0xFF5A])
  private static let greekUppercase = ReplacementAlphabet([0x391...0x3A1, 0x3A3...0x3A9])
  private static let greekLowercase = ReplacementAlphabet([0x3B1...0x3C9])
  private static let cyrillicUppercase = ReplacementAlphabet([0x410...0x42F])
  private static let cyrillicLowercase = ReplacementAlphabet([0x430...0x44F])
  private static let armenianUppercase = ReplacementAlphabet([0x531...0x556])
  private static let armenianLowercase = ReplacementAlphabet([0x561...0x586])
  private static let hebrew = ReplacementAlphabet([0x5D0...0x5EA])
  private static let arabic = ReplacementAlphabet([0x628...0x63A, 0x641...0x64A])
  private static let thai = ReplacementAlphabet([0xE01...0xE2E])
  private static let hiragana = ReplacementAlphabet([0x3041...0x3096])
  private static let katakana = ReplacementAlphabet([0x30A1...0x30FA])
  private static let hangul = ReplacementAlphabet([0xAC00...0xD7A3])
  private static let ideographs = ReplacementAlphabet([0x4E00...0x9FFF])
  private static let supplementaryIdeographs = ReplacementAlphabet([0x20000...0x2A6DF])

  /// Where each script this type knows lives, and its alphabets (uppercase, then lowercase or caseless).
  private static let scripts: [(ranges: [ClosedRange<UInt32>], upper: Self, lower: Self)] = [
    (
      [
        0xAA...0xAA, 0xBA...0xBA, 0xC0...0x2AF, 0x1D00...0x1DBF, 0x1E00...0x1EFF, 0x2C60...0x2C7F,
        0xA720...0xA7FF, 0xAB30...0xAB6F, 0xFB00...0xFB06,
      ],
      asciiUppercase, asciiLowercase
    ),
    ([0xFF21...0xFF3A, 0xFF41...0xFF5A], fullwidthUppercase, fullwidthLowercase),
    ([0x370...0x3FF, 0x1F00...0x1FFF], greekUppercase, greekLowercase),
    (
      [0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F],
      cyrillicUppercase, cyrillicLowercase
    ),
    ([0x531...0x58F], armenianUppercase, armenianLowercase),
    ([0x5D0...0x5FF], hebrew, hebrew),
    ([0x620...0x6FF, 0x750...0x77F], arabic, arabic),
    ([0xE00...0xE7F], thai, thai),
    ([0x3040...0x309F], hiragana, hiragana),
    ([0x30A0...0x30FF], katakana, katakana),
    ([0xAC00...0xD7A3], hangul, hangul),
    ([0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF], ideographs, ideographs),
    ([0x20000...0x3134F], supplementaryIdeographs, supplementaryIdeographs),
  ]

  /// The alphabet that replaces a letter of a script this type knows, or nil for another script.
  ///
  /// - Parameters:
  ///   - scalar: A letter (general category Lu, Lt, Ll or Lo).
  ///   - isUppercase: Whether it is an uppercase or titlecase letter.
  /// - Returns: The alphabet of the script's letters of that case, or nil.
  static func knownScript(of scalar: Unicode.Scalar, isUppercase: Bool) -> ReplacementAlphabet? {
    if scalar.isASCII {
      return isUppercase ? asciiUppercase : asciiLowercase
    }
    let value = scalar.value
    for script in scripts where script.ranges.contains(where: { $0.contains(value) }) {
      return isUppercase ? script.upper : script.lower
    }
    return nil
  }

  /// The ten digits of the block a decimal digit belongs to, such as `٠`…`٩` for `٣`.
  static func digits(of scalar: Unicode.Scalar) -> ReplacementAlphabet? {
    guard let value = scalar.properties.numericValue, value >= 0, value <= 9,
      value == value.rounded()
    else { return nil }
    let zero = scalar.value - UInt32(value)
    return zero == 0x30 ? asciiDigits : ReplacementAlphabet([zero...zero + 9])
  }

  /// The letters of the same general category and script near a scalar, for a script this type does not know.
  ///
  /// The script is the part of the character's Unicode name before `LETTER`,
  /// `SYLLABLE` or `IDEOGRAPH` (`JAVANESE`, `TAI THAM`), and candidates come
  /// from the 384 code points around it in the same plane, so a block shared
  /// by two scripts does not mix them.
  static func block(of scalar: Unicode.Scalar, category: Unicode.GeneralCategory)
    -> ReplacementAlphabet
  {
    let script = scriptName(of: scalar)
    let plane = scalar.value >> 16
    let base = scalar.value & ~0x7F
    let start = base >= 0x80 ? max(plane << 16, base - 0x80) : 0
    let end = min(plane << 16 | 0xFFFF, base + 0xFF)
    var ranges: [ClosedRange<UInt32>] = []
    var runStart: UInt32?
    for value in start...end {
      let matches =
        Unicode.Scalar(value).map {
          $0.properties.generalCategory == category && scriptName(of: $0) == script
        } ?? false
      if matches, runStart == nil { runStart = value }
      if !matches, let first = runStart {
        ranges.append(first...value - 1)
        runStart = nil
      }
    }
    if let first = runStart { ranges.append(first...end) }
    return ReplacementAlphabet(ranges)
  }

  /// The script part of a character's Unicode name, such as `JAVANESE` for `JAVANESE LETTER JA`.
  static func scriptName(of scalar: Unicode.Scalar) -> Substring? {
    guard let name = scalar.properties.name else { return nil }
    for marker in [" CAPITAL LETTER", " SMALL LETTER", " LETTER", " SYLLABLE", " IDEOGRAPH"] {
      if let range = name.range(of: marker) { return name[..<range.lowerBound] }
    }
    return name.split(separator: " ").first
  }
}
