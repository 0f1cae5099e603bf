extension TextDetector {
  /// IBANs: a country code, two check digits and up to 30 letters or digits, grouped by single spaces or not.
  ///
  /// Only an IBAN whose check digits are valid (ISO 13616: the number, its
  /// first four characters moved to the end, is 1 modulo 97) is reported, so
  /// an order number that starts with two capitals is not, and neither is a
  /// pseudonym (the anonymizer draws again what its pseudonyms happen to line up into).
  static func ibans(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index + 4 <= text.count {
      guard text[index].isASCIIUppercase, text[index + 1].isASCIIUppercase,
        text[index + 2].isASCIIDigit, text[index + 3].isASCIIDigit,
        index == 0 || !text[index - 1].isWordCharacter
      else {
        index += 1
        continue
      }
      // The first four characters, moved to the end: letters as 10…35, then the check digits.
      let prefixValue =
        (letterValue(text[index]) * 100 + letterValue(text[index + 1])) * 100
        + text[index + 2].asciiDigitValue * 10 + text[index + 3].asciiDigitValue
      var remainder = 0
      var count = 4
      var position = index + 4
      var best: Int?
      while position < text.count, count < 34 {
        var scalar = text[position]
        if scalar == " ", position + 1 < text.count, isIBANCharacter(text[position + 1]) {
          position += 1
          scalar = text[position]
        }
        guard isIBANCharacter(scalar) else { break }
        remainder =
          scalar.isASCIIDigit
          ? (remainder * 10 + scalar.asciiDigitValue) % 97
          : (remainder * 100 + letterValue(scalar)) % 97
        count += 1
        position += 1
        let atBoundary = position == text.count || !text[position].isWordCharacter
        if count >= 15, atBoundary, (remainder * 1_000_000 + prefixValue) % 97 == 1 {
          best = position
        }
      }
      if let end = best {
        spans.append(DetectedSpan(kind: .iban, range: index..<end, isReportable: true))
        index = end
      } else {
        index += 1
      }
    }
    return spans
  }

  private static func isIBANCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCIIUppercase || scalar.isASCIIDigit
  }

  /// A letter's value in an IBAN check: A is 10, Z is 35.
  private static func letterValue(_ scalar: Unicode.Scalar) -> Int {
    Int(scalar.value) - 0x41 + 10
  }

  /// Payment card numbers: 13 to 19 digits, grouped by single spaces or hyphens or not, passing the Luhn check.
  ///
  /// The number must start with 2 to 6 (the major networks' ranges), not be
  /// one digit repeated, and be grouped as cards print it (4-4-4-4, 4-6-5); a
  /// number inside a longer run of digits or dots is not one.
  static func cardNumbers(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index < text.count {
      guard text[index].isASCIIDigit,
        index == 0
          || !(text[index - 1].isWordCharacter || ".,-".unicodeScalars.contains(text[index - 1]))
      else {
        index += 1
        continue
      }
      var digits: [Int] = []
      var groups: [Int] = [0]
      var position = index
      var separator: Unicode.Scalar?
      var end = index
      while position < text.count, digits.count <= 19 {
        let scalar = text[position]
        if scalar.isASCIIDigit {
          digits.append(scalar.asciiDigitValue)
          groups[groups.count - 1] += 1
          position += 1
          end = position
        } else if scalar == " " || scalar == "-", separator == nil || separator == scalar,
          position + 1 < text.count, text[position + 1].isASCIIDigit, position > index,
          text[position - 1].isASCIIDigit
        {
          separator = scalar
          groups.append(0)
          position += 1
        } else {
          break
        }
      }
      defer { index = max(position, index + 1) }
      if end < text.count, text[end].isWordCharacter || text[end] == "." { continue }
      guard (13...19).contains(digits.count), (2...6).contains(digits[0]),
        Set(digits).count > 1, isCardGrouping(groups), passesLuhn(digits)
      else { continue }
      spans.append(DetectedSpan(kind: .card, range: index..<end, isReportable: true))
    }
    return spans
  }

  /// Whether digit groups are a card's: one run, fours with a last group of three or four, or American Express's 4-6-5.
  private static func isCardGrouping(_ groups: [Int]) -> Bool {
    guard groups.count > 1, let last = groups.last else { return true }
    if groups == [4, 6, 5] || groups == [4, 6, 4] { return true }
    return groups.dropLast().allSatisfy { $0 == 4 } && (3...4).contains(last)
  }

  /// Whether digits pass the Luhn check: doubling every second digit from the right, the sum is a multiple of 10.
  static func passesLuhn(_ digits: [Int]) -> Bool {
    var sum = 0
    for (offset, digit) in digits.reversed().enumerated() {
      if offset % 2 == 1 {
        let doubled = digit * 2
        sum += doubled > 9 ? doubled - 9 : doubled
      } else {
        sum += digit
      }
    }
    return sum % 10 == 0
  }
}
