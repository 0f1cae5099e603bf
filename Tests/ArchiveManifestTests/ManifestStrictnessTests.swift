import ArchiveFormat
import ArchiveManifest
import HarnessTestSupport
import Testing

/// The manifest's `strictness` attribute: read into the model, absent means `current`, and a
/// value outside the schema's enumeration refused at its place.
@Suite("Manifest strictness")
struct ManifestStrictnessTests {
  /// A minimal manifest whose start tag (line 2) carries `attributes`.
  private static func manifest(_ attributes: String) -> String {
    ManifestTestSupport.manifest("").replacingOccurrences(
      of: #"schemaVersion="1">"#, with: #"schemaVersion="1"\#(attributes)>"#)
  }

  @Test("strictness=\"apple-future\" on the manifest is read into the model")
  func appleFutureIsRead() throws {
    let result = try ManifestTestSupport.load(Self.manifest(#" strictness="apple-future""#))
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(try #require(result.manifest).strictness == .appleFuture)
  }

  @Test("A manifest without strictness, or with strictness=\"current\", is current")
  func currentByDefault() throws {
    for attributes in ["", #" strictness="current""#] {
      let result = try ManifestTestSupport.load(Self.manifest(attributes))
      #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
      #expect(try #require(result.manifest).strictness == .current)
    }
  }

  @Test("An unknown strictness is refused at manifest.xml:LINE:COL of the attribute")
  func unknownStrictnessRefused() throws {
    let result = try ManifestTestSupport.load(Self.manifest(#" strictness="apple-past""#))
    #expect(result.manifest == nil)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.severity == .error)
    #expect(diagnostic.location.file == "manifest.xml")
    #expect(diagnostic.location.line == 2)
    #expect(diagnostic.location.column == 68)
    #expect(
      diagnostic.message.hasPrefix(
        "Element 'manifest', attribute 'strictness': [facet 'enumeration'] The value "
          + "'apple-past' is not an element of the set {'current', 'apple-future'}"),
      "\(diagnostic.message)")
  }
}
