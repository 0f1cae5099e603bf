import ArchiveFormat
import HarnessTestSupport
import Testing

@Suite("Binary property-list reader")
struct BinaryReaderTests {
  private func read(_ bytes: [UInt8], limits: PropertyListLimits = .default) throws
    -> PropertyListValue
  {
    try PropertyListReader(limits: limits).read(bytes)
  }

  private func error(
    _ bytes: [UInt8], limits: PropertyListLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> PropertyListError {
    do {
      let value = try PropertyListReader(limits: limits).read(bytes)
      Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
      throw PropertyListError(.invalidXML, at: -1, "no error")
    } catch let error as PropertyListError {
      return error
    }
  }

  @Test("Reads every scalar type")
  func readsScalars() throws {
    let value: PropertyListValue = .array([
      .string("ascii"), .string("ünïcødé 🎉"), .integer(0), .integer(255), .integer(65_536),
      .integer(-1), .integer(Int64.min), .unsignedInteger(UInt64.max), .real(1.5), .bool(true),
      .bool(false), .date(-1.25), .data([0, 1, 2]), .uid(7), .dictionary(["k": .string("v")]),
    ])
    let bytes = BinaryPropertyListWriter().write(value)
    #expect(try read(bytes) == value)
  }

  @Test("Reads the 128-bit integer form Apple writes for values above Int64.max")
  func reads128BitIntegers() throws {
    var object: [UInt8] = [0x14]
    BinaryPlistBuilder.append(0, width: 8, to: &object)
    BinaryPlistBuilder.append(UInt64(Int64.max) + 5, width: 8, to: &object)
    let bytes = BinaryPlistBuilder(objects: [object]).build()
    #expect(try read(bytes) == .unsignedInteger(UInt64(Int64.max) + 5))
  }

  @Test("Rejects a 128-bit integer that does not fit in 64 bits")
  func rejectsWide128BitIntegers() throws {
    var object: [UInt8] = [0x14]
    BinaryPlistBuilder.append(1, width: 8, to: &object)
    BinaryPlistBuilder.append(0, width: 8, to: &object)
    let failure = try error(BinaryPlistBuilder(objects: [object]).build())
    #expect(failure.code == .invalidNumber)
    #expect(failure.offset == 8)
  }

  @Test("Reads single-precision reals")
  func readsFloats() throws {
    var object: [UInt8] = [0x22]
    BinaryPlistBuilder.append(UInt64(Float(2.5).bitPattern), width: 4, to: &object)
    #expect(try read(BinaryPlistBuilder(objects: [object]).build()) == .real(2.5))
  }

  @Test("Reads long strings and containers with extended counts")
  func readsExtendedCounts() throws {
    let long = String(repeating: "x", count: 300)
    let value: PropertyListValue = .array((0..<40).map { .string(long + String($0)) })
    #expect(try read(BinaryPropertyListWriter().write(value)) == value)
  }

  @Test("Rejects input truncated at every offset")
  func rejectsTruncationAtEveryOffset() throws {
    let value: PropertyListValue = .dictionary([
      "$archiver": .string("NSKeyedArchiver"), "$objects": .array([.string("$null"), .uid(0)]),
      "n": .integer(300), "d": .date(1),
    ])
    let bytes = BinaryPropertyListWriter().write(value)
    for length in 0..<bytes.count {
      #expect(throws: PropertyListError.self, "prefix of \(length) bytes") {
        _ = try PropertyListReader().read(Array(bytes[..<length]))
      }
    }
  }

  @Test("Rejects an offset table outside the file")
  func rejectsOffsetTableOutsideFile() throws {
    var builder = BinaryPlistBuilder(objects: [BinaryPlistBuilder.ascii("a")])
    builder.declaredTableOffset = 1 << 40
    let failure = try error(builder.build())
    #expect(failure.code == .invalidTrailer)
    #expect(failure.message.contains("outside the file"))
  }

  @Test("Rejects an offset-table entry that points into the trailer")
  func rejectsOffsetIntoTrailer() throws {
    var builder = BinaryPlistBuilder(objects: [BinaryPlistBuilder.ascii("a")])
    builder.offsetOverrides = [0: 12]
    let bytes = builder.build()
    var pointing = builder
    pointing.offsetOverrides = [0: UInt64(bytes.count - 10)]
    let failure = try error(pointing.build())
    #expect(failure.code == .invalidOffset)
  }

  @Test("Rejects an object count of 2^62")
  func rejectsHugeObjectCount() throws {
    var builder = BinaryPlistBuilder(objects: [BinaryPlistBuilder.ascii("a")])
    builder.declaredObjectCount = 1 << 62
    let failure = try error(builder.build())
    #expect(failure.code == .limitExceeded)
    #expect(failure.message.contains("4611686018427387904"))
  }

