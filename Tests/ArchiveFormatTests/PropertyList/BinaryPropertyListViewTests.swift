import ArchiveFormat
import HarnessTestSupport
import Testing

/// The view over a binary property list: checked once as the reader checks, then read in place.
@Suite("Binary property lists read in place (BinaryPropertyListView)")
struct BinaryPropertyListViewTests {
  /// The view's tree, or the view's error, beside the reader's.
  private func expectAgreement(
    _ bytes: [UInt8], limits: PropertyListLimits = .default, refusesRepeatedKeys: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let reader = PropertyListReader(limits: limits, refusesRepeatedKeys: refusesRepeatedKeys)
    let tree = Result { () throws(PropertyListError) in try reader.read(bytes) }
    let view = Result { () throws(PropertyListError) in try reader.binaryView(bytes) }
    if PropertyListReader.format(of: bytes) != .binary, bytes.count <= limits.maximumInputSize {
      // An XML list (or no list) has no binary view.
      if case .success(let found) = view, found == nil { return }
      Issue.record("a list that is not binary gave \(view)", sourceLocation: sourceLocation)
      return
    }
    switch (tree, view) {
    case (.success(let value), .success(let view?)):
      #expect(view.value(view.top) == value, sourceLocation: sourceLocation)
    case (.failure(let treeError), .failure(let viewError)):
      #expect(viewError == treeError, sourceLocation: sourceLocation)
    default:
      Issue.record("the view gave \(view), the reader \(tree)", sourceLocation: sourceLocation)
    }
  }

