import ArchiveFormat
import HarnessTestSupport
import Testing

/// Integer edges: 128-bit values, negative counts, offset tables that overlap the trailer, odd sizes.
@Suite("Integer edge cases")
struct IntegerEdgeTests {
  /// A 128-bit integer object.
  static func integer128(high: UInt64, low: UInt64) -> [UInt8] {
    var bytes: [UInt8] = [0x14]
    BinaryPlistBuilder.append(high, width: 8, to: &bytes)
    BinaryPlistBuilder.append(low, width: 8, to: &bytes)
    return bytes
  }

  @Test(
    "128-bit integers read when they fit in 64 bits and are refused when they do not",
    arguments: [
      (UInt64(0), UInt64.max, PropertyListValue.unsignedInteger(.max)),
      (0, 5, .integer(5)),
      (UInt64.max, UInt64(bitPattern: -1), .integer(-1)),
      (UInt64.max, UInt64(bitPattern: Int64.min), .integer(.min)),
      (1, 0, nil),
      (UInt64.max, 5, nil),
      (UInt64(1) << 63, 0, nil),
    ] as [(UInt64, UInt64, PropertyListValue?)])
  func integers128(high: UInt64, low: UInt64, expected: PropertyListValue?) throws {
    let bytes = HostileInput.binaryList([Self.integer128(high: high, low: low)])
    if let expected {
      #expect(try PropertyListReader().read(bytes) == expected)
    } else {
      #expect(HostileInput.plistError(bytes)?.code == .invalidNumber)
    }
  }

  @Test("A 128-bit field value prints, serialises and re-encodes through the archive")
  func integer128ThroughTheArchive() throws {
    let bytes = HostileInput.archive(payload: [Self.integer128(high: 0, low: UInt64.max)])
    let archive = try KeyedArchive(bytes: bytes)
    let tree = ArchiveTreePrinter().render(archive)
    #expect(tree.contains("payload = 18446744073709551615"))
    let json = ArchiveJSON.text(for: archive)
    #expect(json.contains("18446744073709551615"))
    try HostileInput.walkEverything(archive)
  }

  @Test(
    "Integer objects wider than 16 bytes are refused", arguments: [UInt8(0x15), 0x16, 0x1F])
  func integersWiderThan128Bits(marker: UInt8) throws {
    let object = [marker] + [UInt8](repeating: 0, count: 40)
    #expect(HostileInput.plistError(HostileInput.binaryList([object]))?.code == .invalidMarker)
  }

  @Test(
    "Negative counts are refused for every kind of object",
    arguments: [Int64(-1), -5, Int64.min, Int64(Int32.min)])
  func negativeCounts(count: Int64) throws {
    for marker: UInt8 in [0x40, 0x50, 0x60, 0x70, 0xA0, 0xD0] {
      let object = HostileInput.marker(
        marker, count: UInt64(bitPattern: count), countWidthExponent: 3)
      let failure = HostileInput.plistError(HostileInput.binaryList([object]))
      #expect(failure?.code == .truncated, "marker \(marker), count \(count)")
    }
  }

  @Test("Counts whose integer marker is not a plain integer are refused")
  func countsWithBadIntegerMarkers() throws {
    for countMarker: UInt8 in [0x14, 0x20, 0x80, 0x00, 0x1F] {
      let object: [UInt8] = [0xAF, countMarker] + [UInt8](repeating: 0, count: 17)
      let failure = HostileInput.plistError(HostileInput.binaryList([object]))
      #expect(failure?.code == .invalidMarker, "count marker \(countMarker)")
    }
  }

  @Test("An offset table that overlaps the trailer is refused")
  func offsetTableOverlappingTrailer() throws {
    let objects = [HostileInput.ascii("a"), HostileInput.ascii("b")]
    let good = HostileInput.binaryList(objects)
    let table = UInt64(good.count - 32 - 2 * 4)
    for shift: UInt64 in [1, 4, 7, 8] {
      var builder = BinaryPlistBuilder(objects: objects)
      builder.offsetSize = 4
      builder.referenceSize = 4
      builder.declaredTableOffset = table + shift
      let failure = HostileInput.plistError(builder.build())
      #expect(failure?.code == .invalidTrailer, "table moved \(shift) bytes into the trailer")
    }
  }

