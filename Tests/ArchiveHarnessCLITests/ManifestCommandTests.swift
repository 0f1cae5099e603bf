import Foundation
import HarnessTestSupport
import Testing

/// `manifest author` and `manifest validate` run by `archive-harness`, whose registered
/// classes are the sample app's version 2 (module ProfileKit).
@Suite("archive-harness manifest author and validate, with registered classes")
struct ManifestCommandTests {
  private func scratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "manifest-command-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test("author maps version 1's class names to the registered version 2 classes")
  func authorMapsToRegisteredClasses() throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("authored.xml").path
    let result = try CommandRunner.run([
      "manifest", "author", "ProfilesApp-1.1/profile-valid.archive",
      "ProfilesApp-1.0/profiles-list.archive", "-o", output,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: output, encoding: .utf8)
    #expect(
      text.contains(
        "<map from=\"_TtC11ProfilesApp11UserProfile\" to=\"ProfileKit.UserProfile\"/>"))
    #expect(text.contains("<map from=\"ProfilesApp.Address\" to=\"ProfileKit.Address\"/>"))
    let allowed = try #require(
      text.range(of: "<allowedClasses>").flatMap { start in
        text.range(of: "</allowedClasses>").map { text[start.lowerBound..<$0.upperBound] }
      })
    #expect(allowed.contains("<class name=\"ProfileKit.UserProfile\"/>"))
    #expect(!allowed.contains("ProfilesApp."))
    #expect(!allowed.contains("_TtC"))

    let validated = try CommandRunner.run(["manifest", "validate", output])
    #expect(validated.status == 0, "\(validated.stderr)\n\(text)")
  }

  @Test("author reports a class it cannot map as a warning naming the archive")
  func authorReportsUnmappedClass() throws {
    let result = try CommandRunner.run([
      "manifest", "author", "ProfilesApp-1.0/profile-renamed-unmapped.archive",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "ProfilesApp-1.0/profile-renamed-unmapped.archive: warning: [semantic] class "
          + "'ProfilesApp.PostalAddress' maps to no registered class"))
    #expect(result.stdout.contains("<!-- unmapped 'ProfilesApp.PostalAddress'"))
  }

  @Test("author writes the expected rejection of a truncated archive")
  func authorWritesExpectedRejection() throws {
    let result = try CommandRunner.run([
      "manifest", "author", "ProfilesApp-1.0/memo-truncated.archive",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("<legacy outcome=\"rejected\" category=\"truncated\"/>"))
    #expect(result.stdout.contains("<secure outcome=\"rejected\" category=\"truncated\"/>"))
  }

  @Test("validate reports every unregistered class with its line and column, exit 1")
  func validateReportsUnregisteredClasses() throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifest = directory.appendingPathComponent("manifest.xml").path
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="ProfilesApp" version="1.0" platform="iOS 15.4" produced="2022-01-01"/>
        <classMap>
          <map from="ProfilesApp.UserProfile" to="ProfileKit.UserProfile"/>
          <map from="ProfilesApp.Address" to="ProfileKit.PostalAddress"/>
        </classMap>
        <allowedClasses>
          <class name="ProfileKit.UserProfile"/>
          <class name="ProfileKit.PostalAddress"/>
          <class name="ProfilesApp.Memo"/>
        </allowedClasses>
        <rootClass name="ProfileKit.Profile"/>
      </manifest>

      """
    try text.write(toFile: manifest, atomically: false, encoding: .utf8)
    let result = try CommandRunner.run(["manifest", "validate", manifest])
    #expect(result.status == 1)
    let errors = result.stderr.split(separator: "\n").map(String.init)
    #expect(
      errors == [
        "\(manifest):6:5: error: [semantic] class map target 'ProfileKit.PostalAddress' (for "
          + "'ProfilesApp.Address') is not a registered class",
        "\(manifest):10:5: error: [semantic] allowed class 'ProfileKit.PostalAddress' is the "
          + "target of a class mapping but not a registered class",
        "\(manifest):11:5: error: [semantic] allowed class 'ProfilesApp.Memo' is neither a "
          + "registered class nor the target of a class mapping",
        "\(manifest):13:3: error: [semantic] root class 'ProfileKit.Profile' is neither a "
          + "registered class nor the target of a class mapping",
      ], "\(result.stderr)")
  }
}