  @Test("Rejects an object count larger than the offset table")
  func rejectsObjectCountBeyondTable() throws {
    var builder = BinaryPlistBuilder(objects: [BinaryPlistBuilder.ascii("a")])
    builder.declaredObjectCount = 1000
    #expect(try error(builder.build()).code == .invalidTrailer)
  }

  /// An array of `count - 1` one-byte references, to as many small integers: `count` objects.
  private static func arrayOfIntegers(objects count: Int) -> BinaryPlistBuilder {
    let elements = count - 1
    let header: [UInt8] = [0xAF, 0x11, UInt8(elements >> 8), UInt8(elements & 0xFF)]
    let references = (1...elements).map { UInt8($0) }
    let integers = (1...elements).map { [0x10, UInt8(truncatingIfNeeded: $0)] }
    return BinaryPlistBuilder(objects: [header + references] + integers)
  }

  @Test("Rejects 256 objects in one-byte references, as Apple's reader does")
  func rejects256ObjectsInOneByteReferences() throws {
    let failure = try error(Self.arrayOfIntegers(objects: 256).build())
    #expect(failure.code == .invalidTrailer)
    #expect(failure.message.contains("cannot address 256 objects"))
  }

  @Test("Reads 255 objects in one-byte references")
  func reads255ObjectsInOneByteReferences() throws {
    let value = try PropertyListReader().read(Self.arrayOfIntegers(objects: 255).build())
    #expect(value.arrayValue?.count == 254)
  }

  @Test("Rejects an offset size of 0")
  func rejectsOffsetSizeZero() throws {
    var builder = BinaryPlistBuilder(objects: [BinaryPlistBuilder.ascii("a")])
    builder.offsetSize = 0
    #expect(try error(builder.build()).code == .invalidTrailer)
  }

  @Test("Rejects an offset size of 9")
  func rejectsOffsetSizeNine() throws {
    var builder = BinaryPlistBuilder(objects: [BinaryPlistBuilder.ascii("a")])
    builder.offsetSize = 9
    #expect(try error(builder.build()).code == .invalidTrailer)
  }

  @Test("Rejects a reference past the object count")
  func rejectsReferencePastEnd() throws {
    let bytes = BinaryPlistBuilder(objects: [BinaryPlistBuilder.array([5])]).build()
    let failure = try error(bytes)
    #expect(failure.code == .invalidOffset)
    #expect(failure.offset == 9)
  }

  @Test("Rejects a container that contains itself")
  func rejectsSelfReferencingContainer() throws {
    let bytes = BinaryPlistBuilder(objects: [BinaryPlistBuilder.array([0])]).build()
    #expect(try error(bytes).code == .cyclicReference)
  }

  @Test("Rejects 100,000-deep nesting without overflowing the stack")
  func rejectsDeepBinaryNesting() throws {
    let depth = 100_000
    var objects: [[UInt8]] = []
    for index in 0..<depth {
      var object: [UInt8] = [0xA1]
      BinaryPlistBuilder.append(UInt64(min(index + 1, depth - 1)), width: 4, to: &object)
      objects.append(index == depth - 1 ? [0xA0] : object)
    }
    var builder = BinaryPlistBuilder(objects: objects)
    builder.referenceSize = 4
    builder.offsetSize = 4
    let failure = try error(builder.build())
    #expect(failure.code == .limitExceeded)
    #expect(failure.message.contains("nesting"))
  }

  @Test("Rejects a shared subtree that sits deeper than the depth limit at a later reference")
  func rejectsSharedSubtreeBelowDepthLimit() throws {
    var limits = PropertyListLimits.default
    limits.maximumDepth = 4
    let failure = try error(SharedSubtreeList.bytes, limits: limits)
    #expect(failure.code == .limitExceeded)
    #expect(failure.message.contains("nesting"))
    limits.maximumDepth = 6
    let value = try read(SharedSubtreeList.bytes, limits: limits)
    let chain: PropertyListValue = .array([.array([.string("leaf")])])
    #expect(value == .array([chain, .array([.array([.array([chain])])])]))
  }

  @Test("Rejects chains that share each other into a tree 60,000 deep, without crashing")
  func rejectsDeepTreeBuiltFromSharedChains() throws {
    // 120 chains of 500 arrays; each chain's last array holds the previous
    // chain, and the top array lists every chain, so each is first read near
    // the top. A 4 MB data object keeps the file larger than the tree.
    let chains = 120
    let length = 500
    var objects: [[UInt8]] = [
      [], [0x4F, 0x12] + [0x00, 0x3D, 0x09, 0x00] + [UInt8](repeating: 0, count: 4_000_000),
    ]
    func reference(_ index: Int) -> [UInt8] {
      var bytes: [UInt8] = []
      BinaryPlistBuilder.append(UInt64(index), width: 4, to: &bytes)
      return bytes
    }
    objects.append(BinaryPlistBuilder.ascii("leaf"))
    var tops: [Int] = []
    var previous = 2
    for _ in 0..<chains {
      let first = objects.count
      for position in 0..<length {
        let next = position == length - 1 ? previous : first + position + 1
        objects.append([0xA1] + reference(next))
      }
      tops.append(first)
      previous = first
    }
    var top: [UInt8] = [0xAF, 0x10, UInt8(chains + 1)]
    for index in tops { top += reference(index) }
    top += reference(1)
    objects[0] = top
    var builder = BinaryPlistBuilder(objects: objects)
    builder.referenceSize = 4
    builder.offsetSize = 4
    let failure = try error(builder.build())
    #expect(failure.code == .limitExceeded)
    #expect(failure.message.contains("nesting"))
  }

