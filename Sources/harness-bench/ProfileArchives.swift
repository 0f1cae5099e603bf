import Foundation
import ProfileKit

/// Archives of `ProfileKit.UserProfile` that Foundation's own `NSKeyedArchiver` writes in this
/// process, with secure coding, as an app would store them.
enum ProfileArchives {
  /// Makes `count` archives of distinct profiles, about 540 bytes each.
  static func make(count: Int) -> [Data] {
    let cities = ["Cupertino", "Lisbon", "Kraków", "Zürich", "São Paulo", "Osaka", "Tromsø"]
    var archives: [Data] = []
    archives.reserveCapacity(count)
    for index in 0..<count {
      let address = Address(
        street: "\(100 + index % 900) Example Street, Building \(index % 17)",
        city: cities[index % cities.count])
      let profile = UserProfile(
        id: 10_000_000 + index, name: "Example User \(index)",
        isActive: index % 3 != 0, address: address)
      do {
        archives.append(
          try NSKeyedArchiver.archivedData(withRootObject: profile, requiringSecureCoding: true))
      } catch {
        FileHandle.standardError.write(
          Data("harness-bench: NSKeyedArchiver failed on profile \(index): \(error)\n".utf8))
        exit(2)
      }
    }
    return archives
  }
}
