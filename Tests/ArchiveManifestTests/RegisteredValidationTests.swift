import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@Suite("Validation against registered classes")
struct RegisteredValidationTests {
  static let registered: Set<String> = ["NotesKit.Note", "NotesKit.FileAttachment"]

  private func lines(_ body: String, registeredClasses: Set<String> = registered) throws
    -> [String]
  {
    ManifestTestSupport.lines(
      try ManifestTestSupport.load(
        ManifestTestSupport.manifest(body), registeredClasses: registeredClasses))
  }

  @Test("A class map target that is not registered is an error at its line and column")
  func unregisteredMapTarget() throws {
    let lines = try lines(
      """
        <classMap>
          <map from="NotesV1.Note" to="NotesKit.Note"/>
          <map from="NotesV1.Attachment" to="NotesKit.Attachment"/>
        </classMap>
      """)
    #expect(
      lines == [
        "6:5: class map target 'NotesKit.Attachment' (for 'NotesV1.Attachment') is not a "
          + "registered class"
      ])
  }

  @Test("An allowed class that only a class mapping names is an error")
  func allowedClassOnlyMapped() throws {
    let lines = try lines(
      """
        <classMap>
          <map from="NotesV1.Attachment" to="NotesKit.Attachment"/>
        </classMap>
        <allowedClasses>
          <class name="NotesKit.Note"/>
          <class name="NotesKit.Attachment"/>
        </allowedClasses>
      """)
    #expect(
      lines == [
        "5:5: class map target 'NotesKit.Attachment' (for 'NotesV1.Attachment') is not a "
          + "registered class",
        "9:5: allowed class 'NotesKit.Attachment' is the target of a class mapping but not a "
          + "registered class",
      ])
  }

  @Test("A root class that is not registered is an error at its line and column")
  func unregisteredRootClass() throws {
    let lines = try lines(#"  <rootClass name="NotesKit.Notebook"/>"#)
    #expect(
      lines == [
        "4:3: root class 'NotesKit.Notebook' is neither a registered class nor the target of a "
          + "class mapping"
      ])
  }

  @Test("An archive's own allowed class that is not registered is an error")
  func unregisteredEntryAllowedClass() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let bytes = Array("x".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: archives + "/a.archive"))
    let body = """
        <archive path="a.archive" sha256="\(SHA256Checksum.hash(bytes).hexadecimal)">
          <allowedClasses><class name="NotesKit.Ghost"/></allowedClasses>
        </archive>
      """
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(body), archivesDirectory: archives,
      registeredClasses: Self.registered)
    #expect(
      ManifestTestSupport.lines(result) == [
        "5:21: allowed class 'NotesKit.Ghost' is neither a registered class nor the target of "
          + "a class mapping"
      ])
  }

  @Test("A map target in a class map file is reported in that file, at its line and column")
  func unregisteredTargetInMapFile() throws {
    let archives = try ManifestTestSupport.temporaryDirectory()
    let map = """
      <classMap xmlns="urn:archive-harness:manifest:1">
        <map from="NotesV1.Note" to="NotesKit.Note"/>
        <map from="NotesV1.Tag" to="NotesKit.Tag"/>
      </classMap>
      """
    try Data(map.utf8).write(to: URL(fileURLWithPath: archives + "/map.xml"))
    let result = try ManifestTestSupport.load(
      ManifestTestSupport.manifest(#"  <classMapFile href="map.xml"/>"#),
      archivesDirectory: archives, registeredClasses: Self.registered)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(result.diagnostics.count == 1)
    #expect(diagnostic.location.file?.hasSuffix("/map.xml") == true)
    #expect(diagnostic.location.line == 3)
    #expect(diagnostic.location.column == 3)
    #expect(diagnostic.message.contains("'NotesKit.Tag' (for 'NotesV1.Tag') is not a registered"))
  }

  @Test("Without model classes registered, a class mapping's target counts as known")
  func foundationOnlyRegistryIsLenient() throws {
    let lines = try lines(
      """
        <classMap>
          <map from="NotesV1.Note" to="NotesKit.Note"/>
        </classMap>
        <allowedClasses>
          <class name="NotesKit.Note"/>
          <class name="NSArray"/>
        </allowedClasses>
      """, registeredClasses: ["NSArray", "NSString"])
    #expect(lines.isEmpty)
  }
}
