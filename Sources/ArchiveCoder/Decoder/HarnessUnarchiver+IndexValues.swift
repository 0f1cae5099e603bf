import ArchiveFormat
import Foundation

#if os(macOS)
  // CGPoint, CGSize and CGRect's initializers and `==` come with the CoreGraphics overlay.
  import CoreGraphics
#endif

// NSValue's special forms, NSIndexSet and NSIndexPath, read with the keys Foundation writes:
// `NS.special` with `NS.pointval`, `NS.sizeval`, `NS.rectval`, `NS.rangeval.*`, `NS.edgeval.*`;
// `NSRangeCount` with `NSLocation`/`NSLength` or LEB128 `NSRangeData`; `NSIndexPathLength` with
// `NSIndexPathValue` or LEB128 `NSIndexPathData`.
extension HarnessUnarchiver {
  /// The `NS.special` codes the harness reads: Foundation's point, size, rect, range and edge
  /// insets.
  enum SpecialValueCode: Int64 {
    case point = 1
    case size = 2
    case rect = 3
    case range = 4
    case edgeInsets = 12
  }

  func buildSpecialValue(_ fields: PropertyListDictionary) -> AnyObject? {
    // A value without NS.special is a generic one, archived through its type encoding.
    guard fields["NS.special"] != nil else { return buildTypedValue(fields) }
    guard let code = requiredIntegerField(fields, "NS.special", of: "NSValue") else {
      return nil
    }
    guard let special = SpecialValueCode(rawValue: code) else {
      failAt(
        "NS.special", .malformed,
        "NS.special \(code) is not a form the harness reads (1 point, 2 size, 3 rect, 4 range, "
          + "12 edge insets)")
      return nil
    }
    switch special {
    case .point:
      guard let (x, y) = geometryPair(fields, "NS.pointval") else { return nil }
      return pointValue(x: x, y: y)
    case .size:
      guard let (width, height) = geometryPair(fields, "NS.sizeval") else { return nil }
      return sizeValue(width: width, height: height)
    case .rect:
      guard let text = requiredStringObjectField(fields, "NS.rectval", of: "NSValue") else {
        return nil
      }
      guard let (x, y, width, height) = GeometryString.rect(text) else {
        failAt(
          "NS.rectval", .malformed,
          "'\(text.prefix(80))' is not a rect string such as {{0, 0}, {320, 480}}")
        return nil
      }
      return rectValue(x: x, y: y, width: width, height: height)
    case .range:
      let indexes = Int64(0)...Int64(Int.max)
      guard
        let location = requiredIntegerField(
          fields, "NS.rangeval.location", of: "NSValue", in: indexes),
        let length = requiredIntegerField(fields, "NS.rangeval.length", of: "NSValue", in: indexes)
      else { return nil }
      let range = NSRange(location: Int(location), length: Int(length))
      let value = NSValue(range: range)
      builtContents[ObjectIdentifier(value)] = .range(range)
      return value
    case .edgeInsets:
      return buildEdgeInsets(fields)
    }
  }

  private func geometryPair(_ fields: PropertyListDictionary, _ key: String) -> (Double, Double)? {
    guard let text = requiredStringObjectField(fields, key, of: "NSValue") else { return nil }
    guard let pair = GeometryString.pair(text) else {
      failAt(key, .malformed, "'\(text.prefix(80))' is not a string such as {1, 2}")
      return nil
    }
    return pair
  }

  private func buildEdgeInsets(_ fields: PropertyListDictionary) -> AnyObject? {
    var values: [Double] = []
    for side in ["top", "left", "bottom", "right"] {
      let key = "NS.edgeval." + side
      guard fields[key] != nil else {
        failAt(key, .missingField, "NSValue has no \(key)")
        return nil
      }
      guard let value = doubleField(fields, key) else { return nil }
      values.append(value)
    }
    #if os(macOS) || !canImport(Darwin)
      return NSValue(
        edgeInsets: NSEdgeInsets(
          top: values[0], left: values[1], bottom: values[2], right: values[3]))
    #else
      return refuseMacOSValue("NS.special", "edge insets", initializer: "edgeInsets")
    #endif
  }

  // NSValue's geometry forms are macOS Foundation (and corelibs); iOS's geometry values are
  // UIKit's CGPoint additions, outside Foundation, so there the harness refuses them.

  private func pointValue(x: Double, y: Double) -> AnyObject? {
    #if os(macOS) || !canImport(Darwin)
      return NSValue(point: CGPoint(x: x, y: y))
    #else
      return refuseMacOSValue("NS.pointval", "a point", initializer: "point")
    #endif
  }

  private func sizeValue(width: Double, height: Double) -> AnyObject? {
    #if os(macOS) || !canImport(Darwin)
      return NSValue(size: CGSize(width: width, height: height))
    #else
      return refuseMacOSValue("NS.sizeval", "a size", initializer: "size")
    #endif
  }

  private func rectValue(x: Double, y: Double, width: Double, height: Double) -> AnyObject? {
    #if os(macOS) || !canImport(Darwin)
      return NSValue(rect: CGRect(x: x, y: y, width: width, height: height))
    #else
      return refuseMacOSValue("NS.rectval", "a rect", initializer: "rect")
    #endif
  }

