import HarnessTestSupport
import Testing

@Suite("Text patterns")
struct TextPatternTests {
  @Test("Captures are group 1 of every match, in order, from a substring too")
  func captures() throws {
    let text = #"<a name="x"/> <a name="y"/> <b name="z"/>"#
    #expect(try TextPattern.captures(#"<a name="(\w+)""#, in: text) == ["x", "y"])
    #expect(try TextPattern.captures(#"name="(\w+)""#, in: text.dropFirst(14)) == ["y", "z"])
    #expect(try TextPattern.captures(#"(x)|(q)"#, in: "q") == [""])
  }

  @Test("A pattern without a group, or one that does not compile, throws")
  func capturesThrow() {
    #expect(throws: TextPattern.NoCaptureGroup.self) { try TextPattern.captures("a", in: "a") }
    #expect(throws: (any Error).self) { try TextPattern.captures("(a", in: "a") }
  }

  @Test("Replacing takes the replacement literally")
  func replacing() throws {
    #expect(try TextPattern.replacing("[0-9]+", in: "a1b22c", with: "$0\\") == "a$0\\b$0\\c")
  }

  @Test("Report times are zeroed in JSON and JUnit")
  func reportTimes() {
    let json = #"{"durationMilliseconds": 12, "b": {"durationMilliseconds":3}}"#
    #expect(
      ReportTimes.zeroed(json)
        == #"{"durationMilliseconds": 0, "b": {"durationMilliseconds": 0}}"#)
    #expect(
      ReportTimes.zeroed(#"<testcase name="a" time="1.234"/>"#)
        == #"<testcase name="a" time="0.000"/>"#)
  }
}
