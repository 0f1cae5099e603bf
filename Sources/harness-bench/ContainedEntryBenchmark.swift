import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation
import ProfileKit

/// All four decode paths of an ordinary entry in a decode worker, beside the same decode in
/// this process: what containment costs an entry that neither traps nor hangs.
///
/// The worker is the `profiles-harness` binary beside this one (its default registry holds
/// ProfileKit's classes); the in-process reference answers the same requests with
/// `HarnessWorker.answer(_:registries:)`, as the worker does.
enum ContainedEntryBenchmark {
  static let reference = "in process: the same four paths"
  static let contained = "contained: four paths in a decode worker"

  static func run(_ options: TimedOptions) {
    let count = options.count
    let archives = ProfileArchives.make(count: count).map { [UInt8]($0) }
    let registry = ClassRegistry(modelClasses: ProfileModel.classes)
    let registries = [HarnessWorker.defaultRegistryName: registry]
    let allowed = ["ProfileKit.UserProfile"]
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("profiles-harness")
    guard FileManager.default.isExecutableFile(atPath: executable.path) else {
      FileHandle.standardError.write(
        Data("harness-bench: no profiles-harness beside harness-bench (\(executable.path))\n".utf8))
      exit(2)
    }
    let runner = WorkerPathRunner(executable: executable)
    let paths = DecodePath.allCases
    let contenders = [
      BestOfThree.Contender(name: reference) { index in
        paths.allSatisfy { path in
          let request = WorkerRequest(
            id: index, path: path, registryName: HarnessWorker.defaultRegistryName,
            archive: Data(archives[index]), allowedClasses: allowed, classMap: .empty)
          return HarnessWorker.answer(request, registries: registries).outcome.decodedValue != nil
        }
      },
      BestOfThree.Contender(name: contained) { index in
        paths.allSatisfy { path in
          let outcome = try? runner.outcome(
            archives[index], path: path, allowedClasses: allowed, classMap: .empty)
          return outcome?.decodedValue != nil
        }
      },
    ]
    let results = BestOfThree().run(contenders, count: count)
    let table = BenchmarkTable(
      title:
        "contained: \(count) ProfileKit.UserProfile archives, all four paths each, best of 3",
      results: results, reference: reference)
    table.print()
    let milliseconds = results.map { $0.rate > 0 ? 1000 / $0.rate : 0 }
    for (result, perEntry) in zip(results, milliseconds) {
      print(String(format: "  %@: %.3f ms per entry", result.name, perEntry))
    }
    // Milliseconds per entry, so the goal (1 ms for the four paths) is the figure itself.
    let fields = [
      "BENCH", "A contained entry (4 paths)", String(format: "%.3f", milliseconds[1]),
      String(format: "%.3f", milliseconds[0]), "ms/entry", "1",
    ]
    print(fields.joined(separator: "\t"))
  }
}
