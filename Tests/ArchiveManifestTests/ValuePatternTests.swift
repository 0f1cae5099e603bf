import ArchiveManifest
import Testing

/// A `<matches>` pattern holds for a value only when it matches all of it, as Swift's
/// `wholeMatch(in:)` did before patterns were read by NSRegularExpression.
@Suite("Value patterns")
struct ValuePatternTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var pattern: String
    var value: String
    var matches: Bool
    var testDescription: String { "\(pattern) \(matches ? "matches" : "does not match") \(value)" }
  }

  static let cases: [Case] = [
    Case(pattern: "[A-Z][a-z]+", value: "Berlin", matches: true),
    Case(pattern: "[A-Z][a-z]+", value: "Berlin!", matches: false),
    Case(pattern: "[a-z]+", value: "xBerlin", matches: false),
    Case(pattern: "^[A-Z][a-z]+( [A-Z][a-z]+)?$", value: "New York", matches: true),
    // A whole match backtracks into a later alternative or a longer lazy repetition.
    Case(pattern: "a|ab", value: "ab", matches: true),
    Case(pattern: "a+?", value: "aaa", matches: true),
    // `$` alone would allow a final line break; the value must end where the pattern does.
    Case(pattern: "[a-z]+$", value: "abc\n", matches: false),
    Case(pattern: "", value: "", matches: true),
    Case(pattern: "", value: "a", matches: false),
    // Word boundaries by Unicode's rules, as Swift's Regex finds them: none inside "can't".
    Case(pattern: #"[a-z]+\b'\b[a-z]"#, value: "can't", matches: false),
    Case(pattern: #"\bcan't\b"#, value: "can't", matches: true),
    // A pattern may end inside an (?x) comment or a \Q quote.
    Case(pattern: "(?x) a b # letters", value: "ab", matches: true),
    Case(pattern: #"\Qa.b"#, value: "a.b", matches: true),
    Case(pattern: #"\Qa.b"#, value: "axb", matches: false),
    Case(pattern: "[a-z]+", value: "", matches: false),
  ]

  @Test("A pattern holds for whole values only", arguments: cases)
  func wholeValues(testCase: Case) throws {
    #expect(try ValuePattern(testCase.pattern).matches(testCase.value) == testCase.matches)
  }

  @Test(
    "A pattern that does not compile on its own is refused, even if it would once anchored",
    arguments: ["([a-z]+", "a)(b", #"a\"#, "[a-z"])
  func invalid(pattern: String) {
    #expect(throws: ValuePattern.InvalidPattern.self) { try ValuePattern(pattern) }
  }
}
