import ArchiveFormat
import HarnessTestSupport
import Testing

/// `PropertyListReader.writeJSON` writes a binary list straight from its bytes; its text must be the
/// tree's, byte for byte, and a list the reader refuses must be refused the same way, with nothing written.
@Suite("JSON streamed from a binary property list")
struct StreamedJSONTests {
  /// The text `writeJSON(_:to:)` writes, or the error it throws with the text written before it.
  private func streamed(
    _ bytes: [UInt8], limits: PropertyListLimits = .default
  ) -> Result<String, PropertyListError> {
    var writer = JSONWriter(sortedKeys: false)
    do throws(PropertyListError) {
      try PropertyListReader(limits: limits).writeJSON(bytes, to: &writer)
      return .success(writer.text())
    } catch {
      #expect(writer.text().isEmpty, "text written before the error")
      return .failure(error)
    }
  }

  /// The text of the tree `read(_:)` returns, or its error.
  private func fromTree(
    _ bytes: [UInt8], limits: PropertyListLimits = .default
  ) -> Result<String, PropertyListError> {
    do throws(PropertyListError) {
      var writer = JSONWriter(sortedKeys: false)
      try PropertyListReader(limits: limits).read(bytes).writeJSON(to: &writer)
      return .success(writer.text())
    } catch {
      return .failure(error)
    }
  }

  private func expectSame(
    _ bytes: [UInt8], limits: PropertyListLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    switch (streamed(bytes, limits: limits), fromTree(bytes, limits: limits)) {
    case (.success(let streamed), .success(let tree)):
      #expect(streamed == tree, sourceLocation: sourceLocation)
    case (.failure(let streamed), .failure(let tree)):
      #expect(streamed.code == tree.code, sourceLocation: sourceLocation)
      #expect(streamed.place == tree.place, sourceLocation: sourceLocation)
      #expect(streamed.message == tree.message, sourceLocation: sourceLocation)
    case (let streamed, let tree):
      Issue.record("streamed \(streamed), tree \(tree)", sourceLocation: sourceLocation)
    }
  }

  @Test("Every real archive streams to the tree's JSON text", arguments: Corpus.validFiles)
  func realArchives(_ file: String) throws {
    let bytes = try Corpus.bytes(file)
    guard case .success(let text) = streamed(bytes) else {
      Issue.record("\(file) was refused")
      return
    }
    #expect(!text.isEmpty)
    expectSame(bytes)
  }

  @Test(
    "Every broken archive is refused with the reader's error, and nothing is written",
    arguments: Corpus.brokenFiles)
  func brokenArchives(_ file: String) throws {
    expectSame(try Corpus.bytes(file))
  }

  @Test("A key repeated in a small dictionary keeps its first place and takes its last value")
  func repeatedKeySmallDictionary() throws {
    // {"a": 1, "b": 2, "a": 3}, the two "a" keys separate objects.
    let objects: [[UInt8]] = [
      BinaryPlistBuilder.dictionary(keys: [1, 2, 3], values: [4, 5, 6]),
      BinaryPlistBuilder.ascii("a"), BinaryPlistBuilder.ascii("b"), BinaryPlistBuilder.ascii("a"),
      [0x10, 1], [0x10, 2], [0x10, 3],
    ]
    let bytes = BinaryPlistBuilder(objects: objects).build()
    #expect(try streamed(bytes).get() == "{\n  \"a\": 3,\n  \"b\": 2\n}")
    expectSame(bytes)
  }

  @Test("The same key object twice in one dictionary is one member")
  func sameKeyObjectTwice() {
    let objects: [[UInt8]] = [
      BinaryPlistBuilder.dictionary(keys: [1, 1], values: [2, 3]),
      BinaryPlistBuilder.ascii("k"), [0x10, 7], [0x10, 8],
    ]
    expectSame(BinaryPlistBuilder(objects: objects).build())
  }

  @Test("A key repeated in a dictionary of more than 16 keys is merged as the reader merges it")
  func repeatedKeyLargeDictionary() {
    // 17 keys k0…k15 and k3 again, each a separate object; values 0…16.
    let names = (0..<16).map { "k\($0)" } + ["k3"]
    var objects: [[UInt8]] = [
      [0xDF, 0x10, 17] + (1...17).map(UInt8.init) + (18...34).map(UInt8.init)
    ]
    objects += names.map { BinaryPlistBuilder.ascii($0) }
    objects += (0..<17).map { [0x10, UInt8($0)] }
    let bytes = BinaryPlistBuilder(objects: objects).build()
    expectSame(bytes)
    let text = (try? streamed(bytes).get()) ?? ""
    #expect(text.contains("\"k3\": 16"))
    #expect(!text.contains("\"k3\": 3"))
  }

  @Test(
    "Keys equal only as Unicode strings (UTF-16 é against UTF-8 e and a combining accent) merge")
  func canonicallyEqualKeys() {
    // Key 1: "é" as one UTF-16 unit; key 2: "e" + U+0301 as UTF-8.
    let objects: [[UInt8]] = [
      BinaryPlistBuilder.dictionary(keys: [1, 2], values: [3, 4]),
      [0x61, 0x00, 0xE9], [0x73, 0x65, 0xCC, 0x81], [0x10, 1], [0x10, 2],
    ]
    let bytes = BinaryPlistBuilder(objects: objects).build()
    expectSame(bytes)
    #expect((try? streamed(bytes).get())?.contains(": 2") == true)
  }

  @Test("UTF-16 and UTF-8 strings with escapes stream as the tree writes them")
  func escapedStrings() {
    // ["tab\there \"q\"", UTF-16 "ü\n", UTF-8 "ß\\"]
    let objects: [[UInt8]] = [
      BinaryPlistBuilder.array([1, 2, 3]),
      [0x5C] + Array("tab\there \"q\"".utf8),
      [0x62, 0x00, 0xFC, 0x00, 0x0A], [0x73, 0xC3, 0x9F, 0x5C],
    ]
    expectSame(BinaryPlistBuilder(objects: objects).build())
  }

  @Test("A shared key object read first as an array is refused as a key with the reader's message")
  func sharedNonStringKey() {
    // [[], {[]: 1}]: the empty array is read as an element, then met again as a key.
    let objects: [[UInt8]] = [
      BinaryPlistBuilder.array([1, 2]), BinaryPlistBuilder.array([]),
      BinaryPlistBuilder.dictionary(keys: [1], values: [3]), [0x10, 1],
    ]
    let bytes = BinaryPlistBuilder(objects: objects).build()
    expectSame(bytes)
    guard case .failure(let error) = streamed(bytes) else {
      Issue.record("a non-string key was accepted")
      return
    }
    #expect(error.code == .invalidKey)
    #expect(error.message.contains("an array"))
  }

  @Test("A shared subtree too deep at a later reference is refused before anything is written")
  func sharedSubtreeTooDeep() {
    var limits = PropertyListLimits.default
    limits.maximumDepth = 4
    expectSame(SharedSubtreeList.bytes, limits: limits)
  }

  @Test("An XML property list is written from its tree")
  func xmlList() throws {
    let xml = Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>n</key><integer>-9223372036854775808</integer>\
      <key>d</key><data>AAE=</data></dict></plist>
      """.utf8)
    expectSame(xml)
    #expect(try streamed(xml).get().contains("-9223372036854775808"))
  }
}
