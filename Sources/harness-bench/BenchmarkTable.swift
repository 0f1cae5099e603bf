import Foundation

/// Prints one benchmark's contenders as a table, each beside the reference of the same run,
/// and one `BENCH` line per figure for `scripts/bench` to collect.
struct BenchmarkTable {
  var title: String
  var results: [BestOfThree.Result]
  /// The name of the reference contender.
  var reference: String

  /// The ratio of a contender's rate to the reference's, from this run.
  func ratio(of name: String) -> Double? {
    guard let ours = results.first(where: { $0.name == name }),
      let base = results.first(where: { $0.name == reference }), base.rate > 0
    else { return nil }
    return ours.rate / base.rate
  }

  func print() {
    Swift.print(title)
    Swift.print(
      "  " + "contender".padding(toLength: 52, withPad: " ", startingAt: 0)
        + "     per second   ratio   failures")
    for result in results {
      let name = result.name.padding(toLength: 52, withPad: " ", startingAt: 0)
      let ratioText = ratio(of: result.name).map { String(format: "%6.2fx", $0) } ?? "     -"
      Swift.print(
        "  " + name + String(format: "%15.0f", result.rate) + "  " + ratioText
          + String(format: "%11d", result.failures))
    }
  }

  /// A `BENCH<TAB>figure<TAB>ours<TAB>reference<TAB>unit[<TAB>goal]` line, the form every
  /// scripts/bench* prints for `scripts/bench` to collect; the goal is a ratio to the reference.
  func summary(figure: String, contender: String, unit: String, goal: Double?) -> String {
    let ours = results.first { $0.name == contender }
    let base = results.first { $0.name == reference }
    var fields = [
      "BENCH", figure, String(format: "%.0f", ours?.rate ?? 0),
      String(format: "%.0f", base?.rate ?? 0), unit,
    ]
    if let goal { fields.append(String(format: "%g", goal)) }
    return fields.joined(separator: "\t")
  }
}