  @Test("Rejects shared references that expand without bound")
  func rejectsReferenceBomb() throws {
    // Object i is an array holding object i+1 twice: 2^40 leaves from 41 objects.
    var objects: [[UInt8]] = (0..<40).map {
      BinaryPlistBuilder.array([UInt8($0 + 1), UInt8($0 + 1)])
    }
    objects.append(BinaryPlistBuilder.ascii("leaf"))
    let failure = try error(BinaryPlistBuilder(objects: objects).build())
    #expect(failure.code == .limitExceeded)
    #expect(failure.message.contains("shared references"))
  }

  @Test("Rejects a string length declared far beyond the file")
  func rejectsDeclaredLengthBeyondFile() throws {
    // A UTF-16 string claiming 2^31 units in a file of under 1 KB.
    var object: [UInt8] = [0x6F, 0x12]
    BinaryPlistBuilder.append(1 << 31, width: 4, to: &object)
    let failure = try error(BinaryPlistBuilder(objects: [object]).build())
    #expect(failure.code == .truncated || failure.code == .limitExceeded)
  }

  @Test("Rejects data whose length runs past the objects")
  func rejectsDataPastEnd() throws {
    let failure = try error(BinaryPlistBuilder(objects: [[0x4E, 1, 2]]).build())
    #expect(failure.code == .truncated)
    #expect(failure.offset == 8)
  }

  @Test("Rejects a negative count")
  func rejectsNegativeCount() throws {
    var object: [UInt8] = [0xAF, 0x13]
    BinaryPlistBuilder.append(UInt64(bitPattern: -5), width: 8, to: &object)
    #expect(try error(BinaryPlistBuilder(objects: [object]).build()).code == .truncated)
  }

  @Test("Rejects an unpaired UTF-16 surrogate")
  func rejectsInvalidUTF16() throws {
    let failure = try error(BinaryPlistBuilder(objects: [[0x61, 0xD8, 0x00]]).build())
    #expect(failure.code == .invalidString)
    #expect(failure.message.contains("D800"))
  }

  @Test("Rejects a reversed UTF-16 surrogate pair")
  func rejectsReversedSurrogates() throws {
    let failure = try error(BinaryPlistBuilder(objects: [[0x62, 0xDC, 0x00, 0xD8, 0x00]]).build())
    #expect(failure.code == .invalidString)
  }

  @Test("Rejects a non-ASCII byte in an ASCII string")
  func rejectsNonASCIIInASCIIString() throws {
    #expect(try error(BinaryPlistBuilder(objects: [[0x51, 0xE9]]).build()).code == .invalidString)
  }

  @Test("Rejects a non-string dictionary key")
  func rejectsNonStringKey() throws {
    let bytes = BinaryPlistBuilder(
      objects: [BinaryPlistBuilder.dictionary(keys: [1], values: [1]), [0x10, 0x01]]
    ).build()
    #expect(try error(bytes).code == .invalidKey)
  }

  @Test("Rejects input over the size limit before parsing")
  func rejectsOversizedInput() throws {
    var limits = PropertyListLimits()
    limits.maximumInputSize = 16
    let bytes = BinaryPropertyListWriter().write(.string("a longer string than sixteen bytes"))
    #expect(try error(bytes, limits: limits).code == .limitExceeded)
  }

  @Test("Rejects a string over the string-length limit")
  func rejectsLongString() throws {
    var limits = PropertyListLimits()
    limits.maximumStringLength = 10
    let bytes = BinaryPropertyListWriter().write(.string(String(repeating: "a", count: 11)))
    #expect(try error(bytes, limits: limits).code == .limitExceeded)
  }

  @Test("Rejects a container over the element-count limit")
  func rejectsLargeContainer() throws {
    var limits = PropertyListLimits()
    limits.maximumContainerCount = 3
    let bytes = BinaryPropertyListWriter().write(
      .array([.integer(1), .integer(2), .integer(3), .integer(4)]))
    #expect(try error(bytes, limits: limits).code == .limitExceeded)
  }

  @Test("Rejects bytes that are no property list")
  func rejectsGarbage() throws {
    #expect(try error(Array("hello, world".utf8)).code == .notAPropertyList)
  }
}
