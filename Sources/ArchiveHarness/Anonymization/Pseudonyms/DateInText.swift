import ArchiveFormat

/// A date written inside a text, such as `2023-03-08`, `2023-03-08T21:26:40` or `08.03.2023 21:26`.
///
/// The anonymizer gives such a span a valid date under the run's
/// `DatePolicy` (shifted by the run's offset, truncated, or kept) instead of
/// random digits, so a `matches` expectation on a date format still holds and
/// no impossible date (`2023-19-47`) appears. Two shapes are recognised, with
/// two-digit fields and a four-digit year from 1000 to 9999:
///
/// - year first, `YYYY-MM-DD` or `YYYY/MM/DD`, optionally followed by `T` or a
///   space and `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff`;
/// - day first with dots, `DD.MM.YYYY`, optionally followed by a space and
///   `HH:MM` or `HH:MM:SS`.
///
/// Slashed dates with the year last (`03/08/2023`) are ambiguous, month or
/// day first, and are left to the character-by-character replacement, as are
/// dates that are not valid (`2023-02-30`) and fields of one digit. A time
/// zone after the time (`Z`, `+01:00`) is not part of the span. The span keeps
/// its length, separators and order; a shift moves by whole days, so the time
/// of day stays, and a truncation writes zeros.
struct DateInText: Hashable, Sendable {
  /// The order of the fields.
  enum Order: Hashable, Sendable {
    /// `YYYY-MM-DD`, `YYYY/MM/DD`.
    case yearFirst
    /// `DD.MM.YYYY`.
    case dayFirst
  }

  /// The order of the fields.
  var order: Order
  /// The separator between the date's fields: `-`, `/` or `.`.
  var separator: Unicode.Scalar
  /// The year, 1000 to 9999.
  var year: Int64
  /// The month, 1 to 12.
  var month: Int64
  /// The day of the month.
  var day: Int64
  /// What separates the date from the time (`T` or a space), or nil when no time follows.
  var timeSeparator: Unicode.Scalar?
  /// The hour, 0 to 23 (0 without a time).
  var hour: Int64 = 0
  /// The minute, 0 to 59 (0 without a time).
  var minute: Int64 = 0
  /// The second, 0 to 59, or nil when the time has no seconds.
  var second: Int64?
  /// The digits after the seconds' decimal point, as written.
  var fraction: [Unicode.Scalar] = []
  /// The span's length in Unicode scalars.
  var length: Int

  /// Every date in a text, as spans of kind `.date`, in text order, without overlaps.
  ///
  /// One pass; each candidate position reads at most 29 scalars, so a text of any length costs linear time.
  static func spans(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index < text.count {
      if text[index].isASCIIDigit, index == 0 || !text[index - 1].isASCIIAlphanumeric,
        let date = DateInText(text, at: index)
      {
        spans.append(
          DetectedSpan(kind: .date, range: index..<(index + date.length), isReportable: false))
        index += date.length
      } else {
        index += 1
      }
    }
    return spans
  }

  /// Reads a date that starts at `start` and is not followed by a digit.
  init?(_ text: [Unicode.Scalar], at start: Int) {
    var reader = FieldReader(text: text, position: start)
    if let year = reader.number(digits: 4), let separator = reader.scalar(in: ["-", "/"]),
      let month = reader.number(digits: 2), reader.scalar(in: [separator]) != nil,
      let day = reader.number(digits: 2)
    {
      self.init(
        order: .yearFirst, separator: separator, year: year, month: month, day: day, length: 0)
      readTime(&reader, separators: ["T", " "], fractions: true)
    } else {
      reader.position = start
      guard let day = reader.number(digits: 2), reader.scalar(in: ["."]) != nil,
        let month = reader.number(digits: 2), reader.scalar(in: ["."]) != nil,
        let year = reader.number(digits: 4)
      else { return nil }
      self.init(order: .dayFirst, separator: ".", year: year, month: month, day: day, length: 0)
      readTime(&reader, separators: [" "], fractions: false)
    }
    length = reader.position - start
    guard reader.position >= text.count || !text[reader.position].isASCIIDigit, isValid
    else { return nil }
  }

  private init(
    order: Order, separator: Unicode.Scalar, year: Int64, month: Int64, day: Int64, length: Int
  ) {
    self.order = order
    self.separator = separator
    self.year = year
    self.month = month
    self.day = day
    self.length = length
  }