  /// The error the view gives, after checking that the reader gives the same one.
  private func refusal(
    _ bytes: [UInt8], limits: PropertyListLimits = .default, refusesRepeatedKeys: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> PropertyListError? {
    expectAgreement(
      bytes, limits: limits, refusesRepeatedKeys: refusesRepeatedKeys,
      sourceLocation: sourceLocation)
    do {
      _ = try PropertyListReader(limits: limits, refusesRepeatedKeys: refusesRepeatedKeys)
        .binaryView(bytes)
      Issue.record("the view accepted the list", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  private func list(_ objects: [[UInt8]], top: UInt64 = 0) -> [UInt8] {
    var builder = BinaryPlistBuilder(objects: objects)
    builder.top = top
    return builder.build()
  }

  @Test(
    "Every real archive gives through the view the tree the reader gives",
    arguments: Corpus.allFiles)
  func realArchivesAgree(file: String) throws {
    expectAgreement(try Corpus.bytes(file))
  }

  @Test("An XML list has no binary view")
  func xmlHasNoView() throws {
    let bytes = Array(XMLPropertyListWriter().write(.string("x")).utf8)
    #expect(try PropertyListReader().binaryView(bytes) == nil)
  }

  @Test("Scalars read in place equal the tree's, strings as ranges with their encoding")
  func scalarsReadInPlace() throws {
    let value: PropertyListValue = .array([
      .string("ascii"), .string("ünïcødé 🎉"), .integer(-7), .unsignedInteger(UInt64.max),
      .real(1.5), .bool(true), .date(-1.25), .data([0, 1, 2]), .uid(7),
      .dictionary(["k": .string("v")]),
    ])
    let bytes = BinaryPropertyListWriter().write(value)
    let view = try #require(try PropertyListReader().binaryView(bytes))
    #expect(view.kind(of: view.top) == .array)
    #expect(view.count(of: view.top) == 10)
    let ascii = try #require(view.element(view.top, at: 0))
    let storage = try #require(view.stringStorage(ascii))
    #expect(storage.encoding == .ascii)
    #expect(Array(bytes[storage.range]) == Array("ascii".utf8))
    #expect(view.string(ascii, equals: "ascii"))
    #expect(!view.string(ascii, equals: "asci"))
    let unicode = try #require(view.element(view.top, at: 1))
    #expect(view.stringStorage(unicode)?.encoding == .utf16BigEndian)
    #expect(view.string(unicode) == "ünïcødé 🎉")
    #expect(view.integer(try #require(view.element(view.top, at: 2))) == .integer(-7))
    #expect(
      view.integer(try #require(view.element(view.top, at: 3))) == .unsignedInteger(UInt64.max))
    #expect(view.real(try #require(view.element(view.top, at: 4))) == 1.5)
    #expect(view.bool(try #require(view.element(view.top, at: 5))) == true)
    #expect(view.date(try #require(view.element(view.top, at: 6))) == -1.25)
    let data = try #require(view.element(view.top, at: 7))
    #expect(view.dataRange(data).map { Array(bytes[$0]) } == [0, 1, 2])
    #expect(view.uid(try #require(view.element(view.top, at: 8))) == 7)
    let dictionary = try #require(view.element(view.top, at: 9))
    #expect(view.member(dictionary, named: "k").flatMap(view.string) == "v")
    #expect(view.member(dictionary, named: "missing") == nil)
    #expect(view.value(view.top) == value)
  }

  @Test("Indexes the top object does not reach answer nil, and out-of-range ones too")
  func uncheckedIndexesAnswerNil() throws {
    // Object 1 is never referenced, so it is never checked: an unknown marker.
    let view = try #require(try PropertyListReader().binaryView(list([[0x09], [0xF0]])))
    #expect(view.kind(of: 0) == .bool)
    #expect(view.kind(of: 1) == nil)
    #expect(view.kind(of: 2) == nil)
    #expect(view.kind(of: -1) == nil)
    #expect(view.element(0, at: 0) == nil)
    #expect(view.string(1) == nil)
  }

  @Test("A repeated key keeps its first place and its last value in the view, as in the tree")
  func repeatedKeyMerges() throws {
    // { a: 1, b: 2, a: 3 } with keys 1, 2, 1 and values 3, 4, 5.
    let bytes = list([
      [0xD3, 1, 2, 1, 3, 4, 5], [0x51, 0x61], [0x51, 0x62], [0x10, 1], [0x10, 2], [0x10, 3],
    ])
    let view = try #require(try PropertyListReader().binaryView(bytes))
    #expect(view.mayRepeatKeys(view.top))
    #expect(view.members(of: view.top).map(\.key) == ["a", "b"])
    #expect(view.member(view.top, named: "a").flatMap(view.integer) == .integer(3))
    expectAgreement(bytes)
  }

  @Test("A large string that many references share is built once, as the reader builds it")
  func sharedStringIsBuiltOnce() throws {
    // An array of 200,000 references to one string of 1 MiB: 200 GB if each reference
    // built its own copy, 1 MiB when they share it.
    let references = 200_000
    var array: [UInt8] = [0xAF, 0x12]
    BinaryPlistBuilder.append(UInt64(references), width: 4, to: &array)
    array += [UInt8](repeating: 1, count: references)
    var string: [UInt8] = [0x5F, 0x12]
    BinaryPlistBuilder.append(1 << 20, width: 4, to: &string)
    string += [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
    let bytes = list([array, string])
    let view = try #require(try PropertyListReader().binaryView(bytes))
    let elements = try #require(view.value(view.top).arrayValue)
    #expect(elements.count == references)
    #expect(elements.last?.stringValue?.utf8.count == 1 << 20)
  }

  // MARK: - Refusals, each with the reader's code and offset

  @Test("Refuses a list shorter than its header and trailer")
  func refusesShortList() {
    #expect(refusal(Array("bplist00".utf8) + [0, 0])?.code == .truncated)
  }

  @Test("Refuses an offset-table entry outside the objects")
  func refusesBadOffset() {
    var builder = BinaryPlistBuilder(objects: [[0x09]])
    builder.offsetOverrides = [0: 200]
    #expect(refusal(builder.build())?.code == .invalidOffset)
  }

  @Test("Refuses an object reference past the object count")
  func refusesBadReference() {
    #expect(refusal(list([[0xA1, 9]]))?.code == .invalidOffset)
  }

  @Test("Refuses an array that contains itself")
  func refusesCycle() {
    #expect(refusal(list([[0xA1, 0]]))?.code == .cyclicReference)
  }

  @Test("Refuses an unknown marker")
  func refusesUnknownMarker() {
    #expect(refusal(list([[0xF0]]))?.code == .invalidMarker)
  }

  @Test("Refuses sets")
  func refusesSets() {
    #expect(refusal(list([[0xC0]]))?.code == .unsupported)
  }

  @Test("Refuses an ASCII string with a byte above 0x7F")
  func refusesNonASCII() {
    #expect(refusal(list([[0x51, 0xC3]]))?.code == .invalidString)
  }

  @Test("Refuses a UTF-16 string with an unpaired surrogate")
  func refusesUnpairedSurrogate() {
    #expect(refusal(list([[0x61, 0xD8, 0x00]]))?.code == .invalidString)
  }

  @Test("Refuses a UTF-8 string that is not valid UTF-8")
  func refusesInvalidUTF8() {
    #expect(refusal(list([[0x71, 0xFF]]))?.code == .invalidString)
  }

  @Test("Refuses a dictionary key that is not a string")
  func refusesNonStringKey() {
    #expect(refusal(list([[0xD1, 1, 1], [0x10, 1]]))?.code == .invalidKey)
  }

  @Test("Refuses a repeated key when asked, at the second key's reference")
  func refusesRepeatedKeyWhenAsked() {
    let bytes = list([[0xD2, 1, 1, 2, 2], [0x51, 0x61], [0x10, 1]])
    let error = refusal(bytes, refusesRepeatedKeys: true)
    #expect(error?.code == .repeatedKey)
    #expect(error?.offset == 10)
  }

  @Test("Refuses a repeated key when asked in a dictionary of more than 16 keys")
  func refusesRepeatedKeyInLargeDictionary() {
    // 17 keys: "a" … "p", then "a" again; every value is object 1.
    var objects: [[UInt8]] = [[0xDF, 0x10, 17], [0x10, 0]]
    for letter in UInt8(ascii: "a")...UInt8(ascii: "p") { objects.append([0x51, letter]) }
    objects[0] += (2...17).map { UInt8($0) } + [2] + [UInt8](repeating: 1, count: 17)
    #expect(refusal(list(objects), refusesRepeatedKeys: true)?.code == .repeatedKey)
    expectAgreement(list(objects))
  }

  @Test("Refuses a canonically equal spelling of a key when asked, as the reader does")
  func refusesCanonicallyEqualKey() {
    // "é" precomposed (UTF-16 00E9) and decomposed (0065 0301).
    let bytes = list([
      [0xD2, 1, 2, 3, 3], [0x61, 0x00, 0xE9], [0x62, 0x00, 0x65, 0x03, 0x01], [0x10, 1],
    ])
    #expect(refusal(bytes, refusesRepeatedKeys: true)?.code == .repeatedKey)
    expectAgreement(bytes)
  }

  @Test("Refuses nesting past the depth limit")
  func refusesDeepNesting() {
    var limits = PropertyListLimits()
    limits.maximumDepth = 2
    let bytes = list([[0xA1, 1], [0xA1, 2], [0xA1, 3], [0x09]])
    #expect(refusal(bytes, limits: limits)?.code == .limitExceeded)
  }

  @Test("Refuses a shared subtree that a deeper reference puts past the depth limit")
  func refusesSharedSubtreeTooDeep() {
    var limits = PropertyListLimits()
    limits.maximumDepth = 3
    // Top holds 3 (height 1) first, then 1 → 2 → 3, which puts 3 at depth 3 and its child at 4.
    let bytes = list([[0xA2, 3, 1], [0xA1, 2], [0xA1, 3], [0xA1, 4], [0x09]])
    #expect(refusal(bytes, limits: limits)?.code == .limitExceeded)
  }

  @Test("Refuses a container over the element limit")
  func refusesLargeContainer() {
    var limits = PropertyListLimits()
    limits.maximumContainerCount = 2
    #expect(refusal(list([[0xA3, 1, 1, 1], [0x09]]), limits: limits)?.code == .limitExceeded)
  }

  @Test("Refuses a string over the length limit")
  func refusesLongString() {
    var limits = PropertyListLimits()
    limits.maximumStringLength = 2
    #expect(refusal(list([[0x53, 0x61, 0x62, 0x63]]), limits: limits)?.code == .limitExceeded)
  }

  @Test("Refuses an input over the size limit before reading it")
  func refusesLargeInput() {
    var limits = PropertyListLimits()
    limits.maximumInputSize = 16
    let error = refusal(list([[0x09]]), limits: limits)
    #expect(error?.code == .limitExceeded)
    #expect(error?.offset == 0)
  }

  @Test("Refuses shared references that expand past the file's size")
  func refusesExpandingSharedReferences() {
    // Each array holds the next twice: 2^12 logical values from 13 objects.
    var objects: [[UInt8]] = (0..<12).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
    objects.append([0x09])
    #expect(refusal(list(objects))?.code == .limitExceeded)
  }

  @Test("Refuses a count that runs past the objects")
  func refusesTruncatedCount() {
    #expect(refusal(list([[0x5F, 0x10, 0x7F, 0x61]]))?.code == .truncated)
  }
}
