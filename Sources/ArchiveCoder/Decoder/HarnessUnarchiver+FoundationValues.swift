import ArchiveFormat
import Foundation

// The Foundation value forms: how the harness coder builds NSString, NSNumber, the
// collections, NSDate, NSData, NSUUID, NSURL and NSNull from their archived fields, without
// running any class's init(coder:), and where each further form is built (the +IndexValues,
// +TextValues, +NumberAndErrorValues, +CalendarValues, +MeasurementValues, +FormatterValues,
// +TextCheckingValues and +TypedValues files). The coder
// itself (root, NSCoder overrides, class checks) is in HarnessUnarchiver.swift.
extension HarnessUnarchiver {
  func buildFoundationValue(
    _ kind: FoundationValueKind, _ instance: ArchiveInstance, allowed: AllowedClassList?
  ) -> AnyObject? {
    let fields = instance.fields
    switch kind {
    case .string, .mutableString:
      guard let text = stringField(fields["NS.string"]) ?? utf8Field(fields["NS.bytes"]) else {
        fail(.malformed, "\(kind.className) has neither NS.string nor NS.bytes")
        return nil
      }
      return kind == .string ? NSString(string: text) : NSMutableString(string: text)
    case .array, .mutableArray, .set, .mutableSet, .orderedSet, .mutableOrderedSet:
      guard let elements = decodeElements(fields, allowed: allowed) else {
        return nil
      }
      let collection: AnyObject
      switch kind {
      case .array: collection = NSArray(array: elements)
      case .mutableArray: collection = NSMutableArray(array: elements)
      case .set: collection = NSSet(array: elements)
      case .mutableSet: collection = NSMutableSet(array: elements)
      case .orderedSet: collection = NSOrderedSet(array: elements)
      default: collection = NSMutableOrderedSet(array: elements)
      }
      builtContents[ObjectIdentifier(collection)] = .elements(elements)
      return collection
    case .dictionary, .mutableDictionary:
      return buildDictionary(kind, fields, allowed: allowed)
    case .date:
      switch fields["NS.time"] {
      case .real(let seconds)?: return NSDate(timeIntervalSinceReferenceDate: seconds)
      case .integer(let seconds)?: return NSDate(timeIntervalSinceReferenceDate: Double(seconds))
      default:
        fail(.malformed, "NSDate has no numeric NS.time")
        return nil
      }
    case .data, .mutableData:
      guard let bytes = dataField(fields["NS.data"]) ?? dataField(fields["NS.bytes"]) else {
        fail(.malformed, "\(kind.className) has neither NS.data nor NS.bytes")
        return nil
      }
      return kind == .data
        ? NSData(bytes: bytes, length: bytes.count)
        : NSMutableData(bytes: bytes, length: bytes.count)
    case .uuid:
      guard case .data(var bytes)? = fields["NS.uuidbytes"], bytes.count == 16 else {
        fail(.malformed, "NSUUID has no 16-byte NS.uuidbytes")
        return nil
      }
      return bytes.withUnsafeMutableBufferPointer { buffer -> NSUUID? in
        guard let base = buffer.baseAddress else { return nil }
        return NSUUID(uuidBytes: base)
      }
    case .url:
      return buildURL(fields)
    case .null:
      return NSNull()
    case .countedSet:
      return buildCountedSet(fields, allowed: allowed)
    case .value:
      return buildSpecialValue(fields)
    case .indexSet, .mutableIndexSet:
      return buildIndexSet(fields, mutable: kind == .mutableIndexSet)
    case .indexPath:
      return buildIndexPath(fields)
    case .attributedString, .mutableAttributedString:
      return buildAttributedString(fields, mutable: kind == .mutableAttributedString)
    case .personNameComponents:
      return buildPersonNameComponents(fields)
    case .decimalNumber:
      return buildDecimalNumber(fields)
    case .error:
      return buildError(fields)
    case .locale:
      return buildLocale(fields)
    case .timeZone:
      return buildTimeZone(fields)
    case .calendar:
      return buildCalendar(fields)
    case .dateComponents:
      return buildDateComponents(fields)
    case .measurement:
      return buildMeasurement(fields)
    case .unitConverterLinear:
      return buildLinearConverter(fields)
    case .notification:
      return buildNotification(fields, allowed: allowed)
    case .affineTransform:
      return buildAffineTransform(fields)
    case .byteCountFormatter:
      return buildByteCountFormatter(fields)
    case .iso8601DateFormatter:
      return buildISO8601DateFormatter(fields)
    case .dateIntervalFormatter:
      return buildDateIntervalFormatter(fields)
    case .regularExpression:
      return buildRegularExpression(fields)
    case .simpleRegularExpressionCheckingResult, .extendedRegularExpressionCheckingResult,
      .complexRegularExpressionCheckingResult:
      return buildCheckingResult(fields, className: kind.className)
    case .number, .object:
      fail(.malformed, "\(kind.className) has no archived object form the harness reads")
      return nil
    default:
      return buildUnit(kind, fields)
    }
  }

