// crash-test-harness: the archive-harness command over the sample app's v2 classes plus one
// model class with a decoding bug, as a team's own harness executable would be built (the
// "Adopting ArchiveHarness in an app" article). scripts/crash-test and the migration tests use
// it to show that a record whose init?(coder:) traps costs that record alone in a typed migrate.

import Foundation
import HarnessCLI
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

let configuration = HarnessConfiguration(modelClasses: ProfileModel.classes + [Badge.self])
ArchiveHarnessCommand.main(configuration: configuration)
