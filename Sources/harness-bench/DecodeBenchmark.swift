import ArchiveCoder
import Foundation
import ProfileKit

/// Secure decode of Foundation-written `ProfileKit.UserProfile` archives: Foundation's
/// `NSKeyedUnarchiver` beside `HarnessDecoder`, without and with the description reports need.
enum DecodeBenchmark {
  static let foundation = "Foundation NSKeyedUnarchiver secure"
  static let opaque = "HarnessDecoder secure, describesObjects=false"
  static let described = "HarnessDecoder secure, described as reports need"

  static func run(_ options: TimedOptions) {
    let count = options.count
    let archives = ProfileArchives.make(count: count)
    let bytes = archives.map { [UInt8]($0) }
    let registry = ClassRegistry(modelClasses: [UserProfile.self, Address.self])
    let allowed = ["ProfileKit.UserProfile"]
    var opaqueDecoder = HarnessDecoder(registry: registry)
    opaqueDecoder.describesObjects = false
    let describingDecoder = HarnessDecoder(registry: registry)
    let contenders = [
      BestOfThree.Contender(name: foundation) { index in
        (try? NSKeyedUnarchiver.unarchivedObject(ofClass: UserProfile.self, from: archives[index]))
          != nil
      },
      BestOfThree.Contender(name: opaque) { index in
        opaqueDecoder.decode(bytes[index], secure: true, allowedClasses: allowed).object
          is UserProfile
      },
      BestOfThree.Contender(name: described) { index in
        let result = describingDecoder.decode(bytes[index], secure: true, allowedClasses: allowed)
        return result.object is UserProfile && result.outcome.decodedValue != nil
      },
    ]
    let timed = options.includesFoundation ? contenders : Array(contenders.dropFirst())
    let results = BestOfThree().run(timed, count: count)
    let mean = bytes.isEmpty ? 0 : bytes.reduce(0) { $0 + $1.count } / bytes.count
    let table = BenchmarkTable(
      title:
        "decode: \(count) ProfileKit.UserProfile archives written by NSKeyedArchiver (mean \(mean) B), best of 3, one process",
      results: results, reference: foundation)
    table.print()
    print(
      table.summary(
        figure: "secure decode, describesObjects=false", contender: opaque, unit: "archives/s",
        goal: nil))
    print(
      table.summary(
        figure: "secure decode, described as reports need", contender: described,
        unit: "archives/s", goal: 10))
  }
}
