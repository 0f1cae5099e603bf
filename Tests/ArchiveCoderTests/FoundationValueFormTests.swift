import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// The Foundation value forms the harness coder reads, from real archives written on macOS and
/// from archives that Foundation on Linux writes.
@Suite("Foundation value forms: real and Foundation-written archives")
struct FoundationValueFormTests {
  static let decoder = HarnessDecoder(
    registry: ClassRegistry(platformClasses: PlatformClass.allCases))

  /// Decodes a corpus archive on both harness paths and returns the two root objects.
  func decodeCorpus(
    _ path: String, allowed: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [AnyObject] {
    let bytes = try Corpus.bytes(path)
    var objects: [AnyObject] = []
    for secure in [false, true] {
      let result = Self.decoder.decode(bytes, secure: secure, allowedClasses: allowed)
      objects.append(
        try #require(
          result.object, "\(secure ? "secure" : "legacy"): \(result.outcome)",
          sourceLocation: sourceLocation))
    }
    return objects
  }

  @Test("NSValue's range form with referenced integers reads as its range")
  func rangeFromRealArchive() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/NSKeyedUnarchiver-RangeTest.plist", allowed: ["NSValue"])
    {
      let value = try #require(object as? NSValue)
      #expect(value.rangeValue == NSRange(location: 97345, length: 98345))
    }
  }

  // macOS and corelibs only: iOS Foundation has no geometry NSValue forms.
  #if os(macOS) || !canImport(Darwin)
    @Test("NSValue's rect string reads as its rect")
    func rectFromRealArchive() throws {
      for object in try decodeCorpus(
        "swift-corelibs-foundation/NSKeyedUnarchiver-RectTest.plist", allowed: ["NSValue"])
      {
        let value = try #require(object as? NSValue)
        #expect(value.rectValue == CGRect(x: 400, y: 300, width: 200, height: 300))
      }
    }

    @Test("NSValue's edge insets read as their four sides")
    func edgeInsetsFromRealArchive() throws {
      for object in try decodeCorpus(
        "swift-corelibs-foundation/NSKeyedUnarchiver-EdgeInsetsTest.plist", allowed: ["NSValue"])
      {
        let insets = try #require(object as? NSValue).edgeInsetsValue
        #expect([insets.top, insets.left, insets.bottom, insets.right] == [1, 2, 3, 4])
      }
    }
  #endif

  @Test("NSIndexSet's LEB128 range data reads as its four ranges, the last ending at NSNotFound")
  func indexSetFromRealArchive() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/macOS-10.14/NSIndexSet-ManyRanges.archive",
      allowed: ["NSIndexSet"])
    {
      let set = try #require(object as? NSIndexSet)
      var ranges: [NSRange] = []
      set.enumerateRanges(options: []) { range, _ in ranges.append(range) }
      #expect(ranges.count == 4)
      #expect(ranges.first == NSRange(location: 0, length: 50))
      #expect(ranges.last.map { $0.location + $0.length } == Int.max)
    }
  }

  @Test("NSIndexPath's LEB128 data reads as its six indexes")
  func indexPathFromRealArchive() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/macOS-10.14/NSIndexPath-ManyIndices.archive",
      allowed: ["NSIndexPath"])
    {
      let path = try #require(object as? NSIndexPath)
      #expect((0..<path.length).map { path.index(atPosition: $0) } == [4, 8, 15, 16, 23, 42])
    }
  }

  @Test("NSCountedSet reads each element with its count")
  func countedSetFromRealArchive() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/macOS-10.14/NSCountedSet-NumbersAppearingSeveralTimes.archive",
      allowed: ["NSCountedSet"])
    {
      let set = try #require(object as? NSCountedSet)
      #expect(set.count == 5)
      #expect(set.count(for: NSNumber(value: 3)) == 5)
    }
  }

  @Test("NSAttributedString's runs read onto the right characters")
  func attributedStringFromRealArchive() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/macOS-10.14/NSAttributedString.archive",
      allowed: ["NSAttributedString"])
    {
      let string = try #require(object as? NSAttributedString)
      #expect(string.string == "0123456789")
      #expect(string.attributes(at: 0, effectiveRange: nil).isEmpty)
      let second = string.attributes(at: 1, effectiveRange: nil)
      #expect(second[NSAttributedString.Key("Font")] as? String == "Helvetica")
      let third = string.attributes(at: 2, effectiveRange: nil)
      #expect(third[NSAttributedString.Key("Font")] as? String == "Times")
      let fourth = string.attributes(at: 6, effectiveRange: nil)
      #expect(fourth[NSAttributedString.Key("Font")] as? String == "Helvetica")
    }
  }

  @Test("NSMeasurement reads its value and its unit's symbol and converter")
  func measurementFromRealArchive() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/macOS-10.14/NSMeasurement-Length.archive",
      allowed: ["NSMeasurement"])
    {
      let measurement = try #require(object as? NSMeasurement)
      #expect(measurement.doubleValue == 45)
      let unit = try #require(measurement.unit as? UnitLength)
      #expect(unit.symbol == "mi")
      #expect((unit.converter as? UnitConverterLinear)?.coefficient == 1609.34)
    }
  }

  @Test("NSDecimalNumber reads its little-endian mantissa words, exponent and sign")
  func decimalNumberFromArchivedFields() throws {
    // Foundation on Linux cannot archive an NSDecimalNumber (its hash recurses until the stack
    // ends), so the form is built here with the keys Foundation writes: 12345678e-4, negative.
    var mantissa: [UInt8] = [0x4E, 0x61, 0xBC, 0x00]
    mantissa += [UInt8](repeating: 0, count: 12)
    var archive = TestArchive()
    let root = archive.object(
      ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
      [
        ("NS.exponent", .integer(-4)), ("NS.length", .integer(2)), ("NS.negative", .bool(true)),
        ("NS.compact", .bool(true)), ("NS.bo", .integer(1)), ("NS.mantissa", .data(mantissa)),
      ])
    let bytes = archive.bytes(root: root)
    for secure in [false, true] {
      let result = Self.decoder.decode(bytes, secure: secure, allowedClasses: ["NSDecimalNumber"])
      let number = try #require(result.object as? NSDecimalNumber, "\(result.outcome)")
      #expect(number == NSDecimalNumber(string: "-1234.5678"))
    }
  }

  @Test("NSError reads its domain, code and string-keyed user info")
  func errorFromArchivedFields() throws {
    // Foundation on Linux cannot archive an NSError (its hash recurses), so the form is built
    // here with the keys Foundation writes.
    var archive = TestArchive()
    let userInfo = archive.dictionary([("reason", archive.string("test"))])
    let root = archive.object(
      ["NSError", "NSObject"],
      [("NSDomain", archive.string("example")), ("NSCode", .integer(42)), ("NSUserInfo", userInfo)])
    let bytes = archive.bytes(root: root)
    for secure in [false, true] {
      let result = Self.decoder.decode(bytes, secure: secure, allowedClasses: ["NSError"])
      let error = try #require(result.object as? NSError, "\(result.outcome)")
      #expect(error.domain == "example")
      #expect(error.code == 42)
      #expect(error.userInfo["reason"] as? String == "test")
    }
  }

  /// A Foundation object that Foundation on Linux archives, with the allowed classes its read
  /// names.
  struct WrittenCase: CustomTestStringConvertible, Sendable {
    let name: String
    let allowed: [String]
    let make: @Sendable () -> NSObject

    var testDescription: String { name }
  }

  /// The geometry NSValue forms, which only macOS and corelibs Foundation make.
  static let geometryCases: [WrittenCase] = {
    #if os(macOS) || !canImport(Darwin)
      [
        WrittenCase(name: "NSValue point", allowed: ["NSValue"]) {
          NSValue(point: CGPoint(x: 1.5, y: -2))
        },
        WrittenCase(name: "NSValue size", allowed: ["NSValue"]) {
          NSValue(size: CGSize(width: 320, height: 480))
        },
        WrittenCase(name: "NSValue rect", allowed: ["NSValue"]) {
          NSValue(rect: CGRect(x: 0, y: 20, width: 320, height: 460))
        },
      ]
    #else
      []
    #endif
  }()

  static let writtenCases: [WrittenCase] =
    [
      WrittenCase(name: "NSValue range", allowed: ["NSValue"]) {
        NSValue(range: NSRange(location: 3, length: 7))
      }
    ] + geometryCases + otherWrittenCases

  static let otherWrittenCases: [WrittenCase] = [
    WrittenCase(name: "NSIndexSet", allowed: ["NSIndexSet"]) {
      let set = NSMutableIndexSet(indexesIn: NSRange(location: 2, length: 3))
      set.add(in: NSRange(location: 300, length: 1))
      return NSIndexSet(indexSet: set as IndexSet)
    },
    WrittenCase(name: "NSIndexPath", allowed: ["NSIndexPath"]) {
      NSIndexPath(indexes: [1, 200, 3], length: 3)
    },
    WrittenCase(name: "NSCountedSet", allowed: ["NSCountedSet"]) {
      NSCountedSet(array: ["a", "b", "a"])
    },
    WrittenCase(name: "NSAttributedString", allowed: ["NSAttributedString"]) {
      let string = NSMutableAttributedString(string: "Hello")
      string.addAttribute(
        NSAttributedString.Key("weight"), value: NSNumber(value: 7),
        range: NSRange(location: 1, length: 2))
      return NSAttributedString(attributedString: string)
    },
    WrittenCase(name: "NSLocale", allowed: ["NSLocale"]) { NSLocale(localeIdentifier: "fr_FR") },
    WrittenCase(name: "NSTimeZone", allowed: ["NSTimeZone"]) {
      NSTimeZone(name: "Europe/Paris") ?? NSTimeZone(forSecondsFromGMT: 3600)
    },
    WrittenCase(name: "NSDateComponents", allowed: ["NSDateComponents"]) {
      let components = NSDateComponents()
      components.year = 2024
      components.month = 2
      components.day = 29
      return components
    },
    WrittenCase(name: "NSPersonNameComponents", allowed: ["NSPersonNameComponents"]) {
      let name = NSPersonNameComponents()
      name.givenName = "Ada"
      name.familyName = "Lovelace"
      return name
    },
    WrittenCase(name: "NSMeasurement", allowed: ["NSMeasurement"]) {
      NSMeasurement(doubleValue: 5, unit: UnitLength.kilometers)
    },
  ]

  @Test(
    "A value that Foundation on Linux archives decodes on both paths to an equal value",
    arguments: writtenCases)
  func foundationWrittenValue(_ written: WrittenCase) throws {
    let original = written.make()
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(original, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    let bytes = [UInt8](archiver.encodedData)
    var describer = ObjectDescriber()
    let expected = describer.describe(original)
    for secure in [false, true] {
      let outcome = Self.decoder.decode(bytes, secure: secure, allowedClasses: written.allowed)
        .outcome
      #expect(outcome.decodedValue == expected, "\(secure ? "secure" : "legacy"): \(outcome)")
    }
  }
}
