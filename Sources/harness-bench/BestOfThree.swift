import Foundation

/// Times contenders over the same inputs, three rounds interleaved, and keeps each one's best.
///
/// Interleaving the rounds means a busy machine slows every contender alike, so the ratios of
/// one run can be compared even when the absolute rates cannot.
struct BestOfThree {
  /// One timed body: its name and what it does with one input; `false` counts as a failure.
  struct Contender {
    var name: String
    var body: (Int) -> Bool
  }

  /// One contender's best round.
  struct Result {
    var name: String
    var seconds: Double
    var count: Int
    var failures: Int

    /// Inputs per second in the best round.
    var rate: Double { seconds > 0 ? Double(count) / seconds : 0 }
  }

  var rounds = 3

  /// Runs every contender over inputs `0..<count` in each round, after one warm-up pass.
  func run(_ contenders: [Contender], count: Int) -> [Result] {
    var best = contenders.map {
      Result(name: $0.name, seconds: .infinity, count: count, failures: 0)
    }
    for contender in contenders {
      for index in 0..<min(count, 200) { _ = contender.body(index) }
    }
    for _ in 0..<rounds {
      for (position, contender) in contenders.enumerated() {
        var failures = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count where !contender.body(index) {
          failures += 1
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        best[position].seconds = min(best[position].seconds, seconds)
        best[position].failures = max(best[position].failures, failures)
      }
    }
    return best
  }
}
