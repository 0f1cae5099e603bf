import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// The formatters, regular expressions and their matches, notifications, affine transforms and
/// generic values the harness coder reads, from the real archives in the corpus.
@Suite("Foundation value forms: formatters, matches, notifications and typed values")
struct FormatterAndMatchValueFormTests {
  static let decoder = HarnessDecoder(
    registry: ClassRegistry(platformClasses: PlatformClass.allCases))

  /// Decodes a corpus archive on the given harness paths and returns the root objects.
  func decodeCorpus(
    _ path: String, allowed: [String], secureToo: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [AnyObject] {
    let bytes = try Corpus.bytes(path)
    var objects: [AnyObject] = []
    for secure in secureToo ? [false, true] : [false] {
      let result = Self.decoder.decode(bytes, secure: secure, allowedClasses: allowed)
      objects.append(
        try #require(
          result.object, "\(secure ? "secure" : "legacy"): \(result.outcome)",
          sourceLocation: sourceLocation))
    }
    return objects
  }

  /// The secure read's refusal of a corpus archive.
  func secureRefusal(_ path: String, allowed: [String]) throws -> DecodeRejection? {
    Self.decoder.decode(try Corpus.bytes(path), secure: true, allowedClasses: allowed)
      .outcome.rejection
  }

  @Test("A generic NSValue holding a C array of three ints reads as those ints")
  func typedArrayValue() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/NSKeyedUnarchiver-ConcreteValueTest.plist", allowed: ["NSValue"])
    {
      let value = try #require(object as? NSValue)
      #expect(String(cString: value.objCType) == "[3i]")
      var integers: [Int32] = [0, 0, 0]
      integers.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress { value.getValue(base) }
      }
      #expect(integers == [1, 2, 3])
    }
  }

  // macOS and corelibs only: NSAffineTransform is not in iOS Foundation.
  #if os(macOS) || !canImport(Darwin)
    @Test("NSAffineTransform reads its six big-endian floats from NSTransformStruct")
    func affineTransform() throws {
      for object in try decodeCorpus(
        "michaelwright235-nskeyedunarchiver/NSAffineTransform.plist", allowed: ["NSAffineTransform"]
      ) {
        let matrix = try #require(object as? NSAffineTransform).transformStruct
        #expect(abs(matrix.m11 - 0.963_630) < 1e-5)
        #expect(abs(matrix.m12 - 0.267_238) < 1e-5)
        #expect(abs(matrix.m21 + 0.267_238) < 1e-5)
        #expect(abs(matrix.m22 - 0.963_630) < 1e-5)
        #expect(matrix.tX == 0 && matrix.tY == 0)
      }
    }
  #endif

  @Test("NSByteCountFormatter reads every field, the no-keys in the reverse sense")
  func byteCountFormatter() throws {
    let path = "swift-corelibs-foundation/macOS-10.14/ByteCountFormatter-AllFieldsSet.archive"
    let objects = try decodeCorpus(path, allowed: ["NSByteCountFormatter"], secureToo: false)
    let formatter = try #require(objects.first as? ByteCountFormatter)
    #expect(formatter.allowedUnits.rawValue == 3)
    #expect(formatter.countStyle == .decimal)
    #expect(formatter.formattingContext == .beginningOfSentence)
    #expect(formatter.zeroPadsFractionDigits)
    #expect(!formatter.allowsNonnumericFormatting)
    #expect(!formatter.includesUnit && !formatter.includesCount && !formatter.isAdaptive)
  }

  @Test("NSByteCountFormatter adopts NSCoding only, so the secure read refuses it")
  func byteCountFormatterIsNotSecure() throws {
    let rejection = try secureRefusal(
      "swift-corelibs-foundation/macOS-10.14/ByteCountFormatter-Default.archive",
      allowed: ["NSByteCountFormatter"])
    #expect(rejection?.category == .notSecureCoding)
  }

  @Test("NSISO8601DateFormatter reads its options and time zone")
  func iso8601DateFormatter() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/macOS-10.14/ISO8601DateFormatter-OptionsSet.archive",
      allowed: ["NSISO8601DateFormatter", "NSTimeZone", "NSMutableData"])
    {
      let formatter = try #require(object as? ISO8601DateFormatter)
      #expect(formatter.formatOptions.rawValue == 1366)
      #expect(formatter.timeZone.identifier == "GMT")
    }
  }

  @Test("NSDateIntervalFormatter reads its template, locale and time zone")
  func dateIntervalFormatter() throws {
    let path =
      "swift-corelibs-foundation/macOS-10.14/DateIntervalFormatter-ValuesSetWithTemplate.archive"
    let objects = try decodeCorpus(path, allowed: ["NSDateIntervalFormatter"], secureToo: false)
    let formatter = try #require(objects.first as? DateIntervalFormatter)
    #expect(formatter.dateTemplate == "dd mm yyyy HH:MM")
    #expect(formatter.locale.identifier == "ja-JP")
    #expect(formatter.timeZone.identifier == "GMT+0100")
    #expect(formatter.calendar.identifier == .gregorian)
  }

  @Test("A simple regular-expression match reads its pattern and range")
  func simpleMatch() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/macOS-10.14/NSTextCheckingResult-SimpleRegex.archive",
      allowed: [
        "NSSimpleRegularExpressionCheckingResult", "NSRegularExpression", "NSMutableArray",
        "NSValue",
      ])
    {
      let match = try #require(object as? NSTextCheckingResult)
      #expect(match.regularExpression?.pattern == "aaa")
      #expect(match.numberOfRanges == 1)
      #expect(match.range == NSRange(location: 0, length: 3))
    }
  }

  @Test("A complex regular-expression match reads its nine capture ranges in order")
  func complexMatch() throws {
    for object in try decodeCorpus(
      "swift-corelibs-foundation/macOS-10.14/NSTextCheckingResult-ComplexRegex.archive",
      allowed: [
        "NSComplexRegularExpressionCheckingResult", "NSRegularExpression", "NSArray", "NSValue",
      ])
    {
      let match = try #require(object as? NSTextCheckingResult)
      #expect(match.numberOfRanges == 9)
      #expect((0..<9).map { match.range(at: $0).location } == Array(0..<9))
      #expect(
        NSStringFromClass(type(of: match)).hasSuffix("NSComplexRegularExpressionCheckingResult"))
    }
  }

  @Test("NSNotification reads its name, object and user info")
  func notification() throws {
    let path = "swift-corelibs-foundation/NSKeyedUnarchiver-NotificationTest.plist"
    let objects = try decodeCorpus(
      path, allowed: ["NSNotification", "NSDictionary"], secureToo: false)
    let notification = try #require(objects.first as? NSNotification)
    #expect(notification.name.rawValue == "notification-name")
    #expect((notification.object as? NSString) == "notification-object")
    #expect(notification.userInfo?.count == 1)
  }

  @Test("NSNotification adopts NSCoding only, so the secure read refuses it")
  func notificationIsNotSecure() throws {
    let rejection = try secureRefusal(
      "swift-corelibs-foundation/NSKeyedUnarchiver-NotificationTest.plist",
      allowed: ["NSNotification", "NSDictionary"])
    #expect(rejection?.category == .notSecureCoding)
  }
}
