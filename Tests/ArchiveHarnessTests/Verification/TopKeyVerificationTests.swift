import ArchiveCoder
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Manifest entries that read `$top` keys other than `root`: `decodeKeys`, and expectations
/// on each key, checked against the archive and against what each path decoded.
@Suite("Top keys in manifests")
struct TopKeyVerificationTests {
  static let registry = ClassRegistry(platformClasses: PlatformClass.allCases)
  static let unkeyedArraysSHA = "187ce1351e7e9d6737a869dbc1bcb5a88e04c518caf98cdf5784d849118efb32"

  /// A manifest over the corpus's unkeyed archive of arrays, with `entryBody` inside its entry.
  static func manifestText(decodeKeys: String?, entryBody: String) -> String {
    let keys = decodeKeys.map { " decodeKeys=\"\($0)\"" } ?? ""
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="Instruments" version="1" platform="macOS 10.14" produced="2019-01-01"/>
        <allowedClasses>
          <class name="NSArray"/><class name="NSMutableArray"/>
          <class name="NSSet"/><class name="NSMutableSet"/>
        </allowedClasses>
        <archive path="danielpaulus-nskeyedarchiver/arrays.bin" sha256="\(unkeyedArraysSHA)"\(keys)>
      \(entryBody)
        </archive>
      </manifest>
      """
  }

  static func load(_ text: String) throws -> Manifest {
    let result = ManifestLoader.load(
      bytes: Array(text.utf8), file: "top-keys.xml", baseDirectory: Corpus.directory.path,
      archivesDirectory: Corpus.directory.path)
    #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
    return try #require(result.manifest)
  }

  @Test("decodeKeys reads every listed key; key paths start at the first unless they name one")
  func decodeKeysAndExpectations() throws {
    let manifest = try Self.load(
      Self.manifestText(
        decodeKeys: "$0 $1 $2 $3",
        entryBody: """
              <integer key="[11]">42</integer>
              <count key="$top.$1" equals="3"/>
              <bool key="$top.$1[0]">true</bool>
          """))
    let entry = try #require(manifest.archives.first)
    #expect(entry.decodeKeys == ["$0", "$1", "$2", "$3"])
    #expect(entry.topKey == "$0")
    let verifier = Verifier(
      registry: Self.registry, runner: InProcessPathRunner(registry: Self.registry),
      paths: [.legacy, .secure])
    let result = verifier.verify(entry, of: manifest, archivesDirectory: Corpus.directory.path)
    #expect(result.paths.allSatisfy { $0.outcome == .decoded && $0.matches }, "\(result.paths)")
    #expect(!result.expectations.isEmpty)
    let failed = result.expectations.filter { !$0.passed }
    #expect(failed.isEmpty, "\(failed)")
  }

  @Test("Without decodeKeys an entry reads root, which this archive lacks")
  func withoutDecodeKeysRootIsRead() throws {
    let manifest = try Self.load(Self.manifestText(decodeKeys: nil, entryBody: ""))
    let entry = try #require(manifest.archives.first)
    #expect(entry.decodeKeys == ["root"])
    let verifier = Verifier(
      registry: Self.registry, runner: InProcessPathRunner(registry: Self.registry),
      paths: [.legacy])
    let result = verifier.verify(entry, of: manifest, archivesDirectory: Corpus.directory.path)
    #expect(result.paths.first?.category == .rejection(.missingField))
  }

  @Test("A key named twice in decodeKeys is an error")
  func repeatedDecodeKeyIsAnError() throws {
    let text = Self.manifestText(decodeKeys: "$0 $0", entryBody: "")
    let result = ManifestLoader.load(
      bytes: Array(text.utf8), file: "top-keys.xml", baseDirectory: Corpus.directory.path,
      archivesDirectory: Corpus.directory.path)
    #expect(result.diagnostics.contains { $0.message.contains("names '$0' more than once") })
  }
}
