extension TextDetector {
  /// Domains reserved for documentation and tests (RFC 2606, RFC 6761); an email there is not reported.
  static let reservedDomains: Set<String> = ["example.com", "example.net", "example.org"]
  /// Top-level domains reserved for documentation, tests and local names.
  static let reservedTopLevelDomains: Set<String> = [
    "example", "test", "invalid", "localhost", "local",
  ]

  /// Emails: `local@domain.tld`, the local part at most 64 characters, the domain at most 253.
  ///
  /// Each `@` looks back over local-part characters and forward over domain
  /// characters, and both stop at the next `@`, so each character is looked
  /// at a bounded number of times.
  static func emails(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    for at in text.indices where text[at] == "@" {
      var start = at
      while start > 0, at - start < 64, isLocalPartCharacter(text[start - 1]) { start -= 1 }
      while start < at, text[start] == "." { start += 1 }
      guard start < at, text[at - 1] != "." else { continue }
      var end = at + 1
      while end < text.count, end - at <= 253, isDomainCharacter(text[end]) { end += 1 }
      while end > at + 1, text[end - 1] == "." || text[end - 1] == "-" { end -= 1 }
      guard let domain = domainName(text[(at + 1)..<end]) else { continue }
      spans.append(
        DetectedSpan(kind: .email, range: start..<end, isReportable: !isReserved(domain: domain)))
    }
    return spans
  }

  /// Whether a lowercase domain name is reserved for documentation or tests.
  static func isReserved(domain: String) -> Bool {
    if reservedDomains.contains(domain) { return true }
    if reservedDomains.contains(where: { domain.hasSuffix("." + $0) }) { return true }
    let topLevel = domain.split(separator: ".").last.map(String.init) ?? domain
    return reservedTopLevelDomains.contains(topLevel)
  }

  /// The domain as lowercase text, when it has two or more labels and a top-level domain of letters.
  static func domainName(_ scalars: ArraySlice<Unicode.Scalar>) -> String? {
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    let labels = text.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, let topLevel = labels.last, topLevel.count >= 2,
      topLevel.unicodeScalars.allSatisfy(\.isASCIILetter),
      labels.allSatisfy({
        !$0.isEmpty && $0.count <= 63 && !$0.hasPrefix("-") && !$0.hasSuffix("-")
      })
    else { return nil }
    return text.lowercased()
  }

  private static func isLocalPartCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      return scalar.isASCIIAlphanumeric || "._%+-'".unicodeScalars.contains(scalar)
    }
    return scalar.isWordCharacter
  }

  private static func isDomainCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar.isASCIIAlphanumeric || scalar == "-" || scalar == "." }
    return scalar.isWordCharacter
  }

  /// Phone numbers in four shapes, with 7 to 15 digits.
  ///
  /// - `+` and a country code (`+49 30 1234567`); reported unless the country code starts with 0.
  /// - `00` and a country code, with separators (`0049 30 1234567`); reported unless it is `000`.
  /// - North American 3-3-4 with separators (`(212) 555-0147`, `1-212-555-0147`);
  ///   reported when the area code and exchange start with 2 to 9.
  /// - National with a trunk `0` and separators (`030 1234567`, `(0171) 123 4567`).
  ///
  /// Groups of one digit are allowed only first, so a list of digits or a
  /// version is not a number; dates (4-2-2, 2-2-4) have too few digits or the wrong grouping.
  /// The anonymizer's pseudonyms start with `000`, a shape this detector never reports.
  static func phoneNumbers(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index < text.count {
      let first = text[index]
      let startsCandidate =
        (first == "+" || first == "(" || first.isASCIIDigit)
        && (index == 0 || !blocksPhoneNumber(text[index - 1]))
      guard startsCandidate else {
        index += 1
        continue
      }
      let candidate = PhoneCandidate(text, from: index)
      if let span = candidate.span(in: text) { spans.append(span) }
      index = max(candidate.scanEnd, index + 1)
    }
    return spans
  }

  /// Characters that, just before a digit, make it part of a word, number or path, not a phone number.
  private static func blocksPhoneNumber(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isWordCharacter || ".,/-+:#=&%$€£".unicodeScalars.contains(scalar)
  }
}

