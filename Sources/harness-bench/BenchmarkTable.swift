import Foundation

/// Prints one benchmark's contenders as a table, each beside the reference of the same run,
/// and one `bench-summary|` line per goal for `scripts/bench` to collect.
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

  /// A `bench-summary|figure|ours|reference|ratio|goal|met` line for a goal on one contender.
  func summary(figure: String, contender: String, goal: Double?) -> String {
    guard let ours = results.first(where: { $0.name == contender }),
      let base = results.first(where: { $0.name == reference }),
      let ratio = ratio(of: contender)
    else { return "bench-summary|\(figure)|-|-|-|-|-" }
    let goalText = goal.map { String(format: ">= %.0fx", $0) } ?? "-"
    let met = goal.map { ratio >= $0 && ours.failures == 0 ? "yes" : "no" } ?? "-"
    return String(
      format: "bench-summary|%@|%.1fk/s|%.1fk/s Foundation|%.2fx|%@|%@", figure, ours.rate / 1000,
      base.rate / 1000, ratio, goalText, met)
  }
}