  /// Reads `HH:MM[:SS[.fff]]` after one of `separators`, or leaves the reader where it was.
  private mutating func readTime(
    _ reader: inout FieldReader, separators: Set<Unicode.Scalar>, fractions: Bool
  ) {
    let dateEnd = reader.position
    guard let separator = reader.scalar(in: separators), let hour = reader.number(digits: 2),
      reader.scalar(in: [":"]) != nil, let minute = reader.number(digits: 2)
    else {
      reader.position = dateEnd
      return
    }
    guard hour <= 23, minute <= 59 else {
      reader.position = dateEnd
      return
    }
    timeSeparator = separator
    self.hour = hour
    self.minute = minute
    let minuteEnd = reader.position
    guard reader.scalar(in: [":"]) != nil, let second = reader.number(digits: 2), second <= 59
    else {
      reader.position = minuteEnd
      return
    }
    self.second = second
    let secondEnd = reader.position
    guard fractions, reader.scalar(in: ["."]) != nil else {
      reader.position = secondEnd
      return
    }
    let digits = reader.digits(upTo: 9)
    if digits.isEmpty {
      reader.position = secondEnd
    } else {
      fraction = digits
    }
  }

  /// Whether the fields name a real day and time of the proleptic Gregorian calendar.
  var isValid: Bool {
    guard (1000...9999).contains(year), (1...12).contains(month), day >= 1,
      (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second ?? 0)
    else { return false }
    let civil = ISO8601.civil(fromDays: ISO8601.daysFromCivil(year: year, month: month, day: day))
    return civil.year == year && civil.month == month && civil.day == day
  }

  /// The date moved by the policy, or nil when the result leaves the years 1000 to 9999.
  func applying(_ policy: DatePolicy, shift: Double) -> DateInText? {
    let days = ISO8601.daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + (second ?? 0)
    let moved = policy.apply(Double(seconds) - ISO8601.referenceOffset, shift: shift)
    let unix = Int64((moved + ISO8601.referenceOffset).rounded(.down))
    let movedDays = (unix - (unix % 86_400 + 86_400) % 86_400) / 86_400
    let secondOfDay = unix - movedDays * 86_400
    let civil = ISO8601.civil(fromDays: movedDays)
    var result = self
    (result.year, result.month, result.day) = civil
    result.hour = secondOfDay / 3_600
    result.minute = secondOfDay / 60 % 60
    result.second = second.map { _ in secondOfDay % 60 }
    if case .truncate = policy { result.fraction = fraction.map { _ in "0" } }
    return result.isValid ? result : nil
  }

  /// The date written in its original shape.
  var scalars: [Unicode.Scalar] {
    var text: String
    switch order {
    case .yearFirst:
      text =
        Self.padded(year, 4) + "\(separator)" + Self.padded(month, 2) + "\(separator)"
        + Self.padded(day, 2)
    case .dayFirst:
      text = Self.padded(day, 2) + "." + Self.padded(month, 2) + "." + Self.padded(year, 4)
    }
    if let timeSeparator {
      text += "\(timeSeparator)" + Self.padded(hour, 2) + ":" + Self.padded(minute, 2)
      if let second { text += ":" + Self.padded(second, 2) }
      if !fraction.isEmpty {
        text += "."
        text.unicodeScalars.append(contentsOf: fraction)
      }
    }
    return Array(text.unicodeScalars)
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// Reads fixed-width fields from a text, never past its end.
private struct FieldReader {
  let text: [Unicode.Scalar]
  var position: Int

  /// Exactly `digits` ASCII digits as a number, or nil (the position then is undefined).
  mutating func number(digits: Int) -> Int64? {
    guard position + digits <= text.count else { return nil }
    var value: Int64 = 0
    for scalar in text[position..<(position + digits)] {
      guard scalar.isASCIIDigit else { return nil }
      value = value * 10 + Int64(scalar.value - 0x30)
    }
    position += digits
    return value
  }

  /// Up to `limit` ASCII digits, as written.
  mutating func digits(upTo limit: Int) -> [Unicode.Scalar] {
    let end = min(text.count, position + limit)
    var taken: [Unicode.Scalar] = []
    while position < end, text[position].isASCIIDigit {
      taken.append(text[position])
      position += 1
    }
    return taken
  }

  /// The next scalar when it is one of `allowed`.
  mutating func scalar(in allowed: Set<Unicode.Scalar>) -> Unicode.Scalar? {
    guard position < text.count, allowed.contains(text[position]) else { return nil }
    position += 1
    return text[position - 1]
  }
}
