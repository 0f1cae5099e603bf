import ArchiveFormat
import Foundation

// The values Foundation archives through encodeValue(ofObjCType:at:): a generic NSValue, whose
// `$0` is its type encoding and `$1` the value (a scalar, or for a C array a
// `_NSKeyedCoderOldStyleArray` with `NS.count`, `NS.size`, `NS.type` and one `$i` per element),
// and NSAffineTransform, whose `NSTransformStruct` holds its matrix as big-endian 32-bit floats.
extension HarnessUnarchiver {
  /// The class name of the holder Foundation archives a C array's elements in.
  package static let oldStyleArrayClassName = KeyedArchive.oldStyleArrayClassName

  /// Reads a generic NSValue: the `$0` type encoding, a scalar or a C array of scalars, and the
  /// `$1` value.
  func buildTypedValue(_ fields: PropertyListDictionary) -> AnyObject? {
    guard let typeValue = fields["$0"] else {
      failAt(
        "NS.special", .missingField,
        "NSValue has neither NS.special nor a $0 type encoding")
      return nil
    }
    guard let encoding = stringField(typeValue) else {
      fieldMismatch("$0", typeValue, expected: "a type encoding string")
      return nil
    }
    guard let type = ObjCTypeEncoding(encoding) else {
      failAt(
        "$0", .malformed,
        "'\(encoding.prefix(40))' is not a type the harness reads (a scalar c, C, s, S, i, I, "
          + "q, Q, f, d or B, or a C array of one such as [3i])")
      return nil
    }
    guard let value = fields["$1"] else {
      failAt("$1", .missingField, "NSValue of type '\(encoding)' has no $1 value")
      return nil
    }
    let scalar = type.scalar
    var bytes: [UInt8]
    if let count = type.arrayCount {
      guard let elements = oldStyleArrayBytes(value, scalar: scalar, count: count) else {
        return nil
      }
      bytes = elements
    } else {
      guard let element = scalarBytes(fields, "$1", scalar: scalar) else { return nil }
      bytes = element
    }
    return encoding.withCString { type in
      bytes.withUnsafeMutableBytes { buffer -> NSValue? in
        guard let base = buffer.baseAddress else { return nil }
        return NSValue(bytes: base, objCType: type)
      }
    }
  }

  /// The bytes of one scalar element under a key.
  private func scalarBytes(
    _ fields: PropertyListDictionary, _ key: String, scalar: ObjCTypeEncoding.Scalar
  )
    -> [UInt8]?
  {
    if let range = scalar.integerRange {
      guard let integer = integerField(fields, key, in: range) else {
        if failure == nil { failAt(key, .missingField, "the element \(key) is absent") }
        return nil
      }
      return scalar.bytes(integer: integer)
    }
    guard let real = doubleField(fields, key) else {
      if failure == nil { failAt(key, .missingField, "the element \(key) is absent") }
      return nil
    }
    return scalar.bytes(real: real)
  }

  /// The elements of a C array, read from the `_NSKeyedCoderOldStyleArray` that `$1` refers to.
  private func oldStyleArrayBytes(
    _ value: PropertyListValue, scalar: ObjCTypeEncoding.Scalar, count: Int
  )
    -> [UInt8]?
  {
    guard case .uid(let uid) = value,
      case .instance(let holder)? = archive.object(at: Int(clamping: uid)),
      holder.className == Self.oldStyleArrayClassName
    else {
      failAt(
        "$1", .typeMismatch,
        "a C array value is archived as a \(Self.oldStyleArrayClassName), not a "
          + (value.uidValue == nil ? value.typeName : "reference to another object"))
      return nil
    }
    path.append(.key("$1"))
    defer { path.removeLast() }
    let fields = holder.fields
    let archivedCount = requiredIntegerField(
      fields, "NS.count", of: Self.oldStyleArrayClassName, in: 0...Int64(Int32.max))
    let size = requiredIntegerField(
      fields, "NS.size", of: Self.oldStyleArrayClassName, in: 0...Int64(Int32.max))
    let type = requiredIntegerField(
      fields, "NS.type", of: Self.oldStyleArrayClassName, in: 0...127)
    guard let archivedCount, let size, let type else { return nil }
    guard archivedCount == Int64(count) else {
      failAt(
        "NS.count", .malformed,
        "NS.count is \(archivedCount) but the type encoding holds \(count) elements")
      return nil
    }
    guard type == Int64(scalar.rawValue.asciiValue ?? 0) else {
      failAt(
        "NS.type", .malformed,
        "NS.type is \(type) but the type encoding's elements are '\(scalar.rawValue)'")
      return nil
    }
    guard size == Int64(scalar.size) else {
      failAt(
        "NS.size", .malformed,
        "NS.size is \(size) but a '\(scalar.rawValue)' element is \(scalar.size) bytes")
      return nil
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * scalar.size)
    for index in 0..<count {
      guard let element = scalarBytes(fields, "$\(index)", scalar: scalar) else { return nil }
      bytes += element
    }
    return bytes
  }

  /// Reads NSAffineTransform: 24 bytes are m11, m12, m21, m22, tX and tY; 16 bytes, which
  /// Foundation writes for a matrix without rotation or shear, are m11, m22, tX and tY.
  ///
  /// NSAffineTransform is macOS Foundation (and corelibs); elsewhere on Darwin the object is
  /// refused with a reason.
  func buildAffineTransform(_ fields: PropertyListDictionary) -> AnyObject? {
    #if os(macOS) || !canImport(Darwin)
      return readAffineTransform(fields)
    #else
      fail(
        .unmappedClass,
        "NSAffineTransform is a macOS Foundation class; this platform has none to decode into")
      return nil
    #endif
  }

  #if os(macOS) || !canImport(Darwin)
    private func readAffineTransform(_ fields: PropertyListDictionary) -> AnyObject? {
      let transform = NSAffineTransform()
      guard let value = fields["NSTransformStruct"] else {
        // Foundation writes no matrix for the identity.
        return transform
      }
      guard let bytes = dataField(value) else {
        fieldMismatch("NSTransformStruct", value, expected: "data")
        return nil
      }
      var floats: [Double] = []
      for offset in stride(from: 0, to: bytes.count - bytes.count % 4, by: 4) {
        let bits =
          UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
          | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        floats.append(Double(Float(bitPattern: bits)))
      }
      switch bytes.count {
      case 24:
        transform.transformStruct = NSAffineTransformStruct(
          m11: floats[0], m12: floats[1], m21: floats[2], m22: floats[3], tX: floats[4],
          tY: floats[5])
      case 16:
        transform.transformStruct = NSAffineTransformStruct(
          m11: floats[0], m12: 0, m21: 0, m22: floats[1], tX: floats[2], tY: floats[3])
      default:
        failAt(
          "NSTransformStruct", .malformed,
          "NSTransformStruct has \(bytes.count) bytes; the harness reads 24 (six floats) or 16 "
            + "(scale and translation)")
        return nil
      }
      return transform
    }
  #endif
}
