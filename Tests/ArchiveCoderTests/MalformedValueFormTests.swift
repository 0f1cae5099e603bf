import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// Malformed archived forms of the Foundation value classes and stand-ins: each is refused on
/// both harness paths with a category and the key path of the field at fault, never a trap.
@Suite("Foundation value forms and stand-ins: malformed forms")
struct MalformedValueFormTests {
  static let decoder = HarnessDecoder(
    registry: ClassRegistry(platformClasses: PlatformClass.allCases))

  /// Decodes an archive whose root is one object of `className` with `fields`, on both paths,
  /// and checks that both refuse it alike.
  func refusal(
    _ className: String, _ fields: [(String, PropertyListValue)],
    build: (inout TestArchive) -> [(String, PropertyListValue)] = { _ in [] },
    allowed: [String]? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> DecodeRejection? {
    var archive = TestArchive()
    let extra = build(&archive)
    let root = archive.object([className, "NSObject"], fields + extra)
    let bytes = archive.bytes(root: root)
    let legacy = Self.decoder.decode(bytes, secure: false, allowedClasses: allowed ?? [className])
      .outcome.rejection
    let secure = Self.decoder.decode(bytes, secure: true, allowedClasses: allowed ?? [className])
      .outcome.rejection
    #expect(legacy?.category == secure?.category, sourceLocation: sourceLocation)
    #expect(legacy?.keyPath == secure?.keyPath, sourceLocation: sourceLocation)
    return secure
  }

  // MARK: - NSValue

  @Test("An NSValue whose NS.special is a string is a type mismatch at NS.special")
  func valueSpecialOfWrongType() {
    let rejection = refusal("NSValue", [("NS.special", .string("4"))])
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NS.special")
  }

  @Test("An NSValue without NS.special is refused as missing")
  func valueWithoutSpecial() {
    let rejection = refusal("NSValue", [("NS.rangeval.length", .integer(1))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NS.special")
  }

  @Test("An NSValue with an unknown NS.special code is malformed")
  func valueUnknownSpecial() {
    let rejection = refusal("NSValue", [("NS.special", .integer(99))])
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NS.special")
  }

  @Test("An NSValue range without its length is refused at NS.rangeval.length")
  func valueRangeWithoutLength() {
    let rejection = refusal(
      "NSValue", [("NS.special", .integer(4)), ("NS.rangeval.location", .integer(1))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NS.rangeval.length")
  }

  @Test("An NSValue range with a negative location is out of range")
  func valueRangeNegativeLocation() {
    let rejection = refusal(
      "NSValue",
      [
        ("NS.special", .integer(4)), ("NS.rangeval.location", .integer(-1)),
        ("NS.rangeval.length", .integer(1)),
      ])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NS.rangeval.location")
  }

  @Test("An NSValue point string that is not {x, y} is malformed at NS.pointval")
  func valuePointStringMalformed() {
    let rejection = refusal("NSValue", [("NS.special", .integer(1))]) { archive in
      [("NS.pointval", archive.string("{1; 2}"))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NS.pointval")
  }

  @Test("An NSValue rect string longer than the reader's limit is refused")
  func valueRectStringOversized() {
    let rejection = refusal("NSValue", [("NS.special", .integer(3))]) { archive in
      [("NS.rectval", archive.string("{{" + String(repeating: "1", count: 300) + ", 0}, {1, 1}}"))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NS.rectval")
  }

  // MARK: - NSIndexSet and NSIndexPath

  @Test("An NSIndexSet of several ranges without NSRangeData is refused as missing")
  func indexSetWithoutRangeData() {
    let rejection = refusal("NSIndexSet", [("NSRangeCount", .integer(3))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NSRangeData")
  }

  @Test("An NSIndexSet declaring more ranges than its data can hold is refused before reading")
  func indexSetCountPastData() {
    let rejection = refusal(
      "NSIndexSet", [("NSRangeCount", .integer(1 << 40)), ("NSRangeData", .data([1, 2, 3, 4]))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSRangeData")
  }

  @Test("An NSIndexSet whose NSRangeData is a string is a type mismatch")
  func indexSetRangeDataOfWrongType() {
    let rejection = refusal("NSIndexSet", [("NSRangeCount", .integer(2))]) { archive in
      [("NSRangeData", archive.string("0 1 2 3"))]
    }
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NSRangeData")
  }

  @Test("An NSIndexSet whose range data ends inside an integer is malformed")
  func indexSetTruncatedRangeData() {
    let rejection = refusal(
      "NSIndexSet", [("NSRangeCount", .integer(2)), ("NSRangeData", .data([1, 2, 3, 0x80]))])
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NSRangeData")
  }

  @Test("An NSIndexSet range that ends past NSNotFound is out of range")
  func indexSetRangePastNotFound() {
    let rejection = refusal(
      "NSIndexSet",
      [
        ("NSRangeCount", .integer(1)), ("NSLocation", .integer(Int64.max - 1)),
        ("NSLength", .integer(5)),
      ])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSLength")
  }

  @Test("An NSIndexPath without NSIndexPathLength is refused as missing")
  func indexPathWithoutLength() {
    let rejection = refusal("NSIndexPath", [("NSIndexPathValue", .integer(3))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NSIndexPathLength")
  }

  @Test("An NSIndexPath longer than its data can hold is refused before reading")
  func indexPathLengthPastData() {
    let rejection = refusal(
      "NSIndexPath",
      [("NSIndexPathLength", .integer(1_000_000)), ("NSIndexPathData", .data([1, 2]))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSIndexPathData")
  }

  // MARK: - NSCountedSet

  @Test("An NSCountedSet whose NS.count exceeds its elements is out of range")
  func countedSetCountPastElements() {
    let rejection = refusal("NSCountedSet", [("NS.count", .integer(1 << 50))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NS.count")
  }

  @Test("An NSCountedSet missing an element's count is refused at that key")
  func countedSetMissingCount() {
    let rejection = refusal(
      "NSCountedSet",
      [("NS.count", .integer(1)), ("NS.object0", .integer(4)), ("NS.other", .integer(0))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NS.count0")
  }

  @Test("An NSCountedSet whose counts add up to millions of copies is refused")
  func countedSetTooManyCopies() {
    let rejection = refusal(
      "NSCountedSet",
      [("NS.count", .integer(1)), ("NS.object0", .integer(4)), ("NS.count0", .integer(1 << 40))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NS.count0")
  }

  // MARK: - NSAttributedString

  @Test("An attributed-string run past the end of the string is refused at NSAttributeInfo")
  func attributedStringRunPastEnd() {
    let rejection = refusal("NSAttributedString", [("NSAttributeInfo", .data([9, 0]))]) {
      archive in
      [
        ("NSString", archive.string("abc")),
        ("NSAttributes", archive.array([archive.dictionary([])])),
      ]
    }
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSAttributeInfo")
  }

  @Test("An attributed-string run naming a missing attribute dictionary is malformed")
  func attributedStringSlotPastAttributes() {
    let rejection = refusal("NSAttributedString", [("NSAttributeInfo", .data([3, 5]))]) {
      archive in
      [
        ("NSString", archive.string("abc")),
        ("NSAttributes", archive.array([archive.dictionary([])])),
      ]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NSAttributeInfo")
  }

  @Test("An attribute value of a class the read does not allow is refused under secure coding")
  func attributedStringValueNotAllowed() throws {
    var archive = TestArchive()
    let value = archive.object(
      ["NSUUID", "NSObject"], [("NS.uuidbytes", .data([UInt8](repeating: 1, count: 16)))])
    let attributes = archive.dictionary([("link", value)])
    let root = archive.object(
      ["NSAttributedString", "NSObject"],
      [("NSString", archive.string("abc")), ("NSAttributes", attributes)])
    let bytes = archive.bytes(root: root)
    let secure = Self.decoder.decode(bytes, secure: true, allowedClasses: ["NSAttributedString"])
    let rejection = try #require(secure.outcome.rejection)
    #expect(rejection.category == .classNotAllowed)
    #expect(rejection.keyPath == "root.NSAttributes[\"link\"]")
    let allowed = Self.decoder.decode(
      bytes, secure: true, allowedClasses: ["NSAttributedString", "NSUUID"])
    #expect(allowed.outcome.decodedValue != nil)
  }

  @Test("An attributed string whose NSAttributes is a string is a type mismatch")
  func attributedStringAttributesOfWrongType() {
    let rejection = refusal("NSAttributedString", []) { archive in
      [("NSString", archive.string("abc")), ("NSAttributes", archive.string("bold"))]
    }
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NSAttributes")
  }

  // MARK: - Numbers, errors, calendars, measurements

  @Test("An NSDecimalNumber mantissa of the wrong size is malformed")
  func decimalMantissaWrongSize() {
    let rejection = refusal(
      "NSDecimalNumber", [("NS.length", .integer(1)), ("NS.mantissa", .data([1, 2, 3]))])
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NS.mantissa")
  }

  @Test("An NSDecimalNumber longer than eight words is out of range")
  func decimalLengthTooLarge() {
    let rejection = refusal(
      "NSDecimalNumber",
      [("NS.length", .integer(9)), ("NS.mantissa", .data([UInt8](repeating: 0, count: 16)))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NS.length")
  }

  @Test("An NSDecimalNumber without NS.mantissa is refused as missing")
  func decimalWithoutMantissa() {
    let rejection = refusal("NSDecimalNumber", [("NS.length", .integer(1))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NS.mantissa")
  }

  @Test("An NSError without NSDomain is refused as missing")
  func errorWithoutDomain() {
    let rejection = refusal("NSError", [("NSCode", .integer(3))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NSDomain")
  }

  @Test("An NSError code beyond 32 bits is out of range")
  func errorCodeTooLarge() {
    let rejection = refusal("NSError", [("NSCode", .integer(1 << 40))]) { archive in
      [("NSDomain", archive.string("example"))]
    }
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSCode")
  }

  @Test("An NSTimeZone with a name no zone has is malformed")
  func timeZoneUnknownName() {
    let rejection = refusal("NSTimeZone", []) { archive in
      [("NS.name", archive.string("Nowhere/Atlantis"))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NS.name")
  }

  @Test("An NSCalendar with an unknown identifier is malformed")
  func calendarUnknownIdentifier() {
    let rejection = refusal("NSCalendar", []) { archive in
      [("NS.identifier", archive.string("martian"))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NS.identifier")
  }

  @Test("An NSCalendar whose first weekday is not a day of the week is out of range")
  func calendarFirstWeekdayOutOfRange() {
    let rejection = refusal("NSCalendar", [("NS.firstwkdy", .integer(9))]) { archive in
      [("NS.identifier", archive.string("gregorian"))]
    }
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NS.firstwkdy")
  }

  @Test("An NSLocale whose identifier is a number is a type mismatch")
  func localeIdentifierOfWrongType() {
    let rejection = refusal("NSLocale", [("NS.identifier", .integer(7))])
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NS.identifier")
  }

  @Test("An NSMeasurement without NS.unit is refused as missing")
  func measurementWithoutUnit() {
    let rejection = refusal("NSMeasurement", [("NS.value", .real(3))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NS.unit")
  }

  @Test("An NSMeasurement whose unit is a string is a type mismatch")
  func measurementUnitOfWrongType() {
    let rejection = refusal("NSMeasurement", [("NS.value", .real(3))]) { archive in
      [("NS.unit", archive.string("km"))]
    }
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NS.unit")
  }

  // MARK: - Stand-ins

  @Test("A UIColor with three components is malformed at UIColorComponentCount")
  func uiColorThreeComponents() {
    let rejection = refusal(
      "UIColor", [("UIColorComponentCount", .integer(3)), ("UIAlpha", .real(1))])
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.UIColorComponentCount")
  }

  @Test("An RGBA UIColor without UIRed is refused as missing")
  func uiColorWithoutRed() {
    let rejection = refusal(
      "UIColor",
      [
        ("UIColorComponentCount", .integer(4)), ("UIGreen", .real(0)), ("UIBlue", .real(0)),
        ("UIAlpha", .real(1)),
      ])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.UIRed")
  }

  @Test("A UIColor whose UIRed is a string is a type mismatch")
  func uiColorRedOfWrongType() {
    let rejection = refusal(
      "UIColor",
      [
        ("UIColorComponentCount", .integer(4)), ("UIRed", .string("red")),
        ("UIGreen", .real(0)), ("UIBlue", .real(0)), ("UIAlpha", .real(1)),
      ])
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.UIRed")
  }

  @Test("An NSColor whose NSRGB is not numbers is malformed")
  func nsColorRGBNotNumbers() {
    let rejection = refusal(
      "NSColor", [("NSColorSpace", .integer(2)), ("NSRGB", .data(Array("red green".utf8)))])
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NSRGB")
  }

  @Test("An NSColor whose NSRGB is longer than the reader's limit is refused")
  func nsColorRGBOversized() {
    let rejection = refusal(
      "NSColor",
      [("NSColorSpace", .integer(2)), ("NSRGB", .data([UInt8](repeating: 0x31, count: 4096)))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSRGB")
  }

  @Test("A CLLocation latitude beyond the poles is out of range")
  func locationLatitudeOutOfRange() {
    let rejection = refusal(
      "CLLocation",
      [
        ("kCLLocationCodingKeyCoordinateLatitude", .real(91)),
        ("kCLLocationCodingKeyCoordinateLongitude", .real(0)),
      ])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.kCLLocationCodingKeyCoordinateLatitude")
  }

  @Test("A CLLocation without a longitude is refused as missing")
  func locationWithoutLongitude() {
    let rejection = refusal("CLLocation", [("kCLLocationCodingKeyCoordinateLatitude", .real(51))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.kCLLocationCodingKeyCoordinateLongitude")
  }

  @Test("A UIFont with no name, system flag or text style is refused as missing")
  func uiFontWithoutName() {
    let rejection = refusal("UIFont", [("UIFontPointSize", .real(12))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.UIFontName")
  }

  @Test("A UIFont point size beyond any font's is out of range")
  func uiFontPointSizeTooLarge() {
    let rejection = refusal(
      "UIFont", [("UISystemFont", .bool(true)), ("UIFontPointSize", .real(1e12))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.UIFontPointSize")
  }

  @Test("An NSImage size that is not a size string is malformed")
  func nsImageSizeMalformed() {
    let rejection = refusal("NSImage", []) { archive in [("NSSize", archive.string("32x32"))] }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NSSize")
  }
}
