import ArchiveFormat
import Foundation

extension TextDetector {
  /// The fewest characters a token word has before the scan looks at its entropy.
  static let minimumTokenLength = 20
  /// The fewest characters a hexadecimal token word has (a 128-bit key).
  static let minimumHexadecimalTokenLength = 32
  /// How far below a random string's expected entropy a token word may fall and still be reported.
  static let entropyMargin = 0.3
  /// The entropy, in bits per character, above which a bearer token is reported.
  static let bearerTokenEntropy = 3.0

  /// JSON Web Tokens: three base64url segments, the first a JSON header with `alg`.
  static func jsonWebTokens(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index + 3 <= text.count {
      guard text[index] == "e", text[index + 1] == "y", text[index + 2] == "J",
        index == 0 || !isBase64URLCharacter(text[index - 1])
      else {
        index += 1
        continue
      }
      let headerEnd = base64URLRunEnd(text, from: index)
      guard headerEnd < text.count, text[headerEnd] == ".",
        isJSONHeader(text[index..<headerEnd])
      else {
        index = headerEnd
        continue
      }
      let payloadEnd = base64URLRunEnd(text, from: headerEnd + 1)
      guard payloadEnd - headerEnd > 1 else {
        index = payloadEnd
        continue
      }
      var end = payloadEnd
      if end < text.count, text[end] == "." { end = base64URLRunEnd(text, from: end + 1) }
      spans.append(DetectedSpan(kind: .jwt, range: index..<end, isReportable: true))
      index = end
    }
    return spans
  }

  /// Whether base64url text decodes (its first 1,024 characters) to a JSON object that names `alg`.
  private static func isJSONHeader(_ segment: ArraySlice<Unicode.Scalar>) -> Bool {
    var standard = ""
    for scalar in segment.prefix(1024) {
      standard.unicodeScalars.append(scalar == "-" ? "+" : scalar == "_" ? "/" : scalar)
    }
    while standard.unicodeScalars.count % 4 != 0 { standard += "=" }
    guard let bytes = Base64.decode(standard), bytes.first == UInt8(ascii: "{") else {
      return false
    }
    return String(decoding: bytes, as: UTF8.self).contains("\"alg\"")
  }