/// One run of phone-number characters: digits, `+` first, parentheses and single separators.
private struct PhoneCandidate {
  /// Where the run starts.
  let start: Int
  /// Where the run ends, trailing separators trimmed.
  var end: Int
  /// Where scanning stopped; the next candidate starts here or later.
  var scanEnd: Int
  /// The digits, in order.
  var digits: [Int] = []
  /// The number of digits in each group between separators.
  var groups: [Int] = []
  /// How many separators there are (space, `-`, `.`, `/` and parentheses).
  var separators = 0
  /// Whether every separator is a `.`.
  var onlyDots = true
  /// Whether the run starts with `+`.
  let international: Bool

  init(_ text: [Unicode.Scalar], from start: Int) {
    self.start = start
    international = text[start] == "+"
    var position = international ? start + 1 : start
    var inParentheses = false
    var lastWasSeparator = international
    var currentGroup = 0
    var lastDigitEnd = start
    while position < text.count, digits.count <= 15 {
      let scalar = text[position]
      if scalar.isASCIIDigit {
        digits.append(scalar.asciiDigitValue)
        currentGroup += 1
        lastWasSeparator = false
        lastDigitEnd = position + 1
      } else if scalar == "(" {
        guard !inParentheses, lastWasSeparator || position == start else { break }
        inParentheses = true
        if currentGroup > 0 { groups.append(currentGroup) }
        currentGroup = 0
        separators += 1
        onlyDots = false
        lastWasSeparator = true
      } else if scalar == ")" {
        guard inParentheses, currentGroup > 0 else { break }
        inParentheses = false
        groups.append(currentGroup)
        currentGroup = 0
        separators += 1
        onlyDots = false
        lastWasSeparator = true
        // `) ` is one separator, as in `(212) 555-0147`.
        if position + 1 < text.count, text[position + 1] == " " { position += 1 }
      } else if scalar == " " || scalar == "-" || scalar == "." || scalar == "/" {
        guard !lastWasSeparator, !inParentheses else { break }
        if currentGroup > 0 { groups.append(currentGroup) }
        currentGroup = 0
        separators += 1
        if scalar != "." { onlyDots = false }
        lastWasSeparator = true
      } else {
        break
      }
      position += 1
    }
    if currentGroup > 0 { groups.append(currentGroup) }
    scanEnd = position
    end = lastDigitEnd
    // A closing parenthesis cannot end a number, and one left open makes no number.
    if inParentheses { digits = [] }
  }

  /// The span, when the run has a phone number's shape and nothing word-like follows it.
  func span(in text: [Unicode.Scalar]) -> DetectedSpan? {
    guard digits.count >= 7, digits.count <= 15, end > start else { return nil }
    if end < text.count, text[end].isWordCharacter || text[end] == "@" { return nil }
    // A group of one digit is a country or trunk prefix, never later in the number.
    guard groups.dropFirst().allSatisfy({ $0 >= 2 }) else { return nil }
    let reportable: Bool
    if international {
      guard digits.count >= 8 else { return nil }
      reportable = digits[0] != 0
    } else if separators == 0 || onlyDots && !isNorthAmerican {
      return nil
    } else if digits[0] == 0, digits[1] == 0 {
      guard digits.count >= 10 else { return nil }
      reportable = digits[2] != 0
    } else if isNorthAmerican {
      let local = digits.count == 11 ? Array(digits.dropFirst()) : digits
      reportable = local[0] >= 2 && local[3] >= 2 && (digits.count == 10 || digits[0] == 1)
    } else if digits[0] == 0 {
      guard digits.count >= 9, digits.count <= 12 else { return nil }
      reportable = true
    } else {
      return nil
    }
    return DetectedSpan(kind: .phone, range: start..<end, isReportable: reportable)
  }

  /// Whether the groups are North American: 3-3-4, optionally after a country code 1 (or its fictional 0).
  private var isNorthAmerican: Bool {
    groups == [3, 3, 4] || (groups == [1, 3, 3, 4] && digits[0] <= 1)
  }
}
