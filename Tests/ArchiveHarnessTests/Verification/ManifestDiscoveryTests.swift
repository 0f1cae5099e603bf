import ArchiveCoder
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// Manifest discovery finds every manifest in a folder, whatever comes before its root, and
/// skips nothing silently: a file that is not a manifest is listed, so loading names it.
@Suite("Manifest discovery")
struct ManifestDiscoveryTests {
  static let manifest = """
    <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
      <producer app="A" version="1" platform="iOS 17" produced="2024-01-01"/>
    </manifest>

    """

  /// A folder with the given files, by relative path; the caller removes it.
  static func folder(_ files: [String: [UInt8]]) throws -> String {
    let folder = NSTemporaryDirectory() + "discovery-\(UUID().uuidString)"
    for (name, bytes) in files {
      let path = folder + "/" + name
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    return folder
  }

  static func names(in folder: String) -> [String] {
    Verifier.manifestFiles(in: folder).map { String($0.dropFirst(folder.count + 1)) }
  }

  @Test("A manifest after a licence comment of 4,050 characters is found")
  func longLeadingCommentIsFound() throws {
    let comment = "<!-- " + String(repeating: "licence ", count: 506) + "-->\n"
    let folder = try Self.folder(["a.xml": Array((comment + Self.manifest).utf8)])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(Self.names(in: folder) == ["a.xml"])
  }

  @Test("A manifest whose root has a namespace prefix is found")
  func prefixedRootIsFound() throws {
    let text = Self.manifest.replacingOccurrences(
      of: "<manifest xmlns=", with: "<m:manifest xmlns:m="
    )
    .replacingOccurrences(of: "<producer", with: "<m:producer")
    .replacingOccurrences(of: "</manifest>", with: "</m:manifest>")
    let folder = try Self.folder(["prefixed.xml": Array(text.utf8)])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(Self.names(in: folder) == ["prefixed.xml"])
  }

  @Test("A UTF-16 manifest, with its byte-order mark, is found")
  func utf16ManifestIsFound() throws {
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + Self.manifest).utf16 {
      bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    let folder = try Self.folder(["wide.xml": bytes])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(Self.names(in: folder) == ["wide.xml"])
  }

  @Test("A manifest named .XML is found")
  func upperCaseExtensionIsFound() throws {
    let folder = try Self.folder(["LOUD.XML": Array(Self.manifest.utf8)])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(Self.names(in: folder) == ["LOUD.XML"])
  }

  @Test("A class map file and the schema folder are not manifests; any other XML file is listed")
  func otherFilesAreListedNotSkipped() throws {
    let folder = try Self.folder([
      "maps/shared.xml": Array(
        "<classMap xmlns=\"urn:archive-harness:manifest:1\"><map from=\"A\" to=\"B\"/></classMap>"
          .utf8),
      "schema/archive-manifest.xsd": Array("<xs:schema/>".utf8),
      "schema/copy.xml": Array(Self.manifest.utf8),
      "notes.xml": Array("<notes>not a manifest</notes>".utf8),
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(Self.names(in: folder) == ["notes.xml"])
  }

  @Test("Loading a file that is not a manifest is an error that names it")
  func nonManifestIsAnError() throws {
    let folder = try Self.folder(["notes.xml": Array("<notes>not a manifest</notes>".utf8)])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let registry = ClassRegistry()
    let verifier = Verifier(registry: registry, runner: InProcessPathRunner(registry: registry))
    let loaded = verifier.load(Verifier.manifestFiles(in: folder), archivesDirectory: folder)
    #expect(loaded.hasErrors)
    #expect(
      loaded.diagnostics.contains {
        $0.severity == .error && $0.location.file?.hasSuffix("notes.xml") == true
      },
      "\(loaded.diagnostics)")
  }
}
