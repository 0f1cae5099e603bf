import ArchiveFormat
import Testing

@Suite("JSON documents")
struct JSONDocumentTests {
  @Test("Objects, arrays and scalars parse as written")
  func parsesValues() throws {
    let document = try JSONDocument(
      parsing: #" {"a": [1, -2.5e1, true, false, null], "b": {"c": "d"}, "e": {}} "#)
    #expect(
      document
        == .object([
          "a": .array([.number(1), .number(-25), .bool(true), .bool(false), .null]),
          "b": .object(["c": .string("d")]), "e": .object([:]),
        ]))
  }

  @Test(
    "String escapes read back as their characters",
    arguments: [
      (#""\"\\\/""#, "\"\\/"), (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"), (#""\u00e9""#, "é"),
      (#""\ud83d\ude00""#, "😀"), (#""Zürich""#, "Zürich"),
    ])
  func readsEscapes(text: String, expected: String) throws {
    #expect(try JSONDocument(parsing: text) == .string(expected))
  }

  @Test("Booleans and numbers are told apart")
  func booleansAreNotNumbers() throws {
    #expect(try JSONDocument(parsing: "true").typeName == "boolean")
    #expect(try JSONDocument(parsing: "1").typeName == "number")
    #expect(try JSONDocument(parsing: "1").isInteger)
    #expect(try JSONDocument(parsing: "1.0").isInteger)
    #expect(try !JSONDocument(parsing: "1.5").isInteger)
  }

  @Test("A trailing comma is refused")
  func refusesTrailingComma() {
    #expect(throws: JSONDocumentError.self) { try JSONDocument(parsing: "[1, 2,]") }
  }

  @Test("A duplicate member name is refused")
  func refusesDuplicateMember() {
    #expect(throws: JSONDocumentError.self) { try JSONDocument(parsing: #"{"a": 1, "a": 2}"#) }
  }

  @Test("A leading zero is refused")
  func refusesLeadingZero() {
    #expect(throws: JSONDocumentError.self) { try JSONDocument(parsing: "01") }
  }

  @Test("A lone surrogate escape is refused")
  func refusesLoneSurrogate() {
    #expect(throws: JSONDocumentError.self) { try JSONDocument(parsing: #""\ud800""#) }
  }

  @Test("A raw control character inside a string is refused")
  func refusesControlCharacter() {
    #expect(throws: JSONDocumentError.self) { try JSONDocument(parsing: "\"a\u{1}b\"") }
  }

  @Test("Text after the value is refused")
  func refusesTrailingText() {
    #expect(throws: JSONDocumentError.self) { try JSONDocument(parsing: "{} {}") }
  }

  @Test("An unknown literal is refused")
  func refusesUnknownLiteral() {
    #expect(throws: JSONDocumentError.self) { try JSONDocument(parsing: "nul") }
  }

  @Test("Nesting past the limit is refused, not a stack overflow")
  func refusesDeepNesting() {
    let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: JSONDocumentError.self) { try JSONDocument(parsing: text) }
  }
}
