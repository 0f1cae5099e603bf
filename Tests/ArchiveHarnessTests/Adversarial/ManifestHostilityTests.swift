import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// Hostile manifests: entity tricks, huge or deep documents, refused encodings, escaping paths.
@Suite("Hostile manifests")
struct ManifestHostilityTests {
  /// The package root.
  static let root = Corpus.packageRoot
  static let archivesDirectory = root.appendingPathComponent("LegacyArchives").path
  static let manifestsDirectory = root.appendingPathComponent("manifests").path

  /// A shipped manifest's text, to mutate.
  static func shippedManifest() throws -> String {
    try String(
      contentsOf: root.appendingPathComponent("manifests/ProfilesApp-1.0.xml"), encoding: .utf8)
  }

  /// Loads manifest bytes, returning the diagnostics and the time it took.
  static func load(
    _ bytes: [UInt8], archivesDirectory: String = archivesDirectory
  ) -> (diagnostics: [ManifestDiagnostic], seconds: Double) {
    var result: ManifestLoadResult?
    let seconds = HostileInput.seconds {
      result = ManifestLoader.load(
        bytes: bytes, file: "hostile.xml", baseDirectory: manifestsDirectory,
        archivesDirectory: archivesDirectory,
        registeredClasses: ["ProfileKit.UserProfile", "ProfileKit.Address", "ProfileKit.Memo"])
    }
    return (result?.diagnostics ?? [], seconds)
  }

  /// A manifest with a DOCTYPE that declares `declarations` and a body that uses `body`.
  static func withDoctype(_ declarations: String, body: String) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE manifest [\(declarations)]>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="\(body)" version="1" platform="iOS" produced="2022-01-01"/>
      </manifest>
      """.utf8)
  }

  @Test("The shipped manifest loads without errors, so the refusals below are the input's")
  func shippedManifestLoads() throws {
    let (diagnostics, _) = Self.load(Array(try Self.shippedManifest().utf8))
    #expect(!diagnostics.containsErrors, "\(diagnostics)")
  }

  @Test("An external entity (XXE) is refused with a diagnostic and never read")
  func externalEntity() throws {
    for declaration in [
      "<!ENTITY x SYSTEM \"file:///etc/passwd\">", "<!ENTITY x SYSTEM \"http://127.0.0.1:9/x\">",
      "<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;",
    ] {
      let (diagnostics, seconds) = Self.load(Self.withDoctype(declaration, body: "&x;"))
      #expect(diagnostics.containsErrors, "\(declaration)")
      #expect(!diagnostics.contains { $0.message.contains("root:") }, "\(declaration)")
      #expect(seconds < 5)
    }
  }

  @Test("A billion-laughs entity bomb is refused quickly with a diagnostic")
  func billionLaughs() throws {
    var declarations = "<!ENTITY l0 \"lol\">"
    for level in 1...9 {
      let previous = String(repeating: "&l\(level - 1);", count: 10)
      declarations += "<!ENTITY l\(level) \"\(previous)\">"
    }
    let (diagnostics, seconds) = Self.load(Self.withDoctype(declarations, body: "&l9;"))
    #expect(diagnostics.containsErrors)
    #expect(seconds < 5)
  }

  @Test("A 100 MB attribute is refused quickly with a diagnostic")
  func hugeAttribute() throws {
    let prefix = Array(
      "<manifest xmlns=\"urn:archive-harness:manifest:1\" schemaVersion=\"1\"><producer app=\"".utf8
    )
    let suffix = Array(
      "\" version=\"1\" platform=\"iOS\" produced=\"2022-01-01\"/></manifest>".utf8)
    for size in [100 << 20, 15 << 20] {
      var bytes = prefix
      bytes.reserveCapacity(size + 200)
      bytes += [UInt8](repeating: UInt8(ascii: "a"), count: size)
      bytes += suffix
      let (diagnostics, seconds) = Self.load(bytes)
      #expect(diagnostics.containsErrors, "\(size) bytes")
      #expect(seconds < 10, "\(size) bytes")
    }
  }

  @Test("100,000 nested elements are refused quickly with a diagnostic, not a stack overflow")
  func deeplyNestedElements() throws {
    let depth = 100_000
    let text =
      "<manifest xmlns=\"urn:archive-harness:manifest:1\" schemaVersion=\"1\">"
      + String(repeating: "<producer>", count: depth)
      + String(repeating: "</producer>", count: depth)
      + "</manifest>"
    let (diagnostics, seconds) = Self.load(Array(text.utf8))
    #expect(diagnostics.containsErrors)
    #expect(seconds < 10)
  }

  @Test(
    "Documents declaring encodings libxml2 rejects are refused with a diagnostic",
    arguments: ["UTF-16", "UTF-16BE", "EBCDIC-US", "x-unknown", "UTF-32", "\u{0}"])
  func refusedEncodings(encoding: String) throws {
    let text = try Self.shippedManifest().replacingOccurrences(
      of: "encoding=\"UTF-8\"", with: "encoding=\"\(encoding)\"")
    let (diagnostics, seconds) = Self.load(Array(text.utf8))
    #expect(diagnostics.containsErrors, "\(encoding): \(diagnostics)")
    #expect(seconds < 5)
  }

  @Test("UTF-16 bytes, with or without a byte-order mark, are refused with a diagnostic")
  func utf16Bytes() throws {
    let units = Array(try Self.shippedManifest().utf16)
    var littleEndian: [UInt8] = [0xFF, 0xFE]
    var bigEndian: [UInt8] = []
    for unit in units {
      littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
    }
    for bytes in [littleEndian, bigEndian] {
      let (diagnostics, _) = Self.load(bytes)
      #expect(diagnostics.containsErrors)
    }
  }

  @Test(
    "An archive path that escapes the archives folder is refused",
    arguments: [
      "../../etc/passwd", "/etc/passwd", "ProfilesApp-1.0/../../../etc/passwd", "~/x.archive",
      "./../LegacyArchives/ProfilesApp-1.0/memo-valid.archive", "..", ".",
    ])
  func escapingArchivePath(path: String) throws {
    let text = try Self.shippedManifest().replacingOccurrences(
      of: "path=\"ProfilesApp-1.0/memo-valid.archive\"", with: "path=\"\(path)\"")
    let (diagnostics, _) = Self.load(Array(text.utf8))
    let refusal = diagnostics.first { $0.severity == .error && $0.message.contains(path) }
    #expect(refusal != nil, "\(diagnostics)")
  }

  @Test("An archive path through a symbolic link out of the archives folder is refused")
  func symbolicLinkOutOfTheFolder() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "adversarial-archives-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outside = Self.root.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/memo-valid.archive")
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("memo-valid.archive"), withDestinationURL: outside)
    let text = try Self.shippedManifest().replacingOccurrences(
      of: "path=\"ProfilesApp-1.0/memo-valid.archive\"", with: "path=\"memo-valid.archive\"")
    let (diagnostics, _) = Self.load(Array(text.utf8), archivesDirectory: folder.path)
    #expect(
      diagnostics.contains {
        $0.severity == .error && $0.message.contains("resolves outside the archives folder")
      })
  }
}