  /// The most element copies a counted set is built with, so that an archived count cannot
  /// make the harness loop for hours.
  static let maximumCountedSetCopies = 1_000_000

  func buildCountedSet(_ fields: PropertyListDictionary, allowed: AllowedClassList?)
    -> AnyObject?
  {
    // Each element takes two keys, NS.object<i> and NS.count<i>.
    let count = integerField(fields, "NS.count", in: 0...Int64(fields.count / 2)) ?? 0
    guard failure == nil else { return nil }
    let set = NSCountedSet()
    var copies = 0
    for index in 0..<Int(count) {
      let objectKey = "NS.object\(index)"
      let countKey = "NS.count\(index)"
      guard let value = fields[objectKey], fields[countKey] != nil else {
        failAt(
          fields[objectKey] == nil ? objectKey : countKey, .missingField,
          "NS.count is \(count) but element \(index) is missing")
        return nil
      }
      guard
        let copiesOfElement = integerField(
          fields, countKey, in: 1...Int64(Self.maximumCountedSetCopies))
      else { return nil }
      copies += Int(copiesOfElement)
      guard copies <= Self.maximumCountedSetCopies else {
        failAt(
          countKey, .limitExceeded,
          "the counts add up to more than \(Self.maximumCountedSetCopies) copies")
        return nil
      }
      path.append(.key(objectKey))
      let element = decodeValue(value, allowed: allowed, origin: .element)
      path.removeLast()
      guard let element else {
        if failure == nil { failAt(objectKey, .malformed, "a counted set element is $null") }
        return nil
      }
      for _ in 0..<copiesOfElement { set.add(element) }
    }
    return set
  }

  func decodeElements(_ fields: PropertyListDictionary, allowed: AllowedClassList?)
    -> [AnyObject]?
  {
    var values: [PropertyListValue]
    switch fields["NS.objects"] {
    case .array(let elements)?: values = elements
    case nil:
      // NSOrderedSet writes one key per element: NS.object.0, NS.object.1, ...
      values = []
      while let element = fields["NS.object.\(values.count)"] { values.append(element) }
    case let other?:
      failAt("NS.objects", .malformed, "NS.objects is a \(other.typeName), not an array")
      return nil
    }
    var elements: [AnyObject] = []
    elements.reserveCapacity(values.count)
    for (index, value) in values.enumerated() {
      path.append(.index(index))
      defer { path.removeLast() }
      guard let element = decodeValue(value, allowed: allowed, origin: .element) else {
        if failure == nil { fail(.malformed, "a collection element is $null") }
        return nil
      }
      elements.append(element)
    }
    return elements
  }

  func buildDictionary(
    _ kind: FoundationValueKind, _ fields: PropertyListDictionary, allowed: AllowedClassList?
  ) -> AnyObject? {
    let keys: [PropertyListValue]
    let values: [PropertyListValue]
    switch (fields["NS.keys"], fields["NS.objects"]) {
    case (.array(let keyList)?, .array(let valueList)?):
      keys = keyList
      values = valueList
    case (nil, nil):
      keys = []
      values = []
    default:
      fail(.malformed, "\(kind.className) needs NS.keys and NS.objects arrays")
      return nil
    }
    guard keys.count == values.count else {
      fail(.malformed, "NS.keys has \(keys.count) entries but NS.objects has \(values.count)")
      return nil
    }
    var decodedKeys: [NSObject] = []
    var decodedValues: [AnyObject] = []
    for (index, keyValue) in keys.enumerated() {
      path.append(.key("NS.keys"))
      path.append(.index(index))
      let key = decodeValue(keyValue, allowed: allowed, origin: .element) as? NSObject
      path.removeLast(2)
      guard let key else {
        if failure == nil { failAt("NS.keys", .malformed, "dictionary key \(index) is $null") }
        return nil
      }
      path.append(.dictionaryValue(key))
      defer { path.removeLast() }
      guard let value = decodeValue(values[index], allowed: allowed, origin: .element) else {
        if failure == nil { fail(.malformed, "a dictionary value is $null") }
        return nil
      }
      if key is NSArray || key is NSDictionary || key is NSSet || key is NSOrderedSet {
        hasCollectionKeys = true
      }
      decodedKeys.append(key)
      decodedValues.append(value)
    }
    let dictionary: NSDictionary
    if kind == .dictionary {
      #if canImport(Darwin)
        // Apple's NSDictionary copies its keys: a key that cannot be copied is refused, where
        // Foundation would raise.
        var copyingKeys: [any NSCopying] = []
        copyingKeys.reserveCapacity(decodedKeys.count)
        for (index, key) in decodedKeys.enumerated() {
          guard let copying = key as? any NSCopying else {
            failAt(
              "NS.keys", .typeMismatch,
              "dictionary key \(index) is a \(ObjectDescriber.className(of: key)), which cannot be copied"
            )
            return nil
          }
          copyingKeys.append(copying)
        }
        dictionary = NSDictionary(objects: decodedValues, forKeys: copyingKeys)
      #else
        dictionary = NSDictionary(objects: decodedValues, forKeys: decodedKeys)
      #endif
    } else {
      let mutable = NSMutableDictionary()
      for (key, value) in zip(decodedKeys, decodedValues) {
        mutable[key] = value
      }
      dictionary = mutable
    }
    builtContents[ObjectIdentifier(dictionary)] = .entries(keys: decodedKeys, values: decodedValues)
    return dictionary
  }

