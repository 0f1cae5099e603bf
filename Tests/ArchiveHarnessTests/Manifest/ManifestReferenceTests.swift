import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@Suite("Manifest references stay inside the manifests folder")
struct ManifestReferenceTests {
  /// A manifests folder with `maps/profiles.xml`, and a class map outside it at `outside/map.xml`.
  struct Fixture {
    let base: String
    let manifests: String
    let outside: String

    init() throws {
      base = try ManifestTestSupport.temporaryDirectory()
      manifests = base + "/manifests"
      outside = base + "/outside"
      for folder in [manifests + "/maps", outside] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      let map = """
        <classMap xmlns="urn:archive-harness:manifest:1">
          <map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/>
        </classMap>
        """
      for file in [manifests + "/maps/profiles.xml", outside + "/map.xml"] {
        try Data(map.utf8).write(to: URL(fileURLWithPath: file))
      }
    }

    /// Loads a manifest in the manifests folder whose only reference is `href`.
    func load(href: String, root: String? = nil) throws -> ManifestLoadResult {
      let body = """
          <classMapFile href="\(href)"/>
          <allowedClasses><class name="ProfileKit.UserProfile"/></allowedClasses>
        """
      return ManifestLoader.load(
        bytes: Array(ManifestTestSupport.manifest(body).utf8), file: "manifest.xml",
        baseDirectory: manifests, archivesDirectory: base,
        registeredClasses: ["ProfileKit.UserProfile"], manifestsRoot: root)
    }

    func remove() {
      try? FileManager.default.removeItem(atPath: base)
    }
  }

  @Test("A reference relative to the manifest's folder is read")
  func relativeReferenceIsRead() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let result = try fixture.load(href: "maps/profiles.xml")
    #expect(result.diagnostics.isEmpty)
    #expect(result.manifest?.classMappings.first?.currentName == "ProfileKit.UserProfile")
  }

  @Test("An absolute reference is refused at its line and column, and the file is not read")
  func absoluteReferenceIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let result = try fixture.load(href: fixture.outside + "/map.xml")
    #expect(
      ManifestTestSupport.lines(result) == [
        "4:17: class map file '\(fixture.outside)/map.xml' is absolute; write it relative to "
          + "the manifest's folder"
      ])
    #expect(result.manifest?.classMappings.isEmpty == true)
  }

  @Test("A reference starting with '~' is refused as absolute")
  func homeReferenceIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let result = try fixture.load(href: "~/map.xml")
    #expect(
      ManifestTestSupport.lines(result).first?.hasPrefix(
        "4:17: class map file '~/map.xml' is absolute") == true)
  }

  @Test("A reference with '..' is refused at its line and column, even when it would come back")
  func parentReferenceIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let result = try fixture.load(href: "maps/../../outside/map.xml")
    #expect(
      ManifestTestSupport.lines(result) == [
        "4:17: class map file 'maps/../../outside/map.xml' uses '..'; references must stay "
          + "inside the manifests folder"
      ])
    let back = try fixture.load(href: "maps/../maps/profiles.xml")
    #expect(ManifestTestSupport.lines(back).first?.contains("uses '..'") == true)
  }

  @Test("A symbolic link leading out of the manifests folder is refused")
  func symbolicLinkOutIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: fixture.manifests + "/shared", withDestinationPath: fixture.outside)
    let result = try fixture.load(href: "shared/map.xml")
    #expect(
      ManifestTestSupport.lines(result) == [
        "4:17: class map file 'shared/map.xml' resolves outside the manifests folder "
          + "'\(fixture.manifests)' (through a symbolic link)"
      ])
    #expect(result.manifest?.classMappings.isEmpty == true)
  }

  @Test("A symbolic link that stays inside the manifests root is followed")
  func symbolicLinkInsideRootIsRead() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: fixture.manifests + "/current.xml", withDestinationPath: "maps/profiles.xml")
    let result = try fixture.load(href: "current.xml")
    #expect(result.diagnostics.isEmpty)
    #expect(result.manifest?.classMappings.count == 1)
  }

  @Test("The manifests root of verify --manifests bounds the links of a manifest in a subfolder")
  func manifestsRootBoundsSubfolders() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    // manifests/maps/up → manifests: inside the root given, outside the manifest's own folder.
    try FileManager.default.createSymbolicLink(
      atPath: fixture.manifests + "/maps/up", withDestinationPath: fixture.manifests)
    let inside = try fixture.load(href: "maps/up/maps/profiles.xml", root: fixture.manifests)
    #expect(inside.diagnostics.isEmpty)
    let outside = try fixture.load(href: "maps/up/maps/profiles.xml", root: fixture.base + "/none")
    #expect(ManifestTestSupport.lines(outside).first?.contains("resolves outside") == true)
  }

  @Test("A reference naming a folder is refused")
  func folderReferenceIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let result = try fixture.load(href: "maps")
    #expect(
      ManifestTestSupport.lines(result) == ["4:17: class map file 'maps' is a folder, not a file"])
  }

  @Test("manifest author --update does not read a reference that escapes the manifest's folder")
  func authorUpdateRefusesEscapingReference() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let text = ManifestTestSupport.manifest(#"  <classMapFile href="../outside/map.xml"/>"#)
    let result = ManifestAuthor().update(
      existingText: text, file: fixture.manifests + "/manifest.xml", with: [])
    let diagnostic = try #require(result.diagnostics.first { $0.severity == .error })
    #expect(diagnostic.location.line == 4)
    #expect(diagnostic.location.column == 17)
    #expect(diagnostic.message.contains("uses '..'"))
  }
}
