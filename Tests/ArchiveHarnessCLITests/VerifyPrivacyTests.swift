import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@Suite("archive-harness verify --privacy, run as a user would")
struct VerifyPrivacyTests {
  /// A folder with one archive holding an email, listed with its sha256 in a manifest.
  ///
  /// Its class is registered nowhere, so the manifest expects the harness paths to reject it:
  /// the entry passes verify, and only the privacy scan can fail it.
  static func repository(reviewed: String = "") throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "verify-privacy-\(UUID().uuidString)")
    let archives = root.appendingPathComponent("LegacyArchives/NotesApp-1.0")
    try FileManager.default.createDirectory(at: archives, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("manifests"), withIntermediateDirectories: true)
    var builder = KeyedArchiveBuilder()
    let email = builder.string("avery@corp-mail.de")
    let title = builder.string("Groceries")
    builder.setRoot(builder.object("NotesApp.Profile", [("email", email), ("title", title)]))
    let bytes = builder.bytes()
    try Data(bytes).write(to: archives.appendingPathComponent("profile.archive"))
    let manifest = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="NotesApp" version="1.0" platform="iOS 17" produced="2024-01-01"/>
        <archive path="NotesApp-1.0/profile.archive" sha256="\(SHA256Checksum.hash(bytes).hexadecimal)">
          <legacy outcome="rejected" category="unmapped-class"/>
          <secure outcome="rejected" category="unmapped-class"/>
          \(reviewed)
        </archive>
      </manifest>
      """
    try Data(manifest.utf8).write(
      to: root.appendingPathComponent("manifests/NotesApp-1.0.xml"))
    return root
  }

  static func verify(_ root: URL, _ extra: [String]) throws -> CommandRunner.Result {
    try CommandRunner.run(
      [
        "verify", "--manifests", root.appendingPathComponent("manifests").path, "--archives",
        root.appendingPathComponent("LegacyArchives").path,
      ] + extra)
  }

  @Test("The shipped archives pass verify --privacy, and the report notes what was scanned")
  func shippedArchivesPass() throws {
    let result = try CommandRunner.run(["verify", "--privacy"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("note: privacy scan: 24 archives, 0 findings, 0 reviewed"))
  }

  @Test("Without --privacy an archive holding an email passes verify")
  func withoutPrivacyPasses() throws {
    let root = try Self.repository()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Self.verify(root, [])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(!result.stdout.contains("privacy scan"))
    #expect(!result.stdout.contains("personal-data"))
  }

  @Test("With --privacy an email fails the case with exit 1, by key path, masked")
  func findingFailsInText() throws {
    let root = try Self.repository()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Self.verify(root, ["--privacy"])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("FAIL "))
    #expect(result.stdout.contains("✗ privacy"))
    #expect(result.stdout.contains("rejected [personal-data]"))
    #expect(
      result.stdout.contains(
        "1 value looks like personal data: email: [email] looks like an email address in a string: xxxxx@xxxx-xxxx.xx"
      ))
    #expect(!result.stdout.contains("avery"))
    #expect(result.stdout.contains("note: privacy scan: 1 archive, 1 finding, 0 reviewed"))
  }

  @Test(
    "With --privacy --format json the finding is the case's 'privacy' path and follows the schema")
  func findingInJSON() throws {
    let root = try Self.repository()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Self.verify(root, ["--privacy", "--format", "json"])
    #expect(result.status == 1)
    let violations = try JSONSchemas.violations(of: result.stdout, against: .verify)
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    let document = try JSONDocument(parsing: result.stdout)
    guard case .array(let cases)? = document["cases"],
      case .object(let paths)? = cases.first?["paths"]
    else {
      Issue.record("the report has no paths")
      return
    }
    #expect(cases.first?["status"] == .string("failed"))
    #expect(paths["privacy"]?["outcome"] == .string("rejected"))
    #expect(paths["privacy"]?["category"] == .string("personal-data"))
    #expect(paths["privacy"]?["matches"] == .bool(false))
    #expect(!result.stdout.contains("avery"))
  }

  @Test("With --privacy --format junit the finding is a failure of the entry's test case")
  func findingInJUnit() throws {
    let root = try Self.repository()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Self.verify(root, ["--privacy", "--format", "junit"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("failures=\"1\""))
    #expect(result.stdout.contains("personal-data"))
    #expect(!result.stdout.contains("avery"))
  }

  @Test("A manifest review of the value makes verify --privacy pass and counts it as reviewed")
  func reviewedFindingPasses() throws {
    let root = try Self.repository(
      reviewed: #"<reviewed keyPath="email" reason="a documentation address"/>"#)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Self.verify(root, ["--privacy"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("note: privacy scan: 1 archive, 0 findings, 1 reviewed"))
  }

  @Test("A review that covers nothing is a note of its case, not a failure")
  func staleReviewIsANote() throws {
    let root = try Self.repository(
      reviewed: #"<reviewed keyPath="email" reason="a documentation address"/>"#
        + #"<reviewed keyPath="title" reason="not personal"/>"#)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Self.verify(root, ["--privacy"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("privacy: the review of 'title'"))
    #expect(result.stdout.contains("covers no finding; remove it"))
  }
}
