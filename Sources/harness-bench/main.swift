// Benchmarks beside their references, in one process.
//
// Usage:
//   harness-bench reader [--without-foundation] [--iterations N] FILE...
//   harness-bench decode [--count N] [--without-foundation]
//     secure decode, Foundation beside HarnessDecoder
//   harness-bench round-trip [--count N] [--without-foundation]
//     Foundation's round trip beside RoundTrip.run
//   harness-bench contained [--count N]
//     all four paths of an ordinary entry in a decode worker (profiles-harness beside this
//     binary) beside the same decode in this process
//   harness-bench hostile-text [--characters N] [--maximum-ratio R] [--rounds N]
//     the privacy scan and the anonymizer on each detector's bait at N and 4N characters;
//     exits 1 when the time grows more than R times (scripts/check-hostile-text)
// The decode, round-trip and contained modes print a table and `BENCH` lines for scripts/bench.
import Foundation

let usage = """
  usage: harness-bench reader [--without-foundation] [--iterations N] FILE...
         harness-bench decode [--count N] [--without-foundation]
         harness-bench round-trip [--count N] [--without-foundation]
         harness-bench contained [--count N]
         harness-bench hostile-text [--characters N] [--maximum-ratio R] [--rounds N]

  """

/// The options of the decode and round-trip modes.
struct TimedOptions {
  /// How many archives: `--count N`, or the 20,000.
  var count = 20_000
  /// Whether Foundation's reference runs; `--without-foundation` skips it, for profiling.
  var includesFoundation = true

  init(_ arguments: ArraySlice<String>) {
    var arguments = arguments
    while let option = arguments.popFirst() {
      switch option {
      case "--without-foundation":
        includesFoundation = false
      case "--count":
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
          fallthrough
        }
        count = value
      default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
      }
    }
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "reader": ReaderBenchmark.run(Array(arguments.dropFirst()))
case "decode": DecodeBenchmark.run(TimedOptions(arguments.dropFirst()))
case "round-trip": RoundTripBenchmark.run(TimedOptions(arguments.dropFirst()))
case "contained": ContainedEntryBenchmark.run(TimedOptions(arguments.dropFirst()))
case "hostile-text":
  HostileTextBenchmark.run(HostileTextBenchmark.Options(arguments.dropFirst()))
default:
  FileHandle.standardError.write(Data(usage.utf8))
  exit(2)
}
