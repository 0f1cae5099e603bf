/// Converts between property-list dates (seconds since 2001-01-01T00:00:00Z) and ISO 8601 text in UTC.
///
/// Pure arithmetic on the proleptic Gregorian calendar, so the result does not
/// depend on the machine's time zone or on Foundation's formatters.
package enum ISO8601 {
  /// Seconds between 1970-01-01 and 2001-01-01.
  package static let referenceOffset: Double = 978_307_200

  /// Formats a date as `YYYY-MM-DDTHH:MM:SS[.fff]Z`, or `nil` when it is not finite or beyond year 9999.
  ///
  /// - Parameters:
  ///   - seconds: Seconds since the reference date.
  ///   - fractionalDigits: Digits after the decimal point (0 to 6).
  /// - Returns: The text, or `nil` when the date cannot be written in this form.
  package static func format(_ seconds: Double, fractionalDigits: Int = 0) -> String? {
    let unix = seconds + referenceOffset
    // Years 0001 to 9999 only; beyond that ISO 8601 needs an expanded form.
    guard unix.isFinite, unix >= -62_135_596_800, unix < 253_402_300_800 else { return nil }
    return formatExpanded(seconds, fractionalDigits: fractionalDigits)
  }

  /// A date as ISO 8601 text for any year, as reports and JSON show it: years 0000 to 9999 as
  /// ``format(_:fractionalDigits:)`` writes them, others in ISO 8601's expanded form
  /// (`-0001-12-31T00:00:00Z`, `+10000-01-01T00:00:00Z`); nil only for a value that is not
  /// finite or lies beyond ±10^15 seconds.
  ///
  /// ```swift
  /// ISO8601.formatExpanded(-63_114_076_800)  // "0000-12-30T00:00:00Z"
  /// ```
  package static func formatExpanded(_ seconds: Double, fractionalDigits: Int = 0) -> String? {
    let unix = seconds + referenceOffset
    guard unix.isFinite, abs(unix) < 1e15 else { return nil }
    let scale = pow10(fractionalDigits)
    let units = Int64((unix * Double(scale)).rounded(.toNearestOrEven))
    let wholeSeconds = floorDivide(units, scale)
    let fraction = units - wholeSeconds * scale
    let days = floorDivide(wholeSeconds, 86_400)
    let secondOfDay = wholeSeconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    let yearText =
      year < 0 ? "-" + pad(-year, 4) : year > 9999 ? "+" + String(year) : pad(year, 4)
    var text =
      yearText + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
      + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    if fractionalDigits > 0 {
      text += "." + pad(fraction, fractionalDigits)
    }
    return text + "Z"
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.f…]Z` into seconds since the reference date.
  package static func parse(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var fraction = 0.0
    if bytes.count > 20 {
      // At most 18 fraction digits, so that they fit in Int64 and pow10 is exact.
      guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, bytes.count <= 39,
        let digits = number(20..<(bytes.count - 1))
      else { return nil }
      fraction = Double(digits) / Double(pow10(bytes.count - 21))
    } else if bytes.count != 20 {
      return nil
    }
    let days = daysFromCivil(year: year, month: month, day: day)
    let unix = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
    return unix - referenceOffset
  }

  private static func pow10(_ exponent: Int) -> Int64 {
    var value: Int64 = 1
    for _ in 0..<max(0, min(exponent, 18)) { value *= 10 }
    return value
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }

  /// Days since 1970-01-01 for a proleptic Gregorian date (eras of 400 years, March-based years).
  ///
  /// - Parameters:
  ///   - year: The year; 0 is 1 BCE, and negative years count further back.
  ///   - month: The month, 1 to 12.
  ///   - day: The day of the month, from 1.
  /// - Returns: The day count, negative before 1970.
  package static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = floorDivide(shiftedYear, 400)
    let yearOfEra = shiftedYear - era * 400
    let monthFromMarch = (month + 9) % 12
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a day count since 1970-01-01; the inverse of ``daysFromCivil(year:month:day:)``.
  ///
  /// - Parameter days: Days since 1970-01-01, negative before.
  /// - Returns: The year, month (1 to 12) and day of the month.
  package static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = floorDivide(shifted, 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}