  /// The entries of a dictionary this decode built, in archive order, read without bridging.
  ///
  /// Reading an NSDictionary through Swift (`object(forKey:)`, iteration) bridges each value,
  /// and corelibs traps bridging a dictionary whose keys are arrays; the forms that look
  /// inside collections read what was built instead.
  func builtEntries(of dictionary: NSDictionary) -> [(key: NSObject, value: AnyObject)]? {
    guard case .entries(let keys, let values)? = builtContents[ObjectIdentifier(dictionary)]
    else { return nil }
    return Array(zip(keys, values)).map { ($0.0, $0.1) }
  }

  /// The elements of an array, set or ordered set this decode built, without bridging.
  func builtElements(of collection: AnyObject) -> [AnyObject]? {
    guard case .elements(let elements)? = builtContents[ObjectIdentifier(collection)] else {
      return nil
    }
    return elements
  }

  func buildURL(_ fields: PropertyListDictionary) -> AnyObject? {
    guard let relative = stringField(fields["NS.relative"]) else {
      fail(.malformed, "NSURL has no NS.relative string")
      return nil
    }
    var base: URL?
    if let baseValue = fields["NS.base"], baseValue != .uid(0) {
      let allowed = AllowedClassList(types: [NSURL.self])
      callAllowed.append(allowed)
      path.append(.key("NS.base"))
      defer {
        callAllowed.removeLast()
        path.removeLast()
      }
      let decoded = decodeValue(baseValue, allowed: allowed, origin: .call)
      guard let baseURL = decoded as? NSURL else {
        if failure == nil { fail(.typeMismatch, "NS.base is not an NSURL") }
        return nil
      }
      // Bridging an NSURL to URL, or asking it for its absolute URL, force-unwraps in corelibs
      // for some relative strings: the base is the URL this decode built for it.
      guard case .url(let known)? = builtContents[ObjectIdentifier(baseURL)] else {
        fail(.malformed, "NS.base is not a URL this archive builds")
        return nil
      }
      base = known
    }
    guard let swiftURL = URL(string: relative, relativeTo: base) else {
      fail(.malformed, "NS.relative '\(relative.prefix(80))' is not a URL")
      return nil
    }
    let url = swiftURL as NSURL
    builtContents[ObjectIdentifier(url)] = .url(swiftURL)
    return url
  }

  func stringField(_ value: PropertyListValue?) -> String? {
    switch value {
    case .string(let text)?: return text
    case .uid(let uid)?:
      if case .value(.string(let text))? = archive.object(at: Int(clamping: uid)) { return text }
      return nil
    default: return nil
    }
  }

  func utf8Field(_ value: PropertyListValue?) -> String? {
    guard let bytes = dataField(value) else { return nil }
    return String(validUTF8: bytes)
  }

  func dataField(_ value: PropertyListValue?) -> [UInt8]? {
    switch value {
    case .data(let bytes)?: return bytes
    case .uid(let uid)?:
      if case .value(.data(let bytes))? = archive.object(at: Int(clamping: uid)) { return bytes }
      return nil
    default: return nil
    }
  }

  static func render(_ key: NSObject) -> String {
    if let string = key as? NSString { return "\"\(string)\"" }
    return key.description
  }
}
