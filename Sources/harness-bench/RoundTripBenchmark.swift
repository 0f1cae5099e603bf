import ArchiveCoder
import ArchiveHarness
import Foundation
import ProfileKit

/// The full round trip (decode, encode, re-decode, compare) of Foundation-written
/// `ProfileKit.UserProfile` archives: Foundation as a team would write it beside `RoundTrip.run`.
enum RoundTripBenchmark {
  static let foundation = "Foundation unarchive, archive, unarchive, isEqual"
  static let harness = "RoundTrip.run"

  static func run(_ options: TimedOptions) {
    let count = options.count
    let archives = ProfileArchives.make(count: count)
    let bytes = archives.map { [UInt8]($0) }
    let trip = RoundTrip(
      registry: ClassRegistry(modelClasses: [UserProfile.self, Address.self]), classMap: .empty,
      allowedClasses: ["ProfileKit.UserProfile"])
    let contenders = [
      BestOfThree.Contender(name: foundation) { index in
        guard
          let first = try? NSKeyedUnarchiver.unarchivedObject(
            ofClass: UserProfile.self, from: archives[index]),
          let written = try? NSKeyedArchiver.archivedData(
            withRootObject: first, requiringSecureCoding: true),
          let second = try? NSKeyedUnarchiver.unarchivedObject(
            ofClass: UserProfile.self, from: written)
        else { return false }
        return first.isEqual(second)
      },
      BestOfThree.Contender(name: harness) { index in
        if case .success = trip.run(bytes[index]) { return true }
        return false
      },
    ]
    let timed = options.includesFoundation ? contenders : Array(contenders.dropFirst())
    let results = BestOfThree().run(timed, count: count)
    let table = BenchmarkTable(
      title:
        "round-trip: \(count) ProfileKit.UserProfile archives written by NSKeyedArchiver, best of 3, one process",
      results: results, reference: foundation)
    table.print()
    print(table.summary(figure: "round trip", contender: harness, unit: "archives/s", goal: 10))
  }
}
