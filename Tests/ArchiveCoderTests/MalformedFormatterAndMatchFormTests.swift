import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// Malformed archived forms of the formatters, regular expressions and their matches,
/// notifications, affine transforms and generic values: each is refused with a category and the
/// key path of the field at fault, never a trap.
@Suite("Foundation value forms: malformed formatters, matches and typed values")
struct MalformedFormatterAndMatchFormTests {
  static let decoder = HarnessDecoder(registry: ClassRegistry())

  /// Decodes an archive whose root is one object of `className` with `fields` on both paths, and
  /// checks that both refuse it alike.
  func refusal(
    _ className: String, _ fields: [(String, PropertyListValue)], allowed: [String]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    build: (inout TestArchive) -> [(String, PropertyListValue)] = { _ in [] }
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

  /// The legacy read's refusal, for a class the secure read refuses as not secure coding.
  func legacyRefusal(
    _ className: String, _ fields: [(String, PropertyListValue)],
    build: (inout TestArchive) -> [(String, PropertyListValue)] = { _ in [] }
  ) -> DecodeRejection? {
    var archive = TestArchive()
    let extra = build(&archive)
    let root = archive.object([className, "NSFormatter", "NSObject"], fields + extra)
    return Self.decoder.decode(archive.bytes(root: root), secure: false, allowedClasses: [])
      .outcome.rejection
  }

  /// An `_NSKeyedCoderOldStyleArray` holder with the given fields.
  static func holder(_ archive: inout TestArchive, _ fields: [(String, PropertyListValue)])
    -> PropertyListValue
  {
    archive.object(["_NSKeyedCoderOldStyleArray", "NSObject"], fields)
  }

  static let threeInts: [(String, PropertyListValue)] = [
    ("NS.count", .integer(3)), ("NS.size", .integer(4)), ("NS.type", .integer(105)),
    ("$0", .integer(1)), ("$1", .integer(2)), ("$2", .integer(3)),
  ]

  // MARK: - Generic NSValue

  @Test("A generic NSValue whose $0 is not a string is a type mismatch at $0")
  func typedValueEncodingOfWrongType() {
    let rejection = refusal("NSValue", [("$0", .integer(7)), ("$1", .integer(1))])
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.$0")
  }

  @Test("A generic NSValue holding a struct encoding is malformed at $0")
  func typedValueStructEncoding() {
    let rejection = refusal("NSValue", [("$1", .integer(1))]) { archive in
      [("$0", archive.string("{CGPoint=dd}"))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.$0")
  }

  @Test("A generic NSValue whose C array is longer than the reader's limit is malformed at $0")
  func typedValueOversizedArray() {
    let rejection = refusal("NSValue", []) { archive in
      [("$0", archive.string("[100000i]")), ("$1", Self.holder(&archive, Self.threeInts))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.$0")
  }

  @Test("A generic NSValue without $1 is refused as missing at $1")
  func typedValueWithoutValue() {
    let rejection = refusal("NSValue", []) { archive in [("$0", archive.string("i"))] }
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.$1")
  }

  @Test("A generic NSValue whose int is a string is a type mismatch at $1")
  func typedValueScalarOfWrongType() {
    let rejection = refusal("NSValue", [("$1", .string("one"))]) { archive in
      [("$0", archive.string("i"))]
    }
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.$1")
  }

  @Test("A generic NSValue whose char does not fit in 8 bits is out of range at $1")
  func typedValueScalarOutOfRange() {
    let rejection = refusal("NSValue", [("$1", .integer(300))]) { archive in
      [("$0", archive.string("c"))]
    }
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.$1")
  }

  @Test("A C array value inline instead of in its holder is a type mismatch at $1")
  func typedValueArrayNotInHolder() {
    let rejection = refusal("NSValue", [("$1", .integer(1))]) { archive in
      [("$0", archive.string("[3i]"))]
    }
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.$1")
  }

  @Test("A C array whose holder counts other elements than its encoding is malformed")
  func typedValueCountMismatch() {
    let rejection = refusal("NSValue", []) { archive in
      [("$0", archive.string("[2i]")), ("$1", Self.holder(&archive, Self.threeInts))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.$1.NS.count")
  }

  @Test("A C array whose holder gives another element size is malformed at NS.size")
  func typedValueSizeMismatch() {
    var fields = Self.threeInts
    fields[1] = ("NS.size", .integer(8))
    let rejection = refusal("NSValue", []) { archive in
      [("$0", archive.string("[3i]")), ("$1", Self.holder(&archive, fields))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.$1.NS.size")
  }

  @Test("A C array whose holder lacks an element is refused as missing at that element")
  func typedValueMissingElement() {
    let fields = Self.threeInts.filter { $0.0 != "$2" }
    let rejection = refusal("NSValue", []) { archive in
      [("$0", archive.string("[3i]")), ("$1", Self.holder(&archive, fields))]
    }
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.$1.$2")
  }

  // MARK: - NSAffineTransform

  @Test("An NSAffineTransform matrix of 20 bytes is malformed at NSTransformStruct")
  func affineTransformWrongLength() {
    let rejection = refusal(
      "NSAffineTransform", [("NSTransformStruct", .data(Array(repeating: 0, count: 20)))])
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NSTransformStruct")
  }

  @Test("An NSAffineTransform matrix that is a string is a type mismatch")
  func affineTransformOfWrongType() {
    let rejection = refusal("NSAffineTransform", [("NSTransformStruct", .string("1 0 0 1 0 0"))])
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NSTransformStruct")
  }

  // MARK: - Formatters

  @Test("An NSByteCountFormatter count style past binary is out of range at NSKBSize")
  func byteCountStyleOutOfRange() {
    let rejection = legacyRefusal("NSByteCountFormatter", [("NSKBSize", .integer(9))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSKBSize")
  }

  @Test("An NSByteCountFormatter whose units are a string is a type mismatch at NSUnits")
  func byteCountUnitsOfWrongType() {
    let rejection = legacyRefusal("NSByteCountFormatter", [("NSUnits", .string("KB"))])
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NSUnits")
  }

  @Test("NSISO8601DateFormatter options past the known bits are out of range")
  func iso8601OptionsOutOfRange() {
    let rejection = refusal("NSISO8601DateFormatter", [("NS.formatOptions", .integer(1 << 20))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NS.formatOptions")
  }

  @Test("An NSISO8601DateFormatter time zone that is a date is refused at NS.timeZone")
  func iso8601TimeZoneOfWrongClass() {
    var archive = TestArchive()
    let date = archive.object(["NSDate", "NSObject"], [("NS.time", .real(0))])
    let root = archive.object(
      ["NSISO8601DateFormatter", "NSFormatter", "NSObject"], [("NS.timeZone", date)])
    let bytes = archive.bytes(root: root)
    let allowed = ["NSISO8601DateFormatter"]
    let legacy = Self.decoder.decode(bytes, secure: false, allowedClasses: allowed)
      .outcome.rejection
    let secure = Self.decoder.decode(bytes, secure: true, allowedClasses: allowed)
      .outcome.rejection
    // The legacy read builds the date and finds it is not a time zone; the secure read
    // refuses the date's class before building it, as decodeObject(of:forKey:) does.
    #expect(legacy?.category == .typeMismatch)
    #expect(secure?.category == .classNotAllowed)
    #expect(legacy?.keyPath == "root.NS.timeZone")
    #expect(secure?.keyPath == "root.NS.timeZone")
  }

  @Test("An NSDateIntervalFormatter date style past full is out of range at NS.dateStyle")
  func dateIntervalStyleOutOfRange() {
    let rejection = legacyRefusal("NSDateIntervalFormatter", [("NS.dateStyle", .integer(7))])
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NS.dateStyle")
  }

  @Test("An NSDateIntervalFormatter template longer than the reader's limit is refused")
  func dateIntervalTemplateOversized() {
    let rejection = legacyRefusal("NSDateIntervalFormatter", []) { archive in
      [("NS.dateTemplate", archive.string(String(repeating: "y", count: 5000)))]
    }
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NS.dateTemplate")
  }

  // MARK: - NSRegularExpression and its matches

  @Test("An NSRegularExpression without NSPattern is refused as missing")
  func regularExpressionWithoutPattern() {
    let rejection = refusal("NSRegularExpression", [("NSOptions", .integer(0))])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NSPattern")
  }

  @Test("An NSRegularExpression whose pattern does not compile is malformed at NSPattern")
  func regularExpressionInvalidPattern() {
    let rejection = refusal("NSRegularExpression", []) { archive in
      [("NSPattern", archive.string("a(b"))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NSPattern")
  }

  @Test("NSRegularExpression options past the known bits are out of range at NSOptions")
  func regularExpressionOptionsOutOfRange() {
    let rejection = refusal("NSRegularExpression", [("NSOptions", .integer(256))]) { archive in
      [("NSPattern", archive.string("a"))]
    }
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSOptions")
  }

  @Test("An NSRegularExpression pattern longer than the reader's limit is refused")
  func regularExpressionPatternOversized() {
    let rejection = refusal("NSRegularExpression", []) { archive in
      [("NSPattern", archive.string(String(repeating: "a", count: 70_000)))]
    }
    #expect(rejection?.category == .limitExceeded)
    #expect(rejection?.keyPath == "root.NSPattern")
  }

  static let simpleMatch = "NSSimpleRegularExpressionCheckingResult"
  static let matchClasses = [simpleMatch, "NSRegularExpression", "NSArray", "NSValue"]

  static func expression(_ archive: inout TestArchive) -> PropertyListValue {
    let pattern = archive.string("a")
    return archive.object(["NSRegularExpression", "NSObject"], [("NSPattern", pattern)])
  }

  static func range(_ archive: inout TestArchive, _ location: Int64, _ length: Int64)
    -> PropertyListValue
  {
    archive.object(
      ["NSValue", "NSObject"],
      [
        ("NS.special", .integer(4)), ("NS.rangeval.location", .integer(location)),
        ("NS.rangeval.length", .integer(length)),
      ])
  }

  @Test("A match without NSRangeArray is refused as missing")
  func matchWithoutRanges() {
    let rejection = refusal(Self.simpleMatch, [], allowed: Self.matchClasses) { archive in
      [("NSRegularExpression", Self.expression(&archive))]
    }
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NSRangeArray")
  }

  @Test("A match without NSRegularExpression is refused as missing")
  func matchWithoutExpression() {
    let rejection = refusal(Self.simpleMatch, [], allowed: Self.matchClasses) { archive in
      [("NSRangeArray", archive.array([Self.range(&archive, 0, 1)]))]
    }
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NSRegularExpression")
  }

  @Test("A match with no ranges is malformed at NSRangeArray")
  func matchWithEmptyRanges() {
    let rejection = refusal(Self.simpleMatch, [], allowed: Self.matchClasses) { archive in
      [("NSRegularExpression", Self.expression(&archive)), ("NSRangeArray", archive.array([]))]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NSRangeArray")
  }

  @Test("A match whose range is a point value is a type mismatch at that range")
  func matchRangeOfWrongKind() {
    let rejection = refusal(Self.simpleMatch, [], allowed: Self.matchClasses) { archive in
      let point = archive.object(
        ["NSValue", "NSObject"],
        [("NS.special", .integer(1)), ("NS.pointval", archive.string("{1, 2}"))])
      return [
        ("NSRegularExpression", Self.expression(&archive)),
        ("NSRangeArray", archive.array([point])),
      ]
    }
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NSRangeArray[0]")
  }

  @Test("A complex match class holding one range is malformed at NSRangeArray")
  func matchClassDisagreesWithCount() {
    let complex = "NSComplexRegularExpressionCheckingResult"
    let rejection = refusal(
      complex, [], allowed: [complex, "NSRegularExpression", "NSArray", "NSValue"]
    ) { archive in
      [
        ("NSRegularExpression", Self.expression(&archive)),
        ("NSRangeArray", archive.array([Self.range(&archive, 0, 1)])),
      ]
    }
    #expect(rejection?.category == .malformed)
    #expect(rejection?.keyPath == "root.NSRangeArray")
  }

  // MARK: - NSNotification

  @Test("An NSNotification without NS.name is refused as missing")
  func notificationWithoutName() {
    let rejection = legacyRefusal("NSNotification", [])
    #expect(rejection?.category == .missingField)
    #expect(rejection?.keyPath == "root.NS.name")
  }

  @Test("An NSNotification whose user info is an array is a type mismatch at NS.userinfo")
  func notificationUserInfoOfWrongClass() {
    let rejection = legacyRefusal("NSNotification", []) { archive in
      [("NS.name", archive.string("changed")), ("NS.userinfo", archive.array([]))]
    }
    #expect(rejection?.category == .typeMismatch)
    #expect(rejection?.keyPath == "root.NS.userinfo")
  }
}