  #if canImport(Darwin) && !os(macOS)
    /// Records the refusal of an NSValue form that only macOS Foundation builds.
    private func refuseMacOSValue(_ key: String, _ form: String, initializer: String)
      -> AnyObject?
    {
      failAt(
        key, .malformed,
        "NSValue holds \(form), a macOS form: this platform's Foundation has no "
          + "NSValue(\(initializer):) (UIKit's CGPoint-based values are outside Foundation)")
      return nil
    }
  #endif

  func buildIndexSet(_ fields: PropertyListDictionary, mutable: Bool) -> AnyObject? {
    let indexes = Int64(0)...Int64(Int.max - 1)
    let rangeCount = integerField(fields, "NSRangeCount", in: indexes) ?? 0
    guard failure == nil else { return nil }
    var ranges: [(location: Int, length: Int)] = []
    var rangeKey = "NSLength"
    if rangeCount == 1 {
      let location = integerField(fields, "NSLocation", in: indexes) ?? 0
      let length = integerField(fields, "NSLength", in: indexes) ?? 0
      guard failure == nil else { return nil }
      ranges = [(Int(location), Int(length))]
    } else if rangeCount > 1 {
      rangeKey = "NSRangeData"
      guard fields["NSRangeData"] != nil else {
        failAt(
          "NSRangeData", .missingField,
          "NSIndexSet has \(rangeCount) ranges but no NSRangeData")
        return nil
      }
      guard let bytes = dataObjectField(fields, "NSRangeData") else { return nil }
      guard rangeCount <= Int64(bytes.count / 2) else {
        failAt(
          "NSRangeData", .limitExceeded,
          "\(rangeCount) ranges are declared but the data has only \(bytes.count) bytes")
        return nil
      }
      guard let pairs = leb128Run(bytes, count: Int(rangeCount) * 2, key: "NSRangeData") else {
        return nil
      }
      ranges = stride(from: 0, to: pairs.count, by: 2).map { (pairs[$0], pairs[$0 + 1]) }
    }
    guard let merged = mergedRanges(ranges, key: rangeKey) else { return nil }
    let result = NSMutableIndexSet()
    for range in merged {
      result.add(in: NSRange(location: range.location, length: range.length))
    }
    return mutable ? result : NSIndexSet(indexSet: result as IndexSet)
  }

  /// The ranges sorted, with overlapping and adjacent ones merged, so that each is added to the
  /// index set apart from the others: corelibs' NSMutableIndexSet traps merging a range that
  /// ends at NSNotFound into others.
  private func mergedRanges(_ ranges: [(location: Int, length: Int)], key: String)
    -> [(location: Int, length: Int)]?
  {
    var sorted: [(start: Int, end: Int)] = []
    for (location, length) in ranges where length > 0 {
      guard location <= Int.max - length else {
        failAt(key, .limitExceeded, "the range {\(location), \(length)} ends past NSNotFound")
        return nil
      }
      sorted.append((location, location + length))
    }
    sorted.sort { $0.start < $1.start }
    var merged: [(start: Int, end: Int)] = []
    for range in sorted {
      if let last = merged.last, range.start <= last.end {
        merged[merged.count - 1].end = max(last.end, range.end)
      } else {
        merged.append(range)
      }
    }
    return merged.map { ($0.start, $0.end - $0.start) }
  }

  /// Reads `count` LEB128 integers under a key; secure mode also requires the data to hold
  /// exactly that many, as Apple's secure readers do.
  private func leb128Run(_ bytes: [UInt8], count: Int, key: String) -> [Int]? {
    guard count <= bytes.count else {
      failAt(
        key, .limitExceeded,
        "\(count) integers are declared but the data has only \(bytes.count) bytes")
      return nil
    }
    if secure, Self.leb128Count(bytes) != count {
      failAt(
        key, .malformed,
        "the data holds \(Self.leb128Count(bytes)) integers, not the \(count) declared")
      return nil
    }
    guard let (values, _) = Self.leb128Integers(bytes, count: count) else {
      failAt(key, .malformed, "the data ends inside an integer or an integer is too large")
      return nil
    }
    return values
  }

  func buildIndexPath(_ fields: PropertyListDictionary) -> AnyObject? {
    guard
      let length = requiredIntegerField(
        fields, "NSIndexPathLength", of: "NSIndexPath", in: 0...Int64(Int32.max))
    else { return nil }
    var indexes: [Int] = []
    if length == 1 {
      indexes = [Int(integerField(fields, "NSIndexPathValue", in: 0...Int64(Int.max)) ?? 0)]
      guard failure == nil else { return nil }
    } else if length > 1 {
      guard fields["NSIndexPathData"] != nil else {
        failAt(
          "NSIndexPathData", .missingField,
          "NSIndexPath of length \(length) has no NSIndexPathData")
        return nil
      }
      guard let bytes = dataObjectField(fields, "NSIndexPathData"),
        let values = leb128Run(bytes, count: Int(length), key: "NSIndexPathData")
      else { return nil }
      indexes = values
    }
    return indexes.withUnsafeBufferPointer { buffer in
      NSIndexPath(indexes: buffer.baseAddress, length: buffer.count)
    }
  }
}
