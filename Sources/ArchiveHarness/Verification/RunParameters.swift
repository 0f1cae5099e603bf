/// What a verify run was given and where it ran: the folders, the harness's version and the platform.
///
/// `verify` records them in its report, the JSON report carries them as `run`,
/// and `report merge` hands them back to the writers, so a merged HTML page
/// shows the parameters of the run its shards came from.
///
/// ```swift
/// var report = verifier.verify(manifests, archivesDirectory: "LegacyArchives")
/// report.run = RunParameters(
///   manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0.1.0",
///   platform: "Linux")
/// ```
package struct RunParameters: Sendable, Hashable {
  /// The manifests folder.
  package var manifests: String
  /// The archives folder.
  package var archives: String
  /// The harness's version.
  package var harnessVersion: String
  /// The platform the run ran on.
  package var platform: String

  /// Creates parameters.
  ///
  /// - Parameters:
  ///   - manifests: The manifests folder.
  ///   - archives: The archives folder.
  ///   - harnessVersion: The harness's version.
  ///   - platform: The platform the run ran on.
  package init(manifests: String, archives: String, harnessVersion: String, platform: String) {
    self.manifests = manifests
    self.archives = archives
    self.harnessVersion = harnessVersion
    self.platform = platform
  }
}
