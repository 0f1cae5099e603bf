import ArchiveHarness
import Foundation
import HarnessTestSupport

/// The privacy scan and the anonymizer on long runs of each detector's bait, at a length and at four times it.
///
/// A pass that reads each character a bounded number of times takes about four times as
/// long on four times the text; one that reads the rest of the text at every copy of the bait
/// takes sixteen. Each length is timed as the tests run it (scan, anonymize, scan the
/// output), best of `--rounds` rounds, the two lengths interleaved so that a busy machine
/// slows both alike. A bait whose ratio passes `--maximum-ratio` is timed once more with twice
/// the rounds, and is `super-linear` when it passes it again; the mode then exits 1.
enum HostileTextBenchmark {
  struct Options {
    /// The shorter length, in UTF-16 code units: `--characters N`.
    var characters = 200_000
    /// The largest ratio of the longer text's time to the shorter's: `--maximum-ratio R`.
    var maximumRatio = 8.0
    /// Rounds per length: `--rounds N`.
    var rounds = 3

    init(_ arguments: ArraySlice<String>) {
      var arguments = arguments
      while let option = arguments.popFirst() {
        switch option {
        case "--characters":
          guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            HostileTextBenchmark.usageError()
          }
          characters = value
        case "--maximum-ratio":
          guard let value = arguments.popFirst().flatMap({ Double($0) }), value > 1 else {
            HostileTextBenchmark.usageError()
          }
          maximumRatio = value
        case "--rounds":
          guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            HostileTextBenchmark.usageError()
          }
          rounds = value
        default:
          HostileTextBenchmark.usageError()
        }
      }
    }
  }

  static func run(_ options: Options) {
    let lengths = [options.characters, 4 * options.characters]
    print(
      "hostile-text: scan, anonymize and scan the output, \(lengths[0]) and \(lengths[1])"
        + " characters of each bait, best of \(options.rounds), ratio limit \(options.maximumRatio)"
    )
    print(pad("bait", 34) + pad("\(lengths[0]) (s)", 16) + pad("\(lengths[1]) (s)", 16) + "ratio")
    var superLinear: [String] = []
    var largest = (bait: "", ratio: 0.0)
    for bait in HostileText.baits {
      let inputs = lengths.map {
        HostileText.archive(holding: HostileText.repeated(bait, length: $0))
      }
      var times = best(of: options.rounds, inputs)
      var ratio = times[1] / max(times[0], 1e-9)
      if ratio > options.maximumRatio {
        times = best(of: 2 * options.rounds, inputs)
        ratio = times[1] / max(times[0], 1e-9)
      }
      let name = bait.debugDescription
      var line = pad(name, 34)
      line += pad(String(format: "%.4f", times[0]), 16) + pad(String(format: "%.4f", times[1]), 16)
      line += String(format: "%.1f", ratio)
      if ratio > options.maximumRatio {
        line += "  super-linear"
        superLinear.append(name)
      }
      print(line)
      if ratio > largest.ratio { largest = (name, ratio) }
    }
    print(
      "hostile-text: \(HostileText.baits.count) baits, largest ratio "
        + String(format: "%.1f", largest.ratio) + " (\(largest.bait))")
    guard superLinear.isEmpty else {
      fail(
        "hostile-text: super-linear (ratio over \(options.maximumRatio)): "
          + superLinear.joined(separator: ", "))
    }
  }

  /// Each input's best time over the rounds, the inputs interleaved in each round.
  private static func best(of rounds: Int, _ inputs: [[UInt8]]) -> [Double] {
    var best = inputs.map { _ in Double.infinity }
    for _ in 0..<rounds {
      for (position, bytes) in inputs.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        work(bytes)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        best[position] = min(best[position], seconds)
      }
    }
    return best
  }

  /// What the tests do with a hostile archive: scan it, anonymize it, and scan the output.
  private static func work(_ bytes: [UInt8]) {
    let scanner = PrivacyScanner()
    _ = scanner.scan(bytes, file: "hostile.archive")
    var options = Anonymizer.Options()
    options.dates = .truncate(.year)
    do {
      let output = try Anonymizer(options: options).anonymize(bytes)
      _ = scanner.scan(output.bytes, file: "anonymized.archive")
    } catch {
      fail("hostile-text: the anonymizer refused a hostile archive: \(error)")
    }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }

  private static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
  }

  fileprivate static func usageError() -> Never {
    FileHandle.standardError.write(
      Data(
        "usage: harness-bench hostile-text [--characters N] [--maximum-ratio R] [--rounds N]\n"
          .utf8))
    exit(2)
  }
}
