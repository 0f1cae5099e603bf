import ArchiveFormat

/// What the anonymizer does with dates (`NSDate` objects and property-list dates).
///
/// ```swift
/// var options = Anonymizer.Options()
/// options.dates = .truncate(.month)        // 2023-03-08T21:26:40Z becomes 2023-03-01T00:00:00Z
/// let policy = try DatePolicy("truncate:day")
/// ```
package enum DatePolicy: Sendable, Hashable, CustomStringConvertible {
  /// The calendar unit a date is truncated to, in UTC.
  package enum Unit: String, Sendable, Hashable, CaseIterable {
    /// Midnight of the day.
    case day
    /// Midnight of the first of the month.
    case month
    /// Midnight of the first of January.
    case year
  }

  /// Every date moves by one offset per run, derived from the salt: order and differences are kept.
  case shift
  /// Every date is truncated to the start of its day, month or year, in UTC.
  case truncate(Unit)
  /// Dates stay as they are.
  case keep

  /// Every value as the command line writes it.
  package static let allArguments =
    ["shift", "keep"] + Unit.allCases.map { "truncate:\($0.rawValue)" }

  /// Parses `shift`, `keep` or `truncate:day|month|year`, as the command line writes them.
  ///
  /// - Throws: `AnonymizationError` for anything else.
  package init(_ text: String) throws(AnonymizationError) {
    switch text {
    case "shift": self = .shift
    case "keep": self = .keep
    default:
      let parts = text.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, parts[0] == "truncate", let unit = Unit(rawValue: String(parts[1]))
      else {
        throw AnonymizationError(
          .invalidDatePolicy,
          "'\(text)' is not a date policy; expected one of: \(Self.allArguments.joined(separator: ", "))"
        )
      }
      self = .truncate(unit)
    }
  }

  /// The policy as the command line writes it.
  package var description: String {
    switch self {
    case .shift: return "shift"
    case .keep: return "keep"
    case .truncate(let unit): return "truncate:\(unit.rawValue)"
    }
  }

  /// The smallest and largest whole days a shift moves dates by.
  static let shiftDays: ClosedRange<UInt64> = 30...1095

  /// Applies the policy to seconds since 2001-01-01, given the run's shift; a date that is not finite, or beyond year 9999, stays.
  func apply(_ seconds: Double, shift: Double) -> Double {
    guard seconds.isFinite, seconds.magnitude < 3e11 else { return seconds }
    switch self {
    case .keep:
      return seconds
    case .shift:
      return seconds + shift
    case .truncate(let unit):
      let unix = seconds + ISO8601.referenceOffset
      let days = Int64((unix / 86_400).rounded(.down))
      let (year, month, day) = ISO8601.civil(fromDays: days)
      let start: Int64
      switch unit {
      case .day: start = ISO8601.daysFromCivil(year: year, month: month, day: day)
      case .month: start = ISO8601.daysFromCivil(year: year, month: month, day: 1)
      case .year: start = ISO8601.daysFromCivil(year: year, month: 1, day: 1)
      }
      return Double(start) * 86_400 - ISO8601.referenceOffset
    }
  }

  /// The run's shift in seconds: whole days, from 30 days to 3 years, earlier or later, derived from the key.
  static func shift(for key: AnonymizationKey) -> Double {
    var stream = key.stream(domain: "date-shift", value: [])
    let days = stream.next(in: shiftDays)
    let sign: Double = stream.next(below: UInt64(2)) == 0 ? -1 : 1
    return sign * Double(days) * 86_400
  }
}
