import ArchiveFormat
import Foundation

/// Reads one stand-in's archived fields from any coder, failing the decode with the key and
/// the reason when a field is missing, of the wrong type or out of range.
///
/// With the harness coder a failure is a rejection at the field's key path, such as
/// `root.tint.UIColorComponentCount`; with Foundation's unarchiver it is `failWithError(_:)`.
struct StandInReader {
  let coder: NSCoder
  let className: String

  /// Whether a failure has been recorded, by this reader or by the coder.
  var failed: Bool { coder.error != nil }

  /// Fails the decode at a key.
  func fail(_ key: String, _ category: RejectionCategory, _ message: String) {
    guard !failed else { return }
    if let harness = coder as? HarnessUnarchiver {
      harness.failAt(key, category, "\(className): \(message)")
    } else {
      coder.failWithError(
        NSError(
          domain: NSCocoaErrorDomain,
          code: category == .missingField
            ? CocoaError.coderValueNotFound.rawValue : CocoaError.coderReadCorrupt.rawValue,
          userInfo: [NSDebugDescriptionErrorKey: "\(className).\(key): \(message)"]))
    }
  }

  func has(_ key: String) -> Bool { !failed && coder.containsValue(forKey: key) }

  /// A number under a key, or `nil` (failing) when required and absent, or when not finite.
  func double(_ key: String, required: Bool = false, in range: ClosedRange<Double>? = nil)
    -> Double?
  {
    guard has(key) else {
      if required { fail(key, .missingField, "has no \(key)") }
      return nil
    }
    let value = coder.decodeDouble(forKey: key)
    guard !failed else { return nil }
    guard value.isFinite else {
      fail(key, .malformed, "\(key) is \(value), not a finite number")
      return nil
    }
    if let range, !range.contains(value) {
      fail(key, .limitExceeded, "\(key) is \(value), outside \(range)")
      return nil
    }
    return value
  }

  /// An integer under a key.
  func integer(_ key: String, required: Bool = false, in range: ClosedRange<Int>? = nil) -> Int? {
    guard has(key) else {
      if required { fail(key, .missingField, "has no \(key)") }
      return nil
    }
    let value = coder.decodeInteger(forKey: key)
    guard !failed else { return nil }
    if let range, !range.contains(value) {
      fail(key, .limitExceeded, "\(key) is \(value), outside \(range)")
      return nil
    }
    return value
  }

  /// A boolean under a key.
  func bool(_ key: String) -> Bool? {
    guard has(key) else { return nil }
    let value = coder.decodeBool(forKey: key)
    return failed ? nil : value
  }

  /// A string object under a key, at most `maximumLength` UTF-8 bytes.
  func string(_ key: String, required: Bool = false, maximumLength: Int = 1024) -> String? {
    guard has(key) else {
      if required { fail(key, .missingField, "has no \(key)") }
      return nil
    }
    guard let value = object(key, of: NSString.self) else {
      if required { fail(key, .missingField, "\(key) is $null") }
      return nil
    }
    guard (value as String).utf8.count <= maximumLength else {
      fail(key, .limitExceeded, "\(key) is longer than \(maximumLength) bytes")
      return nil
    }
    return value as String
  }

  /// Bytes under a key: inline data or an `NSData` object.
  func data(_ key: String) -> Data? {
    guard has(key) else { return nil }
    return object(key, of: NSData.self).map { $0 as Data }
  }

  /// The object under a key, decoded with `decodeObject(of:forKey:)`; a value of another class
  /// fails the decode as a type mismatch.
  func object<T: NSObject>(_ key: String, of type: T.Type) -> T? {
    guard has(key) else { return nil }
    let value = coder.decodeObject(of: [type], forKey: key)
    guard !failed, let value else { return nil }
    guard let typed = value as? T else {
      fail(
        key, .typeMismatch,
        "\(key) is a \(ObjectDescriber.className(of: value)), not \(NSStringFromClass(type))")
      return nil
    }
    return typed
  }

  /// The bytes of a key written with `encodeBytes(_:length:forKey:)`: inline data.
  func bytes(_ key: String, required: Bool = false, maximumLength: Int = 256) -> [UInt8]? {
    guard has(key) else {
      if required { fail(key, .missingField, "has no \(key)") }
      return nil
    }
    // Bytes written with encodeBytes are read with decodeBytes; Foundation refuses to read
    // them as an object. The harness coder reads them either way.
    var data: Data? = nil
    if coder is HarnessUnarchiver {
      data = self.data(key)
    } else {
      #if canImport(Darwin)
        var length = 0
        if let pointer = coder.decodeBytes(forKey: key, returnedLength: &length), !failed {
          data = Data(bytes: pointer, count: length)
        }
      #else
        data = coder.withDecodedUnsafeBytes(forKey: key) { $0.map { Data($0) } }
      #endif
    }
    guard let data else {
      if !failed { fail(key, .missingField, "\(key) is $null") }
      return nil
    }
    guard data.count <= maximumLength else {
      fail(key, .limitExceeded, "\(key) has \(data.count) bytes, more than \(maximumLength)")
      return nil
    }
    return [UInt8](data)
  }

  /// Numbers written as ASCII text separated by spaces, as AppKit writes `NSRGB` and `NSWhite`,
  /// with an optional terminating NUL; between `counts.lowerBound` and `counts.upperBound` of
  /// them.
  func numberList(_ key: String, counts: ClosedRange<Int>) -> [Double]? {
    guard var bytes = self.bytes(key, required: true) else { return nil }
    if bytes.last == 0 { bytes.removeLast() }
    guard let text = String(validUTF8: bytes) else {
      fail(key, .malformed, "\(key) is not text")
      return nil
    }
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    var numbers: [Double] = []
    for part in parts {
      guard let number = Double(part), number.isFinite else {
        fail(key, .malformed, "'\(part.prefix(40))' in \(key) is not a number")
        return nil
      }
      numbers.append(number)
    }
    guard counts.contains(numbers.count) else {
      fail(key, .malformed, "\(key) holds \(numbers.count) numbers, not \(counts)")
      return nil
    }
    return numbers
  }
}
