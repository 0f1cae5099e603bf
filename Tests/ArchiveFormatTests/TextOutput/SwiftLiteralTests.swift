import ArchiveFormat
import Testing

@Suite("Swift-style quoting")
struct SwiftLiteralTests {
  @Test(
    "Quotes, backslashes and control characters are escaped on one line",
    arguments: [
      ("plain", #""plain""#), ("say \"hi\"", #""say \"hi\"""#), (#"a\b"#, #""a\\b""#),
      ("one\ntwo", #""one\ntwo""#), ("tab\t", #""tab\t""#), ("cr\r", #""cr\r""#),
      ("bell\u{7}", #""bell\u{7}""#), ("escape\u{1B}", #""escape\u{1b}""#), ("", #""""#),
      ("Zürich", #""Zürich""#),
    ])
  func quotes(text: String, expected: String) {
    #expect(SwiftLiteral.quoted(text) == expected)
  }

  @Test("A long string is cut after the limit and marked")
  func cutsAtTheLimit() {
    #expect(SwiftLiteral.quoted("abcdef", maximumScalars: 3) == #""abc…""#)
    #expect(SwiftLiteral.quoted("abc", maximumScalars: 3) == #""abc""#)
  }
}
