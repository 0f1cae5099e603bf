import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@Suite("Manifest authoring of archives without a root")
struct ManifestAuthorTopKeyTests {
  /// An archive as unkeyed encoding writes it: values under `$0`, `$1`, … and no `root`.
  private func unkeyedArchive(keys: [String]) -> [UInt8] {
    var builder = KeyedArchiveBuilder()
    for (index, key) in keys.enumerated() {
      builder.top[key] = builder.string("value \(index)")
    }
    return builder.bytes()
  }

  private func author(_ bytes: [UInt8], archives: String) throws -> String {
    try Data(bytes).write(to: URL(fileURLWithPath: archives + "/unkeyed.archive"))
    let result = ManifestAuthor().author([
      ManifestAuthor.Input(path: "unkeyed.archive", bytes: bytes)
    ])
    #expect(result.diagnostics.isEmpty)
    return result.text
  }

  @Test("An archive without root gets decodeKeys listing every top key in read order")
  func decodeKeysListEveryTopKey() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let text = try author(unkeyedArchive(keys: ["$10", "$0", "$2", "$1"]), archives: archives)
    #expect(text.contains("decodeKeys=\"$0 $1 $2 $10\""), "\(text)")
    let result = try ManifestTestSupport.load(text, archivesDirectory: archives)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)\n\(text)")
    let entry = try #require(result.manifest?.archives.first)
    #expect(entry.decodeKeys == ["$0", "$1", "$2", "$10"])
    let findings = ExpectationEngine(manifest: try #require(result.manifest)).evaluate(
      entry, archivesDirectory: archives)
    #expect(findings.count == 4)
    #expect(findings.allSatisfy { $0.passed }, "\(findings.filter { !$0.passed })")
  }

  @Test("An archive with root gets no decodeKeys")
  func rootArchiveHasNoDecodeKeys() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let text = try author(unkeyedArchive(keys: ["root", "$0"]), archives: archives)
    #expect(!text.contains("decodeKeys"), "\(text)")
  }

  @Test("A top key holding white space is named in a comment, not in decodeKeys")
  func whiteSpaceKeyIsNotListed() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let text = try author(unkeyedArchive(keys: ["$0", "two words"]), archives: archives)
    #expect(!text.contains("decodeKeys="), "\(text)")
    #expect(text.contains("decodeKeys cannot list"))
    let result = try ManifestTestSupport.load(text, archivesDirectory: archives)
    #expect(result.manifest != nil, "\(result.diagnostics)")
  }
}