  private static func isBase64URLCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCIIAlphanumeric || scalar == "-" || scalar == "_"
  }

  private static func base64URLRunEnd(_ text: [Unicode.Scalar], from start: Int) -> Int {
    var end = start
    while end < text.count, isBase64URLCharacter(text[end]) { end += 1 }
    return end
  }

  /// Bearer tokens: the word `Bearer` (any case), white space, and a token of 16 or more characters.
  ///
  /// Reported when the token has the entropy of a secret (so `Bearer of bad
  /// news` is not, and neither is a low-entropy pseudonym).
  static func bearerTokens(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    let keyword = Array("bearer".unicodeScalars)
    var index = 0
    while index + keyword.count < text.count {
      let matchesKeyword =
        (index == 0 || !text[index - 1].isWordCharacter)
        && keyword.indices.allSatisfy { offset in
          let scalar = text[index + offset]
          return scalar == keyword[offset]
            || (scalar.isASCIIUppercase && scalar.value + 0x20 == keyword[offset].value)
        }
      guard matchesKeyword else {
        index += 1
        continue
      }
      var tokenStart = index + keyword.count
      while tokenStart < text.count, tokenStart - index - keyword.count < 4,
        text[tokenStart] == " " || text[tokenStart] == "\t"
      {
        tokenStart += 1
      }
      // Without white space after the keyword there is no token, so the run
      // after it is not read: reading it, then moving on by the keyword's
      // length alone, would read a long run of `-bearer` once per keyword.
      guard tokenStart > index + keyword.count else {
        index += keyword.count
        continue
      }
      var end = tokenStart
      while end < text.count, isTokenCharacter(text[end]) { end += 1 }
      while end < text.count, text[end] == "=" { end += 1 }
      if end - tokenStart >= 16 {
        let token = text[tokenStart..<end]
        let reportable = entropy(token) >= bearerTokenEntropy
        spans.append(DetectedSpan(kind: .bearer, range: index..<end, isReportable: reportable))
        index = end
      } else {
        index += keyword.count
      }
    }
    return spans
  }

  private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCIIAlphanumeric || "-._~+/".unicodeScalars.contains(scalar)
  }

  /// Token-like words: runs of letters, digits, `_`, `-` and `=`.
  ///
  /// - A canonical UUID is a `DetectedSpan.Kind.uuid` and never reported.
  /// - A hexadecimal word of 8 to 31 characters with a digit and a letter is a
  ///   `DetectedSpan.Kind.hexWord`, never reported.
  /// - A hexadecimal word of 32 or more, or a word of 20 or more with a letter
  ///   and a digit, is a `DetectedSpan.Kind.token`, reported when it looks
  ///   random (see ``looksRandom(_:)``), so `ProfilesApp20230308Backup` and
  ///   `_TtC11ProfilesApp7Address` are not.
  static func words(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index < text.count {
      guard isWordRunCharacter(text[index]) else {
        index += 1
        continue
      }
      var end = index
      var hasDigit = false
      var hasLetter = false
      var isHexadecimal = true
      var isASCII = true
      while end < text.count,
        isWordRunCharacter(text[end]) || !text[end].isASCII && text[end].isWordCharacter
      {
        let scalar = text[end]
        if !scalar.isASCII { isASCII = false }
        if scalar.isASCIIDigit { hasDigit = true }
        if scalar.isASCIILetter { hasLetter = true }
        if !scalar.isASCIIHexDigit { isHexadecimal = false }
        end += 1
      }
      defer { index = end }
      guard isASCII, hasDigit, hasLetter else { continue }
      let word = text[index..<end]
      let length = end - index
      if isUUID(word) {
        spans.append(DetectedSpan(kind: .uuid, range: index..<end, isReportable: false))
      } else if isHexadecimal, length >= minimumHexadecimalTokenLength {
        spans.append(
          DetectedSpan(kind: .token, range: index..<end, isReportable: looksRandom(word)))
      } else if isHexadecimal, length >= 8 {
        spans.append(DetectedSpan(kind: .hexWord, range: index..<end, isReportable: false))
      } else if length >= minimumTokenLength {
        spans.append(
          DetectedSpan(kind: .token, range: index..<end, isReportable: looksRandom(word)))
      }
    }
    return spans
  }

  /// Whether a word looks like random characters rather than words and numbers run together.
  ///
  /// Two tests, against a random string of the same length over the same
  /// character classes (hexadecimal, or the classes of uppercase, lowercase and
  /// digits the word uses): its entropy is at most ``entropyMargin`` below a
  /// random string's expected entropy, and its runs of one class are at most
  /// 1.5 times as long as a random string's on average. Random tokens of 20 or
  /// more characters pass both 86 to 99 times in 100 (fewer for the shorter and
  /// two-class ones); identifiers made of words and dates fail the second.
  static func looksRandom(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
    let length = min(word.count, 256)
    let isHexadecimal =
      word.allSatisfy { $0.isASCIIDigit || ("a"..."f").contains($0) }
      || word.allSatisfy { $0.isASCIIDigit || ("A"..."F").contains($0) }
    if isHexadecimal {
      return entropy(word) >= expectedEntropy(length: length, alphabet: 16) - entropyMargin
    }
    let classSizes = [
      word.contains(where: \.isASCIIUppercase) ? 26 : 0,
      word.contains(where: \.isASCIILowercase) ? 26 : 0,
      word.contains(where: \.isASCIIDigit) ? 10 : 0,
    ].filter { $0 > 0 }
    guard classSizes.count >= 2 else { return false }
    let letters = classSizes.reduce(0, +)
    let alphabet = letters + (word.contains { $0 == "-" || $0 == "_" } ? 2 : 0)
    guard entropy(word) >= expectedEntropy(length: length, alphabet: alphabet) - entropyMargin
    else { return false }
    // The chance that two neighbours differ in class, for random characters.
    let sameClass = classSizes.reduce(0.0) { $0 + Double($1 * $1) } / Double(letters * letters)
    let changeChance = 1 - sameClass
    let characters = word.filter { $0.isASCIIAlphanumeric }
    var runs = 1
    for (previous, next) in zip(characters, characters.dropFirst())
    where characterClass(previous) != characterClass(next) {
      runs += 1
    }
    return Double(characters.count) / Double(runs) <= 1.5 / changeChance
  }

  private static func characterClass(_ scalar: Unicode.Scalar) -> Int {
    scalar.isASCIIUppercase ? 0 : scalar.isASCIILowercase ? 1 : 2
  }

  /// The expected Shannon entropy, in bits per character, of `length` characters drawn uniformly from `alphabet`.
  ///
  /// Each character's count is binomial; the sum runs over every count, so it
  /// is exact, and costs `length` steps.
  static func expectedEntropy(length: Int, alphabet: Int) -> Double {
    guard length > 0, alphabet > 1 else { return 0 }
    let chance = 1 / Double(alphabet)
    let odds = chance / (1 - chance)
    let total = Double(length)
    var probability = pow(1 - chance, total)  // of a count of 0
    var sum = 0.0
    for count in 1...length {
      probability *= Double(length - count + 1) / Double(count) * odds
      let share = Double(count) / total
      sum += probability * share * log2(share)
    }
    return -Double(alphabet) * sum
  }

  private static func isWordRunCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCIIAlphanumeric || scalar == "_" || scalar == "-" || scalar == "="
  }

  /// Whether a word is a UUID in its canonical 8-4-4-4-12 form.
  static func isUUID(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
    guard word.count == 36 else { return false }
    for (offset, scalar) in word.enumerated() {
      let isDash = offset == 8 || offset == 13 || offset == 18 || offset == 23
      guard isDash ? scalar == "-" : scalar.isASCIIHexDigit else { return false }
    }
    return true
  }
}
