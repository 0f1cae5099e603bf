import Testing

@testable import ArchiveManifest

@Suite("XSD values")
struct XSDValueTests {
  @Test(
    "Integers become canonical decimal",
    arguments: [
      ("42", "42"), ("+042", "42"), ("-0", "0"), ("000", "0"), (" -7 ", "-7"),
      ("340282366920938463463374607431768211455", "340282366920938463463374607431768211455"),
    ])
  func canonicalIntegers(text: String, canonical: String) {
    #expect(XSDValue.canonicalInteger(text) == canonical)
  }

  @Test("Text that is not an integer is refused", arguments: ["", "+", "4 2", "0x10", "1.0"])
  func notIntegers(text: String) {
    #expect(XSDValue.canonicalInteger(text) == nil)
  }

  @Test(
    "Dates read as seconds since 2001-01-01",
    arguments: [
      ("2001-01-01T00:00:00Z", 0.0), ("2001-01-01T01:00:00+01:00", 0.0),
      ("2000-12-31T23:59:59.5Z", -0.5), ("1970-01-01T00:00:00Z", -978_307_200.0),
      ("2024-02-29T12:00:00-05:30", 730_920_600.0), ("1600-03-01T00:00:00Z", -12_649_219_200.0),
    ])
  func dates(text: String, seconds: Double) {
    #expect(XSDValue.dateTime(text) == seconds)
  }

  @Test(
    "Malformed dates are refused",
    arguments: [
      "2021-13-01T00:00:00Z", "2021-01-01", "2021-01-01T00:00:00", "2021-01-01T00:00:00.Z",
    ])
  func malformedDates(text: String) {
    #expect(XSDValue.dateTime(text) == nil)
  }

  @Test(
    "Formatting a date and reading it back gives the same instant",
    arguments: [
      0.0, -0.5, 631_152_000.5, -978_307_200.0, -12_653_308_800.25, 1e9 + 0.125,
    ])
  func dateRoundTrip(seconds: Double) throws {
    let text = XSDValue.formatDateTime(seconds)
    let back = try #require(XSDValue.dateTime(text))
    #expect(abs(back - seconds) < 0.0005, "\(text)")
  }

  @Test("Doubles include INF and NaN, and reject other words")
  func doubles() {
    #expect(XSDValue.double("INF") == .infinity)
    #expect(XSDValue.double("-INF") == -.infinity)
    #expect(XSDValue.double("NaN")?.isNaN == true)
    #expect(XSDValue.double("1e-05") == 1e-05)
    #expect(XSDValue.double("inf") == nil)
    #expect(XSDValue.double("0x1p3") == nil)
  }

  @Test(
    "Written doubles read back to the same value",
    arguments: [
      0.1, -2.5, 1e-300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 3.0,
      .infinity, -.infinity,
    ])
  func writtenDoublesRoundTrip(value: Double) {
    #expect(XSDValue.double(ManifestXMLWriter.double(value)) == value)
  }

  @Test("Produced dates accept xs:date and xs:dateTime forms")
  func producedDates() {
    for text in [
      "2021-03-04", "2021-03-04Z", "2021-03-04+02:00", "2021-03-04T10:00:00",
      "2021-03-04T10:00:00Z",
    ] {
      #expect(XSDValue.isDateOrDateTime(text), "\(text)")
    }
    for text in ["yesterday", "2021-3-4", "2021-03-04 10:00", "2021-13-04"] {
      #expect(!XSDValue.isDateOrDateTime(text), "\(text)")
    }
  }
}
