import ArchiveFormat
import Foundation

// NSRegularExpression, its match results and NSNotification, read with the keys Foundation
// writes: `NSPattern` and `NSOptions`; `NSRangeLocation`, `NSRangeLength`,
// `NSRegularExpression` and `NSRangeArray` (an array of range values); `NS.name`, `NS.object`
// and `NS.userinfo`.
extension HarnessUnarchiver {
  /// The longest pattern compiled; a pattern is compiled by ICU before anything uses it.
  static let maximumPatternBytes = 65_536

  /// The most ranges one match result holds: a capture group each, and the whole match.
  static let maximumMatchRanges = 65_536

  func buildRegularExpression(_ fields: PropertyListDictionary) -> AnyObject? {
    guard let pattern = requiredStringObjectField(fields, "NSPattern", of: "NSRegularExpression")
    else { return nil }
    // NSRegularExpression.Options: seven bits, caseInsensitive (1) to useUnicodeWordBoundaries
    // (64).
    let options = integerField(fields, "NSOptions", in: 0...0x7F) ?? 0
    guard failure == nil else { return nil }
    guard pattern.utf8.count <= Self.maximumPatternBytes else {
      failAt(
        "NSPattern", .limitExceeded,
        "a pattern of \(pattern.utf8.count) bytes (at most \(Self.maximumPatternBytes))")
      return nil
    }
    do {
      return try NSRegularExpression(
        pattern: pattern, options: NSRegularExpression.Options(rawValue: UInt(options)))
    } catch {
      failAt(
        "NSPattern", .malformed, "'\(pattern.prefix(80))' is not a regular expression",
        error: error as NSError)
      return nil
    }
  }

  func buildCheckingResult(_ fields: PropertyListDictionary, className: String) -> AnyObject? {
    let indexes = Int64(0)...Int64(Int.max)
    let location = integerField(fields, "NSRangeLocation", in: indexes)
    let length = integerField(fields, "NSRangeLength", in: indexes)
    guard failure == nil else { return nil }
    guard fields["NSRegularExpression"] != nil, fields["NSRegularExpression"] != .uid(0) else {
      failAt("NSRegularExpression", .missingField, "\(className) has no NSRegularExpression")
      return nil
    }
    let expression =
      objectField(fields, "NSRegularExpression", allowed: [NSRegularExpression.self])
      as? NSRegularExpression
    guard failure == nil, let expression else { return nil }
    guard fields["NSRangeArray"] != nil, fields["NSRangeArray"] != .uid(0) else {
      failAt("NSRangeArray", .missingField, "\(className) has no NSRangeArray")
      return nil
    }
    let array = objectField(
      fields, "NSRangeArray", allowed: [NSArray.self, NSValue.self], expecting: [NSArray.self])
    guard failure == nil, let array, let elements = builtElements(of: array) else {
      if failure == nil {
        failAt("NSRangeArray", .malformed, "NSRangeArray is not an array this archive builds")
      }
      return nil
    }
    guard !elements.isEmpty, elements.count <= Self.maximumMatchRanges else {
      failAt(
        "NSRangeArray", elements.isEmpty ? .malformed : .limitExceeded,
        "a match has \(elements.count) ranges (1 to \(Self.maximumMatchRanges))")
      return nil
    }
    var ranges: [NSRange] = []
    ranges.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      // A range value this decode built; asking an NSValue for its objCType leaks in corelibs.
      guard case .range(let range)? = builtContents[ObjectIdentifier(element)] else {
        path.append(.key("NSRangeArray"))
        path.append(.index(index))
        fail(
          .typeMismatch,
          "range \(index) is a \(ObjectDescriber.className(of: element)), not a range value")
        path.removeLast(2)
        return nil
      }
      ranges.append(range)
    }
    // NSRangeLocation and NSRangeLength repeat the first range; Foundation reads the ranges
    // from NSRangeArray, and so does the harness, once the two are checked as integers.
    _ = (location, length)
    let expected = FoundationValueKind.checkingResultKind(rangeCount: ranges.count).className
    guard expected == className else {
      failAt(
        "NSRangeArray", .malformed,
        "\(className) with \(ranges.count) ranges; Foundation archives that count as \(expected)")
      return nil
    }
    return ranges.withUnsafeMutableBufferPointer { buffer -> NSTextCheckingResult? in
      guard let base = buffer.baseAddress else { return nil }
      return NSTextCheckingResult.regularExpressionCheckingResult(
        ranges: base, count: buffer.count, regularExpression: expression)
    }
  }

  func buildNotification(_ fields: PropertyListDictionary, allowed: AllowedClassList?)
    -> AnyObject?
  {
    guard let name = requiredStringObjectField(fields, "NS.name", of: "NSNotification") else {
      return nil
    }
    // Foundation reads NS.object and NS.userinfo with decodeObject(forKey:): any class the
    // read allows.
    var object: AnyObject?
    if let value = fields["NS.object"], value != .uid(0) {
      callAllowed.append(allowed)
      path.append(.key("NS.object"))
      object = decodeValue(value, allowed: allowed, origin: .call)
      callAllowed.removeLast()
      path.removeLast()
    }
    guard failure == nil else { return nil }
    let userInfo = objectField(
      fields, "NS.userinfo", allowedList: allowed, expecting: [NSDictionary.self])
    guard failure == nil else { return nil }
    var info: [AnyHashable: Any]?
    if let dictionary = userInfo as? NSDictionary {
      var entries: [AnyHashable: Any] = [:]
      for (key, value) in builtEntries(of: dictionary) ?? [] {
        entries[AnyHashable(key)] = value
      }
      info = entries
    }
    return NSNotification(
      name: NSNotification.Name(rawValue: name), object: object, userInfo: info)
  }
}
