import ArchiveFormat
import Foundation

struct Measurement {
  var name: String
  var seconds: Double
  var archives: Int
  var bytes: Int
}

func measure(_ name: String, iterations: Int, inputs: [[UInt8]], _ body: ([UInt8]) -> Bool)
  -> Measurement
{
  // One warm-up pass, then the timed passes.
  if iterations > 0 {
    for input in inputs { _ = body(input) }
  }
  let start = DispatchTime.now().uptimeNanoseconds
  var failures = 0
  for _ in 0..<iterations {
    for input in inputs where !body(input) {
      failures += 1
    }
  }
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  if failures > 0 {
    FileHandle.standardError.write(
      Data("harness-bench: \(name) failed on \(failures / iterations) inputs\n".utf8))
  }
  let totalBytes = inputs.reduce(0) { $0 + $1.count } * iterations
  return Measurement(
    name: name, seconds: seconds, archives: inputs.count * iterations, bytes: totalBytes)
}

func report(_ measurements: [Measurement], baseline: String) {
  let reference = measurements.first { $0.name == baseline }
  for measurement in measurements {
    let rate = Double(measurement.archives) / measurement.seconds
    let megabytes = Double(measurement.bytes) / measurement.seconds / 1_048_576
    var line = measurement.name.padding(toLength: 36, withPad: " ", startingAt: 0)
    line += String(format: "%12.0f archives/s %9.2f MB/s", rate, megabytes)
    if let reference {
      line += String(format: "   %6.2fx %@", reference.seconds / measurement.seconds, baseline)
    }
    print(line)
  }
}

/// The reader against Foundation's `PropertyListSerialization` on the same bytes, in one process.
///
/// Prints one line per reader: archives/s and MB/s, and the ratio to Foundation.
enum ReaderBenchmark {
  static func run(_ arguments: [String]) {
    var arguments = arguments
    var iterations = 200
    // `--without-foundation` skips the reference run, for profiling this reader alone.
    var includeFoundation = true
    if arguments.first == "--without-foundation" {
      includeFoundation = false
      arguments.removeFirst()
    }
    if arguments.first == "--iterations", arguments.count >= 2, let count = Int(arguments[1]) {
      iterations = count
      arguments.removeFirst(2)
    }
    let inputs = arguments.compactMap { path in
      (try? Data(contentsOf: URL(fileURLWithPath: path)))?.withUnsafeBytes { [UInt8]($0) }
    }
    .filter { (try? KeyedArchive(bytes: $0)) != nil }
    print(
      "harness-bench: \(inputs.count) archives, \(inputs.reduce(0) { $0 + $1.count }) bytes, \(iterations) iterations"
    )

    let foundation = measure(
      "Foundation PropertyListSerialization", iterations: includeFoundation ? iterations : 0,
      inputs: inputs
    ) { bytes in
      (try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil))
        != nil
    }
    let plistOnly = measure("archive-harness plist", iterations: iterations, inputs: inputs) {
      bytes in
      (try? PropertyListReader().read(bytes)) != nil
    }
    // The binary list checked whole and kept as a view over its bytes (an XML list read as a tree).
    let view = measure("archive-harness plist-view", iterations: iterations, inputs: inputs) {
      bytes in
      let reader = PropertyListReader()
      do {
        if try reader.binaryView(bytes) != nil { return true }
        return (try? reader.read(bytes)) != nil
      } catch {
        return false
      }
    }
    // The graph as KeyedArchive(bytes:) builds it: the whole tree first.
    let graph = measure("archive-harness plist+graph", iterations: iterations, inputs: inputs) {
      bytes in
      (try? KeyedArchive(bytes: bytes)) != nil
    }
    // The graph built from the in-place view of a binary list (XML still through the tree).
    let viewGraph = measure(
      "archive-harness plist+graph-via-view", iterations: iterations, inputs: inputs
    ) { bytes in
      guard let view = try? PropertyListReader().binaryView(bytes) else {
        return (try? KeyedArchive(bytes: bytes)) != nil
      }
      return (try? KeyedArchive(view: view)) != nil
    }
    report(
      [foundation, plistOnly, view, graph, viewGraph],
      baseline: "Foundation PropertyListSerialization")
  }
}
