// crash-test-harness: the archive-harness command over the sample app's v2 classes plus one
// model class with a decoding bug, as a team's own harness executable would be built (the
// "Adopting ArchiveHarness in an app" article). scripts/crash-test and the migration tests use
// it to show that a record whose init?(coder:) traps costs that record alone in a typed migrate;
// the conservation tests use its LossyProfile, whose encoder loses a value, and the containment
// tests its Ballast, whose decoder allocates what the archive asks for.

import ArchiveHarnessCLI
import Foundation
import ProfileKit

/// A badge with a label, decoded with a force cast: an archive whose label is a number traps.
///
/// Archived as `ProfilesApp.Badge` by the store generator (`--trap-at`); mapped here with
/// `--class-map ProfilesApp.Badge=crash_test_harness.Badge`.
final class Badge: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true

  let label: String

  init?(coder: NSCoder) {
    let value = coder.decodeObject(of: [NSString.self, NSNumber.self], forKey: "label")
    // swift-format-ignore: NeverForceUnwrap
    // The app's bug, kept on purpose: the harness must contain it.
    label = value as! String
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(label as NSString, forKey: "label")
  }
}

/// A profile whose decoder reads `isActive` and whose encoder writes it back as the integer 0:
/// a version that loses a value, as the conservation tests need one (issue 38's `pinned`).
///
/// Mapped with `ProfilesApp.UserProfile=crash_test_harness.LossyProfile`.
final class LossyProfile: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true

  let id: Int
  let name: String
  let isActive: Bool
  let address: Address

  init?(coder: NSCoder) {
    guard let name = coder.decodeObject(of: NSString.self, forKey: "name") as String?,
      let address = coder.decodeObject(of: Address.self, forKey: "address")
    else { return nil }
    id = coder.decodeInteger(forKey: "id")
    self.name = name
    isActive = coder.decodeBool(forKey: "isActive")
    self.address = address
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(id, forKey: "id")
    coder.encode(name as NSString, forKey: "name")
    // The bug, kept on purpose: the flag is written as a number that is always 0.
    coder.encode(0, forKey: "isActive")
    coder.encode(address, forKey: "address")
  }
}

/// A value whose decoder allocates as many MiB as the archive's `mebibytes` says.
///
/// An app that trusts a size in the archive: past the worker's memory limit the allocation
/// fails, which the containment tests report as `limit-exceeded`.
final class Ballast: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true

  let bytes: [UInt8]

  init?(coder: NSCoder) {
    let mebibytes = max(0, coder.decodeInteger(forKey: "mebibytes"))
    // The app's bug, kept on purpose: the size is the archive's word.
    bytes = [UInt8](repeating: 1, count: mebibytes << 20)
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(bytes.count >> 20, forKey: "mebibytes")
  }
}

let configuration = HarnessConfiguration(
  modelClasses: ProfileModel.classes + [Badge.self, LossyProfile.self, Ballast.self])
ArchiveHarnessCommand.main(configuration: configuration)
