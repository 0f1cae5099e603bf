import ArchiveFormat
import Foundation

// Reading one archived field of a Foundation value form: a scalar, a nested object of given
// classes, or bytes. Each reader returns nil when the key is absent and fails the decode, at the
// field's key path, when the value is of the wrong type or out of range; callers tell the two
// apart by `failure`.
extension HarnessUnarchiver {
  /// The archived value under a key, following one UID to an inline scalar in `$objects`, as
  /// Foundation writes some integers (`NS.rangeval.location` in older archives).
  func scalarField(_ fields: PropertyListDictionary, _ key: String) -> PropertyListValue? {
    guard let value = fields[key] else { return nil }
    if case .uid(let uid) = value, case .value(let inner)? = archive.object(at: Int(clamping: uid)),
      inner.uidValue == nil, inner.arrayValue == nil, inner.dictionaryValue == nil
    {
      return inner
    }
    return value
  }

  /// An integer field within `range`; `nil` when absent or after a failure.
  func integerField(
    _ fields: PropertyListDictionary, _ key: String,
    in range: ClosedRange<Int64> = Int64.min...Int64.max
  ) -> Int64? {
    guard failure == nil, let value = scalarField(fields, key) else { return nil }
    let integer: Int64
    switch value {
    case .integer(let number): integer = number
    case .bool(let flag): integer = flag ? 1 : 0
    case .real(let real) where real.rounded(.towardZero) == real:
      guard let exact = Int64(exactly: real) else {
        failAt(key, .limitExceeded, "value \(real) is out of range \(range)")
        return nil
      }
      integer = exact
    case .unsignedInteger(let unsigned):
      failAt(key, .limitExceeded, "value \(unsigned) is out of range \(range)")
      return nil
    default:
      fieldMismatch(key, value, expected: "an integer")
      return nil
    }
    guard range.contains(integer) else {
      failAt(key, .limitExceeded, "value \(integer) is out of range \(range)")
      return nil
    }
    return integer
  }

  /// An integer field that must be present.
  func requiredIntegerField(
    _ fields: PropertyListDictionary, _ key: String, of className: String,
    in range: ClosedRange<Int64> = Int64.min...Int64.max
  ) -> Int64? {
    guard failure == nil else { return nil }
    guard fields[key] != nil else {
      failAt(key, .missingField, "\(className) has no \(key)")
      return nil
    }
    return integerField(fields, key, in: range)
  }

  /// A floating-point field; `nil` when absent or after a failure.
  func doubleField(_ fields: PropertyListDictionary, _ key: String) -> Double? {
    guard failure == nil, let value = scalarField(fields, key) else { return nil }
    switch value {
    case .real(let real): return real
    case .integer(let integer): return Double(integer)
    case .unsignedInteger(let unsigned): return Double(unsigned)
    default:
      fieldMismatch(key, value, expected: "a number")
      return nil
    }
  }

  /// A boolean field; `nil` when absent or after a failure.
  func boolField(_ fields: PropertyListDictionary, _ key: String) -> Bool? {
    guard failure == nil, let value = scalarField(fields, key) else { return nil }
    switch value {
    case .bool(let flag): return flag
    case .integer(let integer): return integer != 0
    default:
      fieldMismatch(key, value, expected: "a boolean")
      return nil
    }
  }

  /// Decodes the object under a key as `decodeObject(of:forKey:)` would: in secure mode its
  /// class must pass `allowed`; in both modes it must be one of `expecting`.
  ///
  /// - Returns: The object; `nil` when absent, `$null`, or after a failure.
  func objectField(
    _ fields: PropertyListDictionary, _ key: String, allowed classes: [AnyClass],
    expecting: [AnyClass]? = nil
  ) -> AnyObject? {
    let list = secure ? AllowedClassList(types: classes) : nil
    return objectField(fields, key, allowedList: list, expecting: expecting ?? classes)
  }

  /// Decodes the object under a key with an allowed-class list built by the caller.
  func objectField(
    _ fields: PropertyListDictionary, _ key: String, allowedList: AllowedClassList?,
    expecting: [AnyClass]
  ) -> AnyObject? {
    guard failure == nil, let value = fields[key], value != .uid(0) else { return nil }
    callAllowed.append(allowedList)
    path.append(.key(key))
    defer {
      callAllowed.removeLast()
      path.removeLast()
    }
    guard let decoded = decodeValue(value, allowed: allowedList, origin: .call) else {
      return nil
    }
    guard let object = decoded as? NSObject,
      expecting.contains(where: { object.isKind(of: $0) })
    else {
      let expected = expecting.map { NSStringFromClass($0) }.joined(separator: " or ")
      fail(
        .typeMismatch,
        "value is a \(ObjectDescriber.className(of: decoded)), not \(expected)")
      return nil
    }
    return decoded
  }

  /// A string object (inline or `NSString`/`NSMutableString`) under a key.
  func stringObjectField(_ fields: PropertyListDictionary, _ key: String) -> String? {
    (objectField(fields, key, allowed: [NSString.self]) as? NSString).map { $0 as String }
  }

  /// A string object that must be present.
  func requiredStringObjectField(
    _ fields: PropertyListDictionary, _ key: String, of className: String
  ) -> String? {
    guard failure == nil else { return nil }
    guard let value = fields[key], value != .uid(0) else {
      failAt(key, .missingField, "\(className) has no \(key)")
      return nil
    }
    return stringObjectField(fields, key)
  }

  /// Bytes under a key: inline data or an `NSData` object.
  func dataObjectField(_ fields: PropertyListDictionary, _ key: String) -> [UInt8]? {
    (objectField(fields, key, allowed: [NSData.self]) as? NSData).map { [UInt8]($0 as Data) }
  }

  /// Fails the decode at a key: the value there is of the wrong type.
  func fieldMismatch(_ key: String, _ value: PropertyListValue, expected: String) {
    let found = value.uidValue == nil ? "a \(value.typeName)" : "an object reference"
    failAt(key, .typeMismatch, "value is \(found), not \(expected)")
  }

  /// Reads unsigned LEB128 integers, as NSIndexSet, NSIndexPath and NSAttributedString write
  /// their run data: seven bits a byte, low bits first, the high bit set on all but the last.
  ///
  /// - Parameters:
  ///   - bytes: The data.
  ///   - count: How many integers to read; `nil` reads to the end.
  /// - Returns: The integers and the number of bytes read, or `nil` when the data ends inside an
  ///   integer or an integer does not fit in `Int`.
  static func leb128Integers(_ bytes: [UInt8], count: Int? = nil) -> (
    values: [Int], consumed: Int
  )? {
    var values: [Int] = []
    var offset = 0
    while offset < bytes.count, count.map({ values.count < $0 }) ?? true {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard offset < bytes.count, shift < 64 else { return nil }
        let byte = bytes[offset]
        offset += 1
        let bits = UInt64(byte & 0x7F)
        guard shift == 0 || bits >> (64 - shift) == 0 else { return nil }
        value |= bits << shift
        if byte & 0x80 == 0 { break }
        shift += 7
      }
      guard value <= UInt64(Int.max) else { return nil }
      values.append(Int(value))
    }
    if let count, values.count < count { return nil }
    return (values, offset)
  }

  /// The number of LEB128 integers in data: the bytes without the continuation bit, as Apple's
  /// secure readers count them.
  static func leb128Count(_ bytes: [UInt8]) -> Int {
    bytes.reduce(0) { $0 + ($1 & 0x80 == 0 ? 1 : 0) }
  }
}
