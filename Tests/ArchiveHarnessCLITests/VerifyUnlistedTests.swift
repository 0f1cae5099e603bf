import Foundation
import HarnessTestSupport
import Testing

/// `verify` checks every archive it was pointed at: one that no manifest lists fails, as in
/// `swift test`, unless the manifests folder's ignore file names it.
@Suite("verify and the archives no manifest lists", .serialized)
struct VerifyUnlistedTests {
  /// The shipped manifests and archives, plus a copy of one archive that no manifest lists.
  static func package() throws -> String {
    let folder = NSTemporaryDirectory() + "verify-unlisted-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in ["manifests", "LegacyArchives"] {
      try FileManager.default.copyItem(
        atPath: Corpus.packageRoot.appendingPathComponent(name).path,
        toPath: folder + "/" + name)
    }
    try FileManager.default.copyItem(
      atPath: folder + "/LegacyArchives/ProfilesApp-1.0/profile-valid.archive",
      toPath: folder + "/LegacyArchives/ProfilesApp-1.0/profile-extra.archive")
    return folder
  }

  @Test("An archive no manifest lists fails verify, named, with how to list or keep it")
  func unlistedArchiveFails() throws {
    let folder = try Self.package()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run(["verify"], in: URL(fileURLWithPath: folder))
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("ProfilesApp-1.0/profile-extra.archive"), "\(result.stdout)")
    #expect(result.stdout.contains("[unlisted]") || result.stdout.contains("unlisted"))
    #expect(result.stdout.contains(".archive-harness-ignore"), "\(result.stdout)")
    #expect(result.stdout.contains("25 archive entries: 24 passed, 1 failed"), "\(result.stdout)")
  }

  @Test("The ignore file keeps an archive without a manifest entry")
  func ignoredArchivePasses() throws {
    let folder = try Self.package()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "# kept as a sample for the docs\nProfilesApp-1.0/profile-extra.archive\n".write(
      toFile: folder + "/manifests/.archive-harness-ignore", atomically: false, encoding: .utf8)
    let result = try CommandRunner.run(["verify"], in: URL(fileURLWithPath: folder))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("24 archive entries: 24 passed, 0 failed"))
  }
}
