import ArchiveFormat

/// Converts the lexical forms of XSD simple types that the manifest uses into Swift values.
///
/// The XSD has already accepted the text, so these only normalize it; they
/// still return nil rather than trap on anything unexpected.
package enum XSDValue {
  /// Seconds between 1970-01-01 and 2001-01-01, the reference date of archived dates.
  package static let referenceDateOffset: Double = 978_307_200

  /// Returns an `xs:integer` in canonical decimal: no `+`, no leading zeros, `0` for zero.
  package static func canonicalInteger(_ text: String) -> String? {
    var digits = Substring(text.trimmingXMLWhitespace())
    var negative = false
    if let sign = digits.first, sign == "+" || sign == "-" {
      negative = sign == "-"
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    let trimmed = digits.drop { $0 == "0" }
    if trimmed.isEmpty { return "0" }
    return (negative ? "-" : "") + trimmed
  }

  /// Returns an `xs:double`, including `INF`, `-INF` and `NaN`.
  package static func double(_ text: String) -> Double? {
    let trimmed = text.trimmingXMLWhitespace()
    switch trimmed {
    case "INF", "+INF": return .infinity
    case "-INF": return -.infinity
    case "NaN": return .nan
    default:
      guard trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else {
        return nil
      }
      return Double(trimmed)
    }
  }

  /// Returns an `xs:boolean`.
  package static func bool(_ text: String) -> Bool? {
    switch text.trimmingXMLWhitespace() {
    case "true", "1": return true
    case "false", "0": return false
    default: return nil
    }
  }

  /// Returns an `xs:nonNegativeInteger` that fits in `Int`.
  package static func count(_ text: String) -> Int? {
    guard let canonical = canonicalInteger(text), !canonical.hasPrefix("-") else { return nil }
    return Int(canonical)
  }

  /// Returns an `xs:dateTime` with a time zone as seconds since 2001-01-01T00:00:00Z.
  package static func dateTime(_ text: String) -> Double? {
    let characters = Array(text.trimmingXMLWhitespace())
    var index = 0
    func number(_ width: Int) -> Int? {
      guard index + width <= characters.count else { return nil }
      var value = 0
      for character in characters[index..<index + width] {
        guard let digit = character.wholeNumberValue, character.isASCII else { return nil }
        value = value * 10 + digit
      }
      index += width
      return value
    }
    func expect(_ character: Character) -> Bool {
      guard index < characters.count, characters[index] == character else { return false }
      index += 1
      return true
    }
    var yearSign = 1
    if expect("-") { yearSign = -1 }
    var yearDigits = 0
    while index + yearDigits < characters.count, characters[index + yearDigits].isASCII,
      characters[index + yearDigits].isNumber
    {
      yearDigits += 1
    }
    guard yearDigits >= 4, let year = number(yearDigits), expect("-"), let month = number(2),
      expect("-"), let day = number(2), expect("T"), let hour = number(2), expect(":"),
      let minute = number(2), expect(":"), let second = number(2)
    else { return nil }
    var fraction = 0.0
    if expect(".") {
      var scale = 0.1
      var digits = 0
      while index < characters.count, let digit = characters[index].wholeNumberValue,
        characters[index].isASCII
      {
        fraction += Double(digit) * scale
        scale /= 10
        index += 1
        digits += 1
      }
      guard digits > 0 else { return nil }
    }
    var zoneOffset = 0
    if expect("Z") {
      zoneOffset = 0
    } else if index < characters.count, characters[index] == "+" || characters[index] == "-" {
      let sign = characters[index] == "-" ? -1 : 1
      index += 1
      guard let zoneHour = number(2), expect(":"), let zoneMinute = number(2) else { return nil }
      zoneOffset = sign * (zoneHour * 3600 + zoneMinute * 60)
    } else {
      return nil
    }
    guard index == characters.count, (1...12).contains(month), (1...31).contains(day),
      hour <= 24, minute < 60, second < 60
    else { return nil }
    let days = ISO8601.daysFromCivil(
      year: Int64(yearSign * year), month: Int64(month), day: Int64(day))
    let seconds =
      Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction
      - Double(zoneOffset)
    return seconds - referenceDateOffset
  }

  /// Whether text is an `xs:date` (`2021-03-04`, optionally with a zone) or an `xs:dateTime`.
  package static func isDateOrDateTime(_ text: String) -> Bool {
    let trimmed = text.trimmingXMLWhitespace()
    if trimmed.contains("T") {
      return dateTime(trimmed) != nil
        || dateTime(trimmed + "Z") != nil
    }
    // A date is a date-time at midnight without its time part.
    guard trimmed.count >= 10 else { return false }
    let day = trimmed.prefix(10)
    let zone = trimmed.dropFirst(10)
    return dateTime(day + "T00:00:00" + (zone.isEmpty ? "Z" : zone)) != nil
  }

  /// Formats seconds since 2001-01-01T00:00:00Z as `xs:dateTime` in UTC.
  package static func formatDateTime(_ secondsSinceReference: Double) -> String {
    let unix = secondsSinceReference + referenceDateOffset
    guard unix.isFinite, abs(unix) < 1e15 else { return "1970-01-01T00:00:00Z" }
    var whole = unix.rounded(.down)
    var milliseconds = Int(((unix - whole) * 1000).rounded())
    if milliseconds == 1000 {
      whole += 1
      milliseconds = 0
    }
    let totalSeconds = Int64(whole)
    var days = totalSeconds / 86_400
    var secondsOfDay = totalSeconds % 86_400
    if secondsOfDay < 0 {
      secondsOfDay += 86_400
      days -= 1
    }
    let (year, month, day) = ISO8601.civil(fromDays: days)
    func pad(_ value: Int64, _ width: Int) -> String {
      let text = String(abs(value))
      return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count))
        + text
    }
    var text =
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3600, 2)):"
      + "\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
    if milliseconds != 0 { text += ".\(pad(Int64(milliseconds), 3))" }
    return text + "Z"
  }
}

extension String {
  /// The items of an `xs:list` value: the text split at XML whitespace, empty items dropped.
  package func xmlListItems() -> [String] {
    split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
      .map(String.init)
  }

  /// The string without leading and trailing XML whitespace (space, tab, CR, LF).
  package func trimmingXMLWhitespace() -> String {
    let isSpace: (Character) -> Bool = {
      $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n"
    }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
