import ArchiveFormat
import Testing

/// Numbers read by `JSONDocument`: exact integers, doubles only where the text has a fraction
/// or an exponent, and integers beyond 64 bits refused at their byte offset.
@Suite("JSON document numbers")
struct JSONDocumentNumberTests {
  @Test("2^53 + 1 reads as that integer, not the double next to it")
  func twoToThe53PlusOneIsExact() throws {
    let document = try JSONDocument(parsing: "9007199254740993")
    #expect(document == .integer(9_007_199_254_740_993))
    #expect(document.int64Value == 9_007_199_254_740_993)
    #expect(document != .number(9_007_199_254_740_992))
    #expect(document != .integer(9_007_199_254_740_992))
  }

  @Test("Int64.max reads exactly")
  func int64MaxIsExact() throws {
    let document = try JSONDocument(parsing: "9223372036854775807")
    #expect(document == .integer(.max))
    #expect(document.int64Value == .max)
    #expect(document.uint64Value == UInt64(Int64.max))
  }

  @Test("Int64.min reads exactly")
  func int64MinIsExact() throws {
    let document = try JSONDocument(parsing: "-9223372036854775808")
    #expect(document == .integer(.min))
    #expect(document.int64Value == .min)
    #expect(document.uint64Value == nil)
  }

  @Test("Int64.max + 1 reads as an unsigned integer")
  func aboveInt64MaxIsUnsigned() throws {
    let document = try JSONDocument(parsing: "9223372036854775808")
    #expect(document == .unsignedInteger(9_223_372_036_854_775_808))
    #expect(document.int64Value == nil)
    #expect(document.uint64Value == 9_223_372_036_854_775_808)
  }

  @Test("UInt64.max reads exactly")
  func uint64MaxIsExact() throws {
    let document = try JSONDocument(parsing: "18446744073709551615")
    #expect(document == .unsignedInteger(.max))
    #expect(document.uint64Value == .max)
    #expect(document.description == "18446744073709551615")
  }

  @Test("UInt64.max + 1 is refused at its byte offset, not rounded")
  func aboveUInt64MaxIsRefused() {
    let error = #expect(throws: JSONDocumentError.self) {
      try JSONDocument(parsing: #"{"rowid": 18446744073709551616}"#)
    }
    #expect(error?.offset == 10)
    #expect(error?.message.contains("outside the 64-bit range") == true)
  }

  @Test("Int64.min - 1 is refused at its byte offset, not rounded to Int64.min")
  func belowInt64MinIsRefused() {
    let error = #expect(throws: JSONDocumentError.self) {
      try JSONDocument(parsing: "[1, -9223372036854775809]")
    }
    #expect(error?.offset == 4)
    #expect(error?.message.contains("outside the 64-bit range") == true)
  }

  @Test("A long integer far beyond 64 bits is refused")
  func hugeIntegerIsRefused() {
    let error = #expect(throws: JSONDocumentError.self) {
      try JSONDocument(parsing: String(repeating: "9", count: 400))
    }
    #expect(error?.offset == 0)
  }

  @Test("-0 is the integer 0")
  func negativeZeroIsIntegerZero() throws {
    let document = try JSONDocument(parsing: "-0")
    #expect(document == .integer(0))
    #expect(document.int64Value == 0)
    #expect(document.description == "0")
  }

  @Test("-0.0 is a double that keeps its sign and equals 0")
  func negativeZeroDoubleKeepsItsSign() throws {
    let document = try JSONDocument(parsing: "-0.0")
    guard case .number(let value) = document else {
      Issue.record("expected a double, found \(document)")
      return
    }
    #expect(value == 0 && value.sign == .minus)
    #expect(document.int64Value == nil)
    #expect(document == .integer(0))
  }

  @Test("1e3 is a double, whole but not an exact integer")
  func exponentIsDouble() throws {
    let document = try JSONDocument(parsing: "1e3")
    guard case .number(let value) = document else {
      Issue.record("expected a double, found \(document)")
      return
    }
    #expect(value == 1000)
    #expect(document.int64Value == nil)
    #expect(document.doubleValue == 1000)
    #expect(document.isInteger)
    #expect(document == .integer(1000))
  }

  @Test("1.5 is a double")
  func fractionIsDouble() throws {
    let document = try JSONDocument(parsing: "1.5")
    #expect(document == .number(1.5))
    #expect(document.int64Value == nil)
    #expect(document.doubleValue == 1.5)
    #expect(!document.isInteger)
    #expect(document.description == "1.5")
  }

  @Test("2.0 is a double, not the integer 2, though it equals it")
  func wholeFractionIsDouble() throws {
    let document = try JSONDocument(parsing: "2.0")
    guard case .number = document else {
      Issue.record("expected a double, found \(document)")
      return
    }
    #expect(document.int64Value == nil)
    #expect(document == .integer(2))
  }

  @Test("A double too large for a double is refused, not infinity")
  func infiniteDoubleIsRefused() {
    let error = #expect(throws: JSONDocumentError.self) {
      try JSONDocument(parsing: "[1e400]")
    }
    #expect(error?.offset == 1)
    #expect(error?.message == "a number that does not fit a double")
  }

  @Test("A tiny double underflows to 0 as doubles do")
  func tinyDoubleUnderflows() throws {
    #expect(try JSONDocument(parsing: "1e-400") == .number(0))
  }

  @Test("Equal numbers hash alike, whichever case holds them")
  func equalNumbersHashAlike() throws {
    let values: Set<JSONDocument> = [.integer(3), .number(3), .unsignedInteger(3)]
    #expect(values.count == 1)
    let big: Set<JSONDocument> = [
      .integer(9_007_199_254_740_993), .number(9_007_199_254_740_992),
    ]
    #expect(big.count == 2)
    #expect(JSONDocument.number(0x1p63) == .unsignedInteger(9_223_372_036_854_775_808))
  }

  @Test("Booleans and strings are not numbers")
  func booleansAndStringsAreNotIntegers() throws {
    #expect(try JSONDocument(parsing: "true").int64Value == nil)
    #expect(try JSONDocument(parsing: #""1""#).int64Value == nil)
    #expect(try JSONDocument(parsing: "true").doubleValue == nil)
    #expect(try JSONDocument(parsing: "true") != .integer(1))
  }

  @Test("Numbers inside objects and arrays keep their cases")
  func nestedNumbersKeepTheirCases() throws {
    let document = try JSONDocument(
      parsing: #"{"key": {"integer": 9007199254740993}, "path": ["a", 2], "real": 0.5}"#)
    #expect(document["key"]?["integer"]?.int64Value == 9_007_199_254_740_993)
    guard case .array(let path)? = document["path"] else {
      Issue.record("expected an array")
      return
    }
    #expect(path.last?.int64Value == 2)
    #expect(document["real"]?.doubleValue == 0.5)
    #expect(document["path"]?.stringValue == nil)
  }
}
