import Foundation
import HarnessTestSupport
import Testing

@Suite("archive-harness privacy-scan, run as a user would")
struct PrivacyScanCommandTests {
  /// A folder with `LegacyArchives/NotesApp-1.0/profile.archive` holding an email, and a manifest.
  static func repository(reviewed: String = "") throws -> String {
    let root = NSTemporaryDirectory() + "privacy-scan-" + UUID().uuidString
    let archives = root + "/LegacyArchives/NotesApp-1.0"
    try FileManager.default.createDirectory(atPath: archives, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: root + "/manifests", withIntermediateDirectories: true)
    var builder = KeyedArchiveBuilder()
    let email = builder.string("avery@corp-mail.de")
    builder.setRoot(builder.object("NotesApp.Profile", [("email", email)]))
    try Data(builder.bytes()).write(to: URL(fileURLWithPath: archives + "/profile.archive"))
    let manifest = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="NotesApp" version="1.0" platform="iOS 17" produced="2024-01-01"/>
        <archive path="NotesApp-1.0/profile.archive" sha256="\(String(repeating: "0", count: 64))">
          \(reviewed)
        </archive>
      </manifest>
      """
    try Data(manifest.utf8).write(to: URL(fileURLWithPath: root + "/manifests/NotesApp-1.0.xml"))
    return root
  }

  static func scan(_ root: String, _ extra: [String] = []) -> InProcessCommand.Result {
    InProcessCommand.run(
      [
        "archive-harness", "privacy-scan", "--manifests", root + "/manifests", "--archives",
        root + "/LegacyArchives",
      ] + extra)
  }

  @Test("The shipped archives have nothing that looks like personal data")
  func shippedArchivesAreClean() {
    let root = Corpus.packageRoot.path
    let result = Self.scan(root)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains(" 0 findings"))
  }

  @Test("An email exits 1, named by file and key path, masked")
  func reportsFinding() throws {
    let root = try Self.repository()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let result = Self.scan(root)
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "NotesApp-1.0/profile.archive: email: [email] looks like an email address"))
    #expect(result.stdout.contains("xxxxx@xxxx-xxxx.xx"))
    #expect(!result.stdout.contains("avery"))
    #expect(result.stdout.contains("privacy-scan: 1 files, 1 finding, 0 reviewed"))
  }

  @Test("--reveal shows the value found")
  func revealsValues() throws {
    let root = try Self.repository()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let result = Self.scan(root, ["--reveal"])
    #expect(result.stdout.contains("('avery@corp-mail.de')"))
  }

  @Test("A reviewed value is not reported, and the run exits 0")
  func honoursReviews() throws {
    let root = try Self.repository(
      reviewed: #"<reviewed keyPath="email" detector="email" reason="a test address"/>"#)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let result = Self.scan(root, ["--verbose"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("reviewed "))
    #expect(result.stdout.contains("a test address"))
  }

  @Test("A review that covers nothing is a warning at its line")
  func warnsOfStaleReviews() throws {
    let root = try Self.repository(reviewed: #"<reviewed keyPath="phone" reason="gone"/>"#)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let result = Self.scan(root)
    #expect(result.status == 1)
    #expect(result.stderr.contains("NotesApp-1.0.xml:5:"))
    #expect(result.stderr.contains("warning: [stale-review]"))
  }

  @Test("--format json follows its shipped schema")
  func jsonFollowsSchema() throws {
    let root = try Self.repository()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let result = Self.scan(root, ["--format", "json"])
    #expect(result.status == 1)
    let violations = try JSONSchemas.violations(of: result.stdout, against: .privacyScan)
    #expect(violations.isEmpty, "\(violations.map(\.description))")
  }

  @Test("An archives folder that does not exist is an error")
  func rejectsMissingFolder() throws {
    let result = InProcessCommand.run([
      "archive-harness", "privacy-scan", "--archives", "/nonexistent-archives",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("no such archives folder"))
  }
}
