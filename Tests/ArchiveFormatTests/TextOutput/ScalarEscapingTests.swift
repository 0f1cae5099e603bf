import ArchiveFormat
import Testing

@Suite("Scalar escaping")
struct ScalarEscapingTests {
  @Test("Each scalar is replaced by the rule or kept")
  func replacesByRule() {
    var output = "<"
    let cut = ScalarEscaping.append("a-b-c", to: &output) { $0 == "-" ? "+" : nil }
    #expect(output == "<a+b+c")
    #expect(!cut)
  }

  @Test("Copying stops at the limit with an ellipsis")
  func stopsAtTheLimit() {
    var output = ""
    let cut = ScalarEscaping.append("abcdef", to: &output, maximumScalars: 2) { _ in nil }
    #expect(output == "ab…")
    #expect(cut)
  }
}
