import ArchiveFormat
import Testing

/// Streaming a property list through a JSONWriter gives the text of its value tree, byte for byte.
@Suite("JSON streaming")
struct JSONStreamingTests {
  private let sample: PropertyListValue = .dictionary([
    "zeta": .array([.string("quote \" slash \\ tab \t bell \u{07} ünï"), .uid(7), .bool(false)]),
    "alpha": .dictionary([
      "b": .integer(-7), "a": .unsignedInteger(UInt64.max), "c": .dictionary([:]),
    ]),
    "mid": .array([.real(-0.5), .real(.nan), .real(-.infinity), .date(12.25), .data([9, 8])]),
    "empty": .array([]),
  ])

  /// The text written through a writer whose sink takes chunks of `chunkSize` bytes or more.
  private func streamed(sortedKeys: Bool, pretty: Bool, chunkSize: Int) -> (String, Int) {
    var chunks: [String] = []
    var writer = JSONWriter(
      sortedKeys: sortedKeys, pretty: pretty, chunkSize: chunkSize, sink: { chunks.append($0) })
    sample.writeJSON(to: &writer)
    writer.endLine()
    return (chunks.joined(), chunks.count)
  }

  @Test("Streamed in small chunks, the text equals the value tree's, in archive order")
  func streamedEqualsTreeUnsorted() {
    let (text, chunks) = streamed(sortedKeys: false, pretty: true, chunkSize: 8)
    #expect(text == sample.jsonValue.render(sortedKeys: false) + "\n")
    #expect(chunks > 1)
  }

  @Test("With sorted keys, nested objects are sorted as the value tree sorts them")
  func streamedEqualsTreeSorted() {
    let (text, _) = streamed(sortedKeys: true, pretty: true, chunkSize: 8)
    #expect(text == sample.jsonValue.render(sortedKeys: true) + "\n")
    let (compact, _) = streamed(sortedKeys: true, pretty: false, chunkSize: 8)
    #expect(compact == sample.jsonValue.render(sortedKeys: true, pretty: false) + "\n")
  }

  @Test("Control characters, quotes and backslashes are escaped; other text is kept")
  func escapes() {
    let text = JSONValue.string("a\"b\\c\n\u{01}\u{7F}é").render()
    #expect(text == #""a\"b\\c\n\u0001"# + "\u{7F}é\"")
  }

  @Test("Sorted keys order members by UTF-8 bytes and keep empty containers compact")
  func sortedMembers() {
    let value = JSONValue.object([
      ("b", .integer(1)), ("a", .object([("y", .null), ("x", .array([]))])), ("é", .bool(true)),
      ("Z", .object([])),
    ])
    #expect(
      value.render(sortedKeys: true, pretty: false)
        == #"{"Z":{},"a":{"x":[],"y":null},"b":1,"é":true}"#)
  }
}