  @Test("Offset-table entries that point into the header, the table or the trailer are refused")
  func offsetEntriesOutsideTheObjects() throws {
    let objects = [HostileInput.array([1], width: 1), HostileInput.ascii("a")]
    let size = HostileInput.binaryList(objects).count
    let table = size - 32 - 2 * 4
    for target in [0, 7, table, table + 4, size - 32, size - 1, size, Int(Int32.max)] {
      var builder = BinaryPlistBuilder(objects: objects)
      builder.offsetSize = 4
      builder.offsetOverrides = [1: UInt64(target)]
      let failure = HostileInput.plistError(builder.build())
      #expect(failure?.code == .invalidOffset, "entry pointing to \(target)")
    }
  }

  @Test(
    "Offset and reference sizes of 0 or 9 and more are refused",
    arguments: [(UInt8(0), UInt8(1)), (9, 1), (255, 1), (1, 0), (1, 9), (1, 255), (0, 0)])
  func offsetAndReferenceSizes(offsetSize: UInt8, referenceSize: UInt8) throws {
    var bytes = HostileInput.binaryList([HostileInput.ascii("a")])
    bytes[bytes.count - 26] = offsetSize
    bytes[bytes.count - 25] = referenceSize
    #expect(HostileInput.plistError(bytes)?.code == .invalidTrailer)
  }

  @Test("Odd offset and reference sizes from 1 to 8 all read", arguments: 1...8)
  func oddSizesRead(size: Int) throws {
    // Assembled by hand: an array holding one string, at the given widths.
    var bytes = Array("bplist00".utf8)
    let arrayOffset = bytes.count
    bytes.append(0xA1)
    BinaryPlistBuilder.append(1, width: size, to: &bytes)
    let stringOffset = bytes.count
    bytes += HostileInput.ascii("ok")
    let table = bytes.count
    BinaryPlistBuilder.append(UInt64(arrayOffset), width: size, to: &bytes)
    BinaryPlistBuilder.append(UInt64(stringOffset), width: size, to: &bytes)
    bytes += [0, 0, 0, 0, 0, 0, UInt8(size), UInt8(size)]
    BinaryPlistBuilder.append(2, width: 8, to: &bytes)
    BinaryPlistBuilder.append(0, width: 8, to: &bytes)
    BinaryPlistBuilder.append(UInt64(table), width: 8, to: &bytes)
    #expect(try PropertyListReader().read(bytes) == .array([.string("ok")]))
  }

  @Test("A top object index at or past the object count is refused")
  func topPastTheObjects() throws {
    for top: UInt64 in [1, 2, UInt64(Int64.max), UInt64.max] {
      let bytes = HostileInput.binaryList([HostileInput.ascii("a")], top: top)
      #expect(HostileInput.plistError(bytes)?.code == .invalidTrailer, "top \(top)")
    }
  }

  @Test("UIDs of 2^63 and more name their key path instead of trapping on conversion")
  func hugeUIDs() throws {
    for uid in [UInt64(1) << 63, UInt64.max, UInt64(Int64.max)] {
      var object: [UInt8] = [0x87]
      BinaryPlistBuilder.append(uid, width: 8, to: &object)
      let failure = HostileInput.archiveError(HostileInput.archive(payload: [object]))
      #expect(failure?.code == .uidOutOfRange, "uid \(uid)")
      #expect(failure?.keyPath == "$objects[1].payload", "uid \(uid)")
      let nested = HostileInput.archive(payload: [
        HostileInput.array([HostileInput.payloadIndex + 1], width: 4), object,
      ])
      #expect(HostileInput.archiveError(nested)?.keyPath == "$objects[1].payload[0]")
    }
  }

  @Test("UIDs wider than 8 bytes are refused", arguments: [UInt8(0x88), 0x8F])
  func widerUIDs(marker: UInt8) throws {
    let object = [marker] + [UInt8](repeating: 1, count: 16)
    #expect(HostileInput.plistError(HostileInput.binaryList([object]))?.code == .invalidMarker)
  }
}
