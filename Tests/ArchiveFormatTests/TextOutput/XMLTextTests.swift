import ArchiveFormat
import Testing

@Suite("XML text")
struct XMLTextTests {
  @Test(
    "Markup characters and line ends become references",
    arguments: [
      ("a & b", "a &amp; b"), ("<tag>", "&lt;tag&gt;"), ("say \"hi\"", "say &quot;hi&quot;"),
      ("one\ntwo", "one&#10;two"), ("tab\there", "tab&#9;here"), ("cr\rlf", "cr&#13;lf"),
      ("it's", "it's"), ("Zürich €", "Zürich €"), ("", ""),
    ])
  func escapesMarkup(text: String, expected: String) {
    #expect(XMLText.escaped(text) == expected)
  }

  @Test(
    "Characters XML 1.0 cannot carry, even as references, become '?'",
    arguments: [
      "\u{0}", "\u{1}", "\u{7}", "\u{B}", "\u{C}", "\u{1B}", "\u{1F}", "\u{FFFE}", "\u{FFFF}",
    ])
  func replacesForbiddenCharacters(text: String) {
    #expect(XMLText.escaped("a\(text)b") == "a?b")
    #expect(!XMLText.isValid(text))
  }

  @Test(
    "Characters XML 1.0 allows are valid",
    arguments: [
      "\t", "\n", "\r", " ", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{10000}", "\u{10FFFF}",
    ])
  func allowsCharacters(text: String) {
    #expect(XMLText.isValid(text))
  }
}
