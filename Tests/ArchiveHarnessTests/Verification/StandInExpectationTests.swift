import ArchiveCoder
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Field expectations that name a stand-in's fields (`color.red`), which the archive does not
/// hold under that name: the object the secure path decoded decides them.
@Suite("Expectations on stand-in fields")
struct StandInExpectationTests {
  static let registry = ClassRegistry(platformClasses: PlatformClass.allCases)

  static func verify(_ expectations: String) throws -> VerificationCase {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="TextEdit" version="1" platform="macOS 14" produced="2024-01-01"/>
        <allowedClasses>
          <class name="NSMutableAttributedString"/><class name="NSColor"/>
        </allowedClasses>
        <archive path="michaelwright235-nskeyedunarchiver/NSMutableAttributedString.plist"
                 sha256="497164e5f20da45f20b2b502199210e47a06f54c843d7c49ecb11c143cf7209c">
      \(expectations)
        </archive>
      </manifest>
      """
    let result = ManifestLoader.load(
      bytes: Array(text.utf8), file: "stand-ins.xml", baseDirectory: Corpus.directory.path,
      archivesDirectory: Corpus.directory.path)
    let manifest = try #require(result.manifest, "\(result.diagnostics)")
    let entry = try #require(manifest.archives.first)
    let verifier = Verifier(
      registry: registry, runner: InProcessPathRunner(registry: registry),
      paths: [.legacy, .secure])
    return verifier.verify(entry, of: manifest, archivesDirectory: Corpus.directory.path)
  }

  @Test("A stand-in field the archive does not name passes when the decoded object has it")
  func standInFieldPasses() throws {
    let result = try Self.verify(
      #"<real key="NSAttributes[0].NSColor.red" tolerance="0.000001">0.9859541655</real>"#)
    #expect(result.expectations.count == 1)
    #expect(result.expectations.allSatisfy { $0.passed }, "\(result.expectations)")
  }

  @Test("A stand-in field with another value fails on the decoded object")
  func standInFieldMismatchFails() throws {
    let result = try Self.verify(#"<real key="NSAttributes[0].NSColor.red">0.5</real>"#)
    #expect(result.expectations.contains { !$0.passed })
  }

  @Test("A field neither the archive nor the decoded object has still fails")
  func unknownFieldFails() throws {
    let result = try Self.verify(#"<present key="NSAttributes[0].NSColor.purple"/>"#)
    #expect(result.expectations.contains { !$0.passed })
  }
}
