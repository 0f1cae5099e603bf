// Benchmarks beside their references, in one process.
//
// Usage:
//   harness-bench reader [--without-foundation] [--iterations N] FILE...
//   harness-bench decode [--count N]       secure decode, Foundation beside HarnessDecoder
//   harness-bench round-trip [--count N]   Foundation's round trip beside RoundTrip.run
// The decode and round-trip modes print a table and `bench-summary|` lines for scripts/bench.
import Foundation

let usage = """
  usage: harness-bench reader [--without-foundation] [--iterations N] FILE...
         harness-bench decode [--count N]
         harness-bench round-trip [--count N]

  """

/// The value of `--count N`, or the 20,000 archives.
func count(in arguments: ArraySlice<String>) -> Int {
  guard arguments.first == "--count" else { return 20_000 }
  guard arguments.count >= 2, let count = Int(arguments[arguments.startIndex + 1]), count > 0
  else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
  }
  return count
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "reader": ReaderBenchmark.run(Array(arguments.dropFirst()))
case "decode": DecodeBenchmark.run(count: count(in: arguments.dropFirst()))
case "round-trip": RoundTripBenchmark.run(count: count(in: arguments.dropFirst()))
default:
  FileHandle.standardError.write(Data(usage.utf8))
  exit(2)
}
