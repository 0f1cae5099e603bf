/// Writes `bplist00` binary property lists, deterministically: the same value always gives the same bytes.
///
/// Scalars (strings, numbers, dates, data, UIDs) are written once and shared,
/// as Apple's writer does; containers are written once per occurrence. Reading
/// what it writes gives an equal value.
///
/// ```swift
/// let bytes = BinaryPropertyListWriter().write(.array([.string("a"), .uid(1)]))
/// ```
public struct BinaryPropertyListWriter: Sendable {
  /// Creates a writer.
  public init() {}

  private enum Flat {
    case scalar(PropertyListValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  private struct Flattener {
    var objects: [Flat] = []
    // Strings (every dictionary key) and UIDs (every reference in a keyed archive) are most
    // of a list's scalars: each has a table of its own, hashed as itself rather than through
    // PropertyListValue, with the same equality, so the same scalars are shared as before.
    var stringIndex: [String: Int] = [:]
    var uidIndex: [UInt64: Int] = [:]
    var scalarIndex: [PropertyListValue: Int] = [:]

    /// Reserves room for about `count` objects: growing the scalar table step by step
    /// rehashes every scalar each time it grows.
    init(expecting count: Int) {
      objects.reserveCapacity(count)
      scalarIndex.reserveCapacity(count)
    }

    mutating func add(_ value: PropertyListValue) -> Int {
      switch value {
      case .array(let elements):
        let index = objects.count
        objects.append(.array([]))
        var children: [Int] = []
        children.reserveCapacity(elements.count)
        for element in elements {
          children.append(add(element))
        }
        objects[index] = .array(children)
        return index
      case .dictionary(let dictionary):
        let index = objects.count
        objects.append(.array([]))
        var keys: [Int] = []
        var values: [Int] = []
        keys.reserveCapacity(dictionary.count)
        values.reserveCapacity(dictionary.count)
        for entry in dictionary.entries {
          keys.append(addString(entry.key))
        }
        for entry in dictionary.entries {
          values.append(add(entry.value))
        }
        objects[index] = .dictionary(keys: keys, values: values)
        return index
      case .string(let string):
        return addString(string)
      case .uid(let uid):
        if let existing = uidIndex[uid] { return existing }
        let index = objects.count
        objects.append(.scalar(value))
        uidIndex[uid] = index
        return index
      default:
        if let existing = scalarIndex[value] {
          return existing
        }
        let index = objects.count
        objects.append(.scalar(value))
        scalarIndex[value] = index
        return index
      }
    }

    mutating func addString(_ string: String) -> Int {
      if let existing = stringIndex[string] { return existing }
      let index = objects.count
      objects.append(.scalar(.string(string)))
      stringIndex[string] = index
      return index
    }
  }

  /// Returns the binary property list for a value.
  public func write(_ value: PropertyListValue) -> [UInt8] {
    var flattener = Flattener(expecting: Self.expectedObjectCount(value))
    let top = flattener.add(value)
    let objects = flattener.objects
    let referenceSize = Self.byteWidth(UInt64(objects.count))

    var output: [UInt8] = Array("bplist00".utf8)
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(output.count)
      switch object {
      case .scalar(let scalar):
        Self.appendScalar(scalar, to: &output)
      case .array(let children):
        Self.appendMarker(0xA0, count: children.count, to: &output)
        for child in children {
          Self.appendBigEndian(UInt64(child), width: referenceSize, to: &output)
        }
      case .dictionary(let keys, let values):
        Self.appendMarker(0xD0, count: keys.count, to: &output)
        for child in keys {
          Self.appendBigEndian(UInt64(child), width: referenceSize, to: &output)
        }
        for child in values {
          Self.appendBigEndian(UInt64(child), width: referenceSize, to: &output)
        }
      }
    }
    let tableOffset = output.count
    let offsetSize = Self.byteWidth(UInt64(tableOffset))
    for offset in offsets {
      Self.appendBigEndian(UInt64(offset), width: offsetSize, to: &output)
    }
    output.append(contentsOf: [0, 0, 0, 0, 0, 0])
    output.append(UInt8(offsetSize))
    output.append(UInt8(referenceSize))
    Self.appendBigEndian(UInt64(objects.count), width: 8, to: &output)
    Self.appendBigEndian(UInt64(top), width: 8, to: &output)
    Self.appendBigEndian(UInt64(tableOffset), width: 8, to: &output)
    return output
  }

  /// A guess at the object count: the top container's values, and the members of its
  /// largest array (a keyed archive's `$objects`), plus one for each key.
  private static func expectedObjectCount(_ value: PropertyListValue) -> Int {
    switch value {
    case .array(let elements): return 1 + elements.count
    case .dictionary(let dictionary):
      var count = 1 + 2 * dictionary.count
      for entry in dictionary.entries {
        if case .array(let elements) = entry.value { count += 2 * elements.count }
      }
      return min(count, 1 << 20)
    default: return 1
    }
  }

  private static func byteWidth(_ value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }

  private static func appendBigEndian(_ value: UInt64, width: Int, to output: inout [UInt8]) {
    var shift = (width - 1) * 8
    while shift >= 0 {
      output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
      shift -= 8
    }
  }

  private static func appendMarker(_ high: UInt8, count: Int, to output: inout [UInt8]) {
    if count < 15 {
      output.append(high | UInt8(count))
    } else {
      output.append(high | 0x0F)
      appendInteger(UInt64(count), to: &output)
    }
  }

  private static func appendInteger(_ value: UInt64, to output: inout [UInt8]) {
    let width = byteWidth(value)
    let exponent: UInt8 = width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3
    output.append(0x10 | exponent)
    appendBigEndian(value, width: width, to: &output)
  }

  private static func appendScalar(_ value: PropertyListValue, to output: inout [UInt8]) {
    switch value {
    case .bool(let flag):
      output.append(flag ? 0x09 : 0x08)
    case .integer(let number):
      if number >= 0 {
        appendInteger(UInt64(number), to: &output)
      } else {
        output.append(0x13)
        appendBigEndian(UInt64(bitPattern: number), width: 8, to: &output)
      }
    case .unsignedInteger(let number):
      output.append(0x14)
      appendBigEndian(0, width: 8, to: &output)
      appendBigEndian(number, width: 8, to: &output)
    case .real(let number):
      output.append(0x23)
      appendBigEndian(number.bitPattern, width: 8, to: &output)
    case .date(let seconds):
      output.append(0x33)
      appendBigEndian(seconds.bitPattern, width: 8, to: &output)
    case .data(let bytes):
      appendMarker(0x40, count: bytes.count, to: &output)
      output.append(contentsOf: bytes)
    case .string(let string):
      if string.utf8.allSatisfy({ $0 < 0x80 }) {
        appendMarker(0x50, count: string.utf8.count, to: &output)
        output.append(contentsOf: string.utf8)
      } else {
        appendMarker(0x60, count: string.utf16.count, to: &output)
        for unit in string.utf16 {
          output.append(UInt8(unit >> 8))
          output.append(UInt8(unit & 0xFF))
        }
      }
    case .uid(let number):
      let width = byteWidth(number)
      output.append(0x80 | UInt8(width - 1))
      appendBigEndian(number, width: width, to: &output)
    case .array, .dictionary:
      // Containers are flattened before this point.
      break
    }
  }
}
