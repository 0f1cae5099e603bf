import ArchiveManifest
import Foundation
import Testing

@testable import ArchiveHarness

@Suite("Dates written inside strings")
struct DateInTextTests {
  static func pseudonymizer(_ dates: DatePolicy) throws -> Pseudonymizer {
    Pseudonymizer(key: try AnonymizationKey(salt: [UInt8](repeating: 7, count: 32)), dates: dates)
  }

  /// The run's shift in whole days for the tests' salt.
  static func shiftDays() throws -> Int {
    Int(
      DatePolicy.shift(for: try AnonymizationKey(salt: [UInt8](repeating: 7, count: 32))) / 86_400)
  }

  /// The date `days` days after a `yyyy-MM-dd` date, in the same form (UTC, Gregorian).
  static func isoDay(_ text: String, plus days: Int) throws -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    let date = try #require(formatter.date(from: text))
    return formatter.string(from: date.addingTimeInterval(Double(days) * 86_400))
  }

  @Test(
    "Each date shape is found with its exact span",
    arguments: [
      ("on 2023-03-08 at home", 3..<13), ("2023/03/08", 0..<10),
      ("at 2023-03-08T21:26:40.123Z", 3..<26), ("2023-03-08 21:26", 0..<16),
      ("due 08.03.2023 21:26:40 sharp", 4..<23), ("08.03.2023", 0..<10),
    ])
  func findsSpans(text: String, range: Range<Int>) {
    let spans = DateInText.spans(in: Array(text.unicodeScalars))
    #expect(spans.map(\.range) == [range])
    #expect(spans.allSatisfy { $0.kind == .date && !$0.isReportable })
  }

  @Test(
    "Text that is not a valid date of a known shape is not a date",
    arguments: [
      "2023-02-30", "2023-13-01", "08.13.2023", "12023-03-08", "03/08/2023",
      "2023-3-8", "0999-01-01", "v2023-03-08", "2023-03-0", "+49 30 1234567",
    ])
  func rejectsNonDates(text: String) {
    #expect(DateInText.spans(in: Array(text.unicodeScalars)).isEmpty)
  }

  @Test(
    "A time that is not valid is not part of the span",
    arguments: [
      ("2023-03-08 25:01", 0..<10), ("2023-03-08 21:61", 0..<10), ("2023-03-08 21:26:60", 0..<16),
    ])
  func invalidTimeIsNotPartOfTheSpan(text: String, range: Range<Int>) {
    let spans = DateInText.spans(in: Array(text.unicodeScalars))
    #expect(spans.map(\.range) == [range])
  }

  @Test("A day-first date with a time is not reported as a phone number")
  func dateIsNoPhoneNumber() {
    #expect(TextDetector.findings(in: Array("01.03.2023 09:30".unicodeScalars)).isEmpty)
    #expect(
      TextDetector.findings(in: Array("call 030 12345678 on 01.03.2023".unicodeScalars)).map(\.kind)
        == [.phone])
  }

  @Test("With --dates shift a date in a string moves by the run's whole days and stays valid")
  func shiftsByTheRunsOffset() throws {
    var pseudonymizer = try Self.pseudonymizer(.shift)
    let days = try Self.shiftDays()
    let pseudonym = pseudonymizer.string("Meeting 2023-03-08 21:26 with Avery")
    let expected = try Self.isoDay("2023-03-08", plus: days)
    #expect(pseudonym.count == "Meeting 2023-03-08 21:26 with Avery".count)
    #expect(pseudonym.contains(expected + " 21:26"), "\(pseudonym)")
    #expect(!pseudonym.contains("Meeting"))
    #expect(!pseudonym.contains("Avery"))
  }

  @Test("A day-first date moves by the same days as a year-first one")
  func dayFirstMovesAlike() throws {
    var pseudonymizer = try Self.pseudonymizer(.shift)
    let iso = pseudonymizer.string("2023-03-08")
    let dotted = pseudonymizer.string("08.03.2023 21:26:40")
    let parts = iso.split(separator: "-")
    #expect(parts.count == 3)
    #expect(dotted == "\(parts[2]).\(parts[1]).\(parts[0]) 21:26:40")
  }

  @Test("With --dates truncate:month a date in a string becomes the first of its month at midnight")
  func truncates() throws {
    var pseudonymizer = try Self.pseudonymizer(.truncate(.month))
    #expect(pseudonymizer.string("2023-03-08T21:26:40.5") == "2023-03-01T00:00:00.0")
    #expect(pseudonymizer.string("08.03.2023 21:26") == "01.03.2023 00:00")
    #expect(pseudonymizer.unresolved == Pseudonymizer.Unresolved())
  }

  @Test(
    "With --dates keep a date in a string stays, the text around it does not, and no collision is counted"
  )
  func keeps() throws {
    var pseudonymizer = try Self.pseudonymizer(.keep)
    let pseudonym = pseudonymizer.string("Avery, 2023-03-08")
    #expect(pseudonym.hasSuffix(", 2023-03-08"))
    #expect(!pseudonym.hasPrefix("Avery"))
    #expect(pseudonymizer.string("2023-03-08") == "2023-03-08")
    #expect(pseudonymizer.unresolved == Pseudonymizer.Unresolved())
  }

  @Test("Shifted dates in strings keep a date format's pattern across many dates")
  func shiftedDatesMatchTheFormat() throws {
    var pseudonymizer = try Self.pseudonymizer(.shift)
    // A manifest's <matches> pattern for the format, matched as the manifest engine matches it.
    let pattern = try ValuePattern(
      #"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]$"#)
    for day in stride(from: 0, to: 3_000, by: 37) {
      let date = Date(timeIntervalSince1970: 1_600_000_000 + Double(day) * 86_400)
      let text = date.formatted(.iso8601.year().month().day().dateSeparator(.dash)) + " 09:15"
      let pseudonym = pseudonymizer.string(text)
      #expect(pattern.matches(pseudonym), "\(text) → \(pseudonym)")
      #expect(pseudonym != text)
    }
  }

  @Test("A date near year 9999 that a shift would carry past it gets random digits instead")
  func outOfRangeFallsBack() throws {
    let date = try #require(DateInText(Array("9999-12-31".unicodeScalars), at: 0))
    #expect(date.applying(.shift, shift: 400 * 86_400) == nil)
    #expect(date.applying(.shift, shift: -86_400)?.scalars == Array("9999-12-30".unicodeScalars))
  }

  @Test("A long run of date-like digits is scanned in linear time without a crash")
  func hostileText() {
    let text = Array(String(repeating: "2023-03-08-08.03.2023 ", count: 20_000).unicodeScalars)
    let spans = DateInText.spans(in: text)
    #expect(spans.count == 40_000)
  }
}
