import Foundation

/// An encoder that records the keyed fields an object's `encode(with:)` writes, in order.
///
/// Unkeyed writes are counted, not recorded, so that a class written the pre-keyed way is
/// described instead of reaching `NSCoder`'s abstract methods, which trap.
final class FieldRecordingCoder: NSCoder {
  /// A recorded field: a scalar already described, or an object to describe.
  enum Field {
    case value(DecodedValue)
    case object(Any?)
  }

  private(set) var fields: [(key: String, field: Field)] = []
  private(set) var unkeyedWrites = 0

  override var allowsKeyedCoding: Bool { true }

  override var requiresSecureCoding: Bool { false }

  override func encode(_ object: Any?, forKey key: String) {
    fields.append((key, .object(object)))
  }

  override func encodeConditionalObject(_ object: Any?, forKey key: String) {
    fields.append((key, .object(object)))
  }

  override func encode(_ value: Bool, forKey key: String) {
    fields.append((key, .value(.bool(value))))
  }

  override func encode(_ value: Int, forKey key: String) {
    fields.append((key, .value(.integer(Int64(value)))))
  }

  override func encode(_ value: Int32, forKey key: String) {
    fields.append((key, .value(.integer(Int64(value)))))
  }

  override func encode(_ value: Int64, forKey key: String) {
    fields.append((key, .value(.integer(value))))
  }

  override func encode(_ value: Float, forKey key: String) {
    fields.append((key, .value(.double(Double(value)))))
  }

  override func encode(_ value: Double, forKey key: String) {
    fields.append((key, .value(.double(value))))
  }

  override func encodeBytes(_ bytes: UnsafePointer<UInt8>?, length: Int, forKey key: String) {
    guard let bytes, length > 0 else {
      fields.append((key, .value(.data([]))))
      return
    }
    fields.append((key, .value(.data(Array(UnsafeBufferPointer(start: bytes, count: length))))))
  }

  override func encodeValue(ofObjCType type: UnsafePointer<CChar>, at address: UnsafeRawPointer) {
    unkeyedWrites += 1
  }

  override func encode(_ data: Data) {
    unkeyedWrites += 1
  }

  #if os(macOS) || !canImport(Darwin)
    // NSCoder declares `encodePropertyList(_:)` on macOS and in swift-corelibs-foundation only.
    override func encodePropertyList(_ propertyList: Any) {
      unkeyedWrites += 1
    }
  #endif
}
