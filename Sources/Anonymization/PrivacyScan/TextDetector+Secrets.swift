import PropertyList

extension TextDetector {
  /// The fewest characters a token word has before the scan looks at its entropy.
  static let minimumTokenLength = 20
  /// The fewest characters a hexadecimal token word has (a 128-bit key).
  static let minimumHexadecimalTokenLength = 32
  /// The entropy, in bits per character, above which a mixed token word is reported.
  static let tokenEntropy = 3.5
  /// The entropy above which a hexadecimal token word, or a bearer token, is reported.
  static let hexadecimalTokenEntropy = 3.0

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
      var end = tokenStart
      while end < text.count, isTokenCharacter(text[end]) { end += 1 }
      while end < text.count, text[end] == "=" { end += 1 }
      if tokenStart > index + keyword.count, end - tokenStart >= 16 {
        let token = text[tokenStart..<end]
        let reportable = entropy(token) >= hexadecimalTokenEntropy
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
  /// - A canonical UUID is a ``DetectedSpan/Kind/uuid`` and never reported.
  /// - A hexadecimal word of 8 to 31 characters with a digit and a letter is a
  ///   ``DetectedSpan/Kind/hexWord``, never reported.
  /// - A hexadecimal word of 32 or more, or a word of 20 or more with a letter
  ///   and a digit, is a ``DetectedSpan/Kind/token``. It is reported when its
  ///   entropy is that of a secret: at least 3.0 bits a character for
  ///   hexadecimal, at least 3.5 for others, which must also mix two of
  ///   uppercase, lowercase and digits.
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
      var hasUppercase = false
      var hasLowercase = false
      var isHexadecimal = true
      var isASCII = true
      while end < text.count,
        isWordRunCharacter(text[end]) || !text[end].isASCII && text[end].isWordCharacter
      {
        let scalar = text[end]
        if !scalar.isASCII { isASCII = false }
        if scalar.isASCIIDigit { hasDigit = true }
        if scalar.isASCIIUppercase { hasUppercase = true }
        if scalar.isASCIILowercase { hasLowercase = true }
        if !scalar.isASCIIHexDigit { isHexadecimal = false }
        end += 1
      }
      defer { index = end }
      guard isASCII else { continue }
      let word = text[index..<end]
      let length = end - index
      let hasLetter = hasUppercase || hasLowercase
      if isUUID(word) {
        spans.append(DetectedSpan(kind: .uuid, range: index..<end, isReportable: false))
      } else if isHexadecimal, hasDigit, hasLetter, length >= minimumHexadecimalTokenLength {
        let reportable = entropy(word) >= hexadecimalTokenEntropy
        spans.append(DetectedSpan(kind: .token, range: index..<end, isReportable: reportable))
      } else if isHexadecimal, hasDigit, hasLetter, length >= 8 {
        spans.append(DetectedSpan(kind: .hexWord, range: index..<end, isReportable: false))
      } else if hasDigit, hasLetter, length >= minimumTokenLength {
        let classes = [hasDigit, hasUppercase, hasLowercase].filter { $0 }.count
        let reportable = classes >= 2 && entropy(word) >= tokenEntropy
        spans.append(DetectedSpan(kind: .token, range: index..<end, isReportable: reportable))
      }
    }
    return spans
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
