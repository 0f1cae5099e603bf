import Foundation
import HarnessTestSupport
import Testing

/// `verify --strictness`, run as a user would: a manifest whose read lists `NSObject` passes
/// with a warning today and fails under `apple-future`.
@Suite("verify --strictness")
struct StrictnessCommandTests {
  static let archive = "ProfilesApp-1.1/profiles-list.archive"
  static let sha = "79ff9a6984788788f6476cb3483e4682f4b3458766abb435593fbacd549ad683"

  /// A folder with one manifest over one shipped archive, its read allowing `NSObject`.
  ///
  /// - Parameter strictness: The manifest's `strictness` attribute, if any.
  /// - Returns: The folder, with `manifests/` and `LegacyArchives/`.
  /// - Throws: When it cannot be written.
  private static func folder(strictness: String? = nil) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "strictness-\(UUID().uuidString)")
    let manifests = root.appendingPathComponent("manifests")
    let archives = root.appendingPathComponent("LegacyArchives")
    try FileManager.default.createDirectory(
      at: archives.appendingPathComponent("ProfilesApp-1.1"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: manifests, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Corpus.packageRoot.appendingPathComponent("LegacyArchives/" + archive),
      to: archives.appendingPathComponent(archive))
    try FileManager.default.copyItem(
      at: Corpus.packageRoot.appendingPathComponent("manifests/maps"),
      to: manifests.appendingPathComponent("maps"))
    let attribute = strictness.map { " strictness=\"\($0)\"" } ?? ""
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1"\(attribute)>
        <producer app="ProfilesApp" version="1.1" platform="iOS 16.5" produced="2023-05-10"/>
        <classMapFile href="maps/ProfilesApp-to-ProfileKit.xml"/>
        <allowedClasses>
          <class name="NSObject"/>
        </allowedClasses>
        <archive path="\(archive)" sha256="\(sha)"/>
      </manifest>
      """
    try Data(text.utf8).write(to: manifests.appendingPathComponent("strict.xml"))
    return root
  }

  private static func arguments(_ root: URL, _ extra: [String] = []) -> [String] {
    [
      "verify", "--manifests", root.appendingPathComponent("manifests").path,
      "--archives", root.appendingPathComponent("LegacyArchives").path,
    ] + extra
  }

  @Test("Without --strictness, NSObject in allowedClasses is a warning and verify exits 0")
  func currentWarns() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try CommandRunner.run(Self.arguments(root))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "    warning: [nsobject-allowed] root: the read's allowed classes [NSObject] name "
          + "NSObject, which lets any class decode"))
    #expect(result.stdout.contains("1 archive entries: 1 passed"))
  }

  @Test("--strictness apple-future fails NSObject in allowedClasses with the list to write")
  func appleFutureFails() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try CommandRunner.run(Self.arguments(root, ["--strictness", "apple-future"]))
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("✗ error: [nsobject-allowed] root:"))
    #expect(
      result.stdout.contains("write allowedClasses: [NSArray.self, ProfileKit.UserProfile.self]"))
    let json = try CommandRunner.run(
      Self.arguments(root, ["--strictness", "apple-future", "--format", "json"]))
    #expect(json.status == 1)
    let violations = try JSONSchemas.violations(of: json.stdout, against: .verify)
    #expect(violations.isEmpty, "\(violations)")
    #expect(json.stdout.contains(#""rule": "nsobject-allowed""#))
  }

  @Test("A manifest's strictness=\"apple-future\" fails the run without the option")
  func manifestAttributeFails() throws {
    let root = try Self.folder(strictness: "apple-future")
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try CommandRunner.run(Self.arguments(root))
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("✗ error: [nsobject-allowed]"))
  }

  @Test("An unknown --strictness is a usage error, exit 2")
  func unknownValueRefused() throws {
    let result = try CommandRunner.run(["verify", "--strictness", "lenient"])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains(
        "The value 'lenient' is invalid for '--strictness <level>'; expected one of: current, "
          + "apple-future"), "\(result.stderr)")
  }
}
