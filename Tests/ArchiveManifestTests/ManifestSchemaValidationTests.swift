import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@Suite("Manifest schema validation")
struct ManifestSchemaValidationTests {
  private func diagnostics(_ body: String) throws -> [String] {
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(body))
    #expect(!result.isValid)
    #expect(result.diagnostics.allSatisfy { $0.location.file == "manifest.xml" })
    return ManifestTestSupport.lines(result)
  }

  private var sha: String { ManifestTestSupport.zeroSHA }

  @Test("The built-in schema is byte-identical to manifests/schema/archive-manifest.xsd")
  func builtInSchemaMatchesTheFile() throws {
    let file = try Data(contentsOf: URL(fileURLWithPath: ManifestTestSupport.schemaPath))
    #expect(Array(ManifestSchema.builtInXSD.utf8) == Array(file))
  }

  @Test("A schema file given with --schema validates the same as the built-in schema")
  func schemaFileOverride() throws {
    let body = #"  <archive path="a.archive" sha256="xyz"/>"#
    let bytes = Array(ManifestTestSupport.manifest(body).utf8)
    let builtIn = ManifestLoader.load(
      bytes: bytes, file: "manifest.xml", baseDirectory: ".", archivesDirectory: ".")
    let fromFile = ManifestLoader.load(
      bytes: bytes, file: "manifest.xml", baseDirectory: ".", archivesDirectory: ".",
      schema: .file(ManifestTestSupport.schemaPath))
    #expect(!builtIn.diagnostics.isEmpty)
    #expect(builtIn.diagnostics == fromFile.diagnostics)
  }

  @Test("A schema file that is not an XSD is a diagnostic on that file")
  func brokenSchemaFile() throws {
    let folder = try ManifestTestSupport.temporaryDirectory()
    let path = folder + "/broken.xsd"
    try Data("<xs:schema xmlns:xs=\"urn:not-xsd\"/>".utf8).write(to: URL(fileURLWithPath: path))
    let result = ManifestLoader.load(
      bytes: Array(ManifestTestSupport.manifest("").utf8), file: "manifest.xml",
      baseDirectory: ".", archivesDirectory: ".", schema: .file(path))
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.category == .schemaFile)
    #expect(diagnostic.location.file == path)
    #expect(result.manifest == nil)
  }

  @Test("A manifest that declares encoding UTF-7 is refused at line 1")
  func utf7DeclarationRefused() throws {
    let text = ManifestTestSupport.manifest("").replacingOccurrences(
      of: #"encoding="UTF-8""#, with: #"encoding="UTF-7""#)
    #expect(text.contains("UTF-7"))
    let result = ManifestLoader.load(
      bytes: Array(text.utf8), file: "utf7.xml", baseDirectory: ".", archivesDirectory: ".")
    #expect(result.manifest == nil)
    #expect(
      ManifestTestSupport.lines(result) == [
        "1:1: the document must be encoded as UTF-8, but its XML declaration names encoding "
          + "'UTF-7'; write encoding=\"UTF-8\" or leave the encoding out"
      ])
  }

  @Test("A manifest that declares encoding ISO-8859-1 in single quotes is refused at line 1")
  func latin1DeclarationRefused() throws {
    let text = ManifestTestSupport.manifest("").replacingOccurrences(
      of: #"encoding="UTF-8""#, with: "encoding='ISO-8859-1'")
    let result = ManifestLoader.load(
      bytes: Array(text.utf8), file: "latin1.xml", baseDirectory: ".", archivesDirectory: ".")
    #expect(result.manifest == nil)
    #expect(ManifestTestSupport.lines(result).first?.hasPrefix("1:1: ") == true)
    #expect(ManifestTestSupport.lines(result).first?.contains("'ISO-8859-1'") == true)
  }

  @Test("A manifest with a UTF-8 byte-order mark and a lowercase utf-8 declaration loads")
  func utf8WithBOMLoads() throws {
    let text =
      "\u{FEFF}"
      + ManifestTestSupport.manifest("").replacingOccurrences(
        of: #"encoding="UTF-8""#, with: #"encoding="utf-8""#)
    let result = ManifestLoader.load(
      bytes: Array(text.utf8), file: "bom.xml", baseDirectory: ".", archivesDirectory: ".")
    #expect(result.isValid)
  }

  @Test("A minimal manifest is valid")
  func minimalManifestIsValid() throws {
    let result = try ManifestTestSupport.load(ManifestTestSupport.manifest(""))
    #expect(result.diagnostics.isEmpty)
    let manifest = try #require(result.manifest)
    #expect(manifest.producer.app == "ProfilesApp")
    #expect(manifest.producer.location.line == 3)
    #expect(manifest.archives.isEmpty)
  }

  @Test("An attribute value outside its pattern points at the attribute")
  func attributePatternError() throws {
    let lines = try diagnostics(#"  <archive path="a.archive" sha256="xyz"/>"#)
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix("4:29: Element 'archive', attribute 'sha256': [facet 'pattern']")
        == true)
  }

  @Test("An unknown attribute points at the attribute")
  func unknownAttributeError() throws {
    let lines = try diagnostics(#"  <archive path="a.archive" sha256="\#(sha)" colour="red"/>"#)
    #expect(
      lines == [
        "4:103: Element 'archive', attribute 'colour': The attribute 'colour' is not allowed"
      ])
  }

  @Test("A missing required attribute points at the element")
  func missingAttributeError() throws {
    let lines = try diagnostics(#"  <archive path="a.archive"/>"#)
    #expect(lines == ["4:3: Element 'archive': The attribute 'sha256' is required but missing"])
  }

  @Test("A value outside an enumeration points at the attribute")
  func enumerationError() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="\(sha)">
          <secure outcome="maybe"/>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix("5:13: Element 'secure', attribute 'outcome': [facet 'enumeration']")
        == true)
  }

  @Test("An unknown rejection category is refused")
  func unknownCategoryError() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="\(sha)">
          <secure outcome="rejected" category="bad-luck"/>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix("5:32: Element 'secure', attribute 'category': [facet 'enumeration']")
        == true)
  }

  @Test("An unknown element points at the element")
  func unknownElementError() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="\(sha)">
          <colour key="a">red</colour>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("5:5: Element 'colour': This element is not expected.") == true)
  }

  @Test("Elements out of order point at the misplaced element")
  func elementOrderError() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="\(sha)">
          <secure outcome="decodes"/>
          <legacy outcome="decodes"/>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("6:5: Element 'legacy': This element is not expected.") == true)
  }

  @Test("A missing producer is reported at the first element after it")
  func missingProducerError() throws {
    let text = """
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <archive path="a.archive" sha256="\(sha)"/>
      </manifest>
      """
    let result = try ManifestTestSupport.load(text)
    let lines = ManifestTestSupport.lines(result)
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix(
        "2:3: Element 'archive': This element is not expected. Expected is ( producer )") == true)
  }

  @Test("A typed value that does not parse points at its element")
  func typedValueError() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="\(sha)">
          <integer key="age">forty-two</integer>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix("5:5: Element 'integer': 'forty-two' is not a valid value") == true)
  }

  @Test("Text inside an element that takes none is refused")
  func characterContentError() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="\(sha)">
          <null key="nickname">nothing</null>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("5:5: Element 'null': Character content is not allowed") == true)
  }

  @Test("An element from another namespace is refused")
  func foreignElementError() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="\(sha)">
          <xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd"/>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix(
        "5:5: Element '{http://www.w3.org/2001/XInclude}include': This element is not expected")
        == true)
  }

  @Test("A date without a time zone is refused")
  func dateWithoutZoneError() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="\(sha)">
          <date key="created">2021-03-04T10:00:00</date>
        </archive>
      """)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("5:5: Element 'date': [facet 'pattern']") == true)
  }

  @Test("An unknown schema version is refused")
  func unknownSchemaVersionError() throws {
    let text = """
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="2">
        <producer app="A" version="1" platform="iOS" produced="2021-03-04"/>
      </manifest>
      """
    let lines = ManifestTestSupport.lines(try ManifestTestSupport.load(text))
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix(
        "1:50: Element 'manifest', attribute 'schemaVersion': [facet 'enumeration']") == true)
  }

  @Test("A manifest outside the namespace is refused")
  func missingNamespaceError() throws {
    let text = """
      <manifest schemaVersion="1">
        <producer app="A" version="1" platform="iOS" produced="2021-03-04"/>
      </manifest>
      """
    let lines = ManifestTestSupport.lines(try ManifestTestSupport.load(text))
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix("1:1: Element 'manifest': No matching global declaration") == true)
  }

  @Test("A class map file is not a manifest")
  func wrongRootElementError() throws {
    let text = """
      <classMap xmlns="urn:archive-harness:manifest:1">
        <map from="A" to="B"/>
      </classMap>
      """
    let lines = ManifestTestSupport.lines(try ManifestTestSupport.load(text))
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("1:1: expected a 'manifest' element") == true)
  }

  @Test("Every schema error is reported, not only the first")
  func everyErrorIsReported() throws {
    let lines = try diagnostics(
      """
        <archive path="a.archive" sha256="xyz"/>
        <archive path="b.archive" sha256="\(sha)" maxSize="-1"/>
        <archive sha256="\(sha)"/>
      """)
    #expect(lines.count == 3)
    #expect(lines.map { $0.prefix(5) } == ["4:29:", "5:103", "6:3: "])
  }

  @Test("Text that is not well-formed XML gives libxml2's line and column")
  func notWellFormedError() throws {
    let result = try ManifestTestSupport.load("<manifest>\n  <a></b>\n</manifest>")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.category == .xml)
    #expect(
      diagnostic.description.hasPrefix(
        "manifest.xml:2:10: error: [xml] Opening and ending tag mismatch"))
    #expect(result.manifest == nil)
  }

  @Test("Every well-formedness error is reported, and the document is refused")
  func everyXMLErrorIsReported() throws {
    let text = """
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="a & b" version="1"/>
        <a></b>
        <c x="1" x="2"/>
      </manifest>
      """
    let result = try ManifestTestSupport.load(text)
    #expect(result.manifest == nil)
    #expect(
      ManifestTestSupport.lines(result) == [
        "2:21: xmlParseEntityRef: no name",
        "3:10: Opening and ending tag mismatch: a line 3 and b",
        "4:17: Attribute x redefined",
      ])
  }

  @Test("A byte order mark does not shift columns")
  func byteOrderMarkKeepsColumns() throws {
    let text =
      "\u{FEFF}" + ManifestTestSupport.manifest(#"  <archive path="a.archive" sha256="xyz"/>"#)
    let lines = ManifestTestSupport.lines(try ManifestTestSupport.load(text))
    #expect(lines.first?.hasPrefix("4:29:") == true)
  }

  @Test("A document that is not UTF-8 is refused")
  func notUTF8Error() throws {
    let bytes: [UInt8] = [0xFF, 0xFE] + Array("<manifest/>".utf8).flatMap { [$0, 0] }
    let result = ManifestLoader.load(
      bytes: bytes, file: "utf16.xml", baseDirectory: ".", archivesDirectory: ".")
    #expect(ManifestTestSupport.lines(result) == ["1:1: the document must be encoded as UTF-8"])
  }

  @Test("A missing XSD is a diagnostic on the schema path")
  func missingSchemaFile() throws {
    let result = ManifestLoader.load(
      bytes: Array(ManifestTestSupport.manifest("").utf8), file: "manifest.xml", baseDirectory: ".",
      archivesDirectory: ".", schema: .file("/nonexistent/archive-manifest.xsd"))
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.category == .schemaFile)
    #expect(diagnostic.location.file == "/nonexistent/archive-manifest.xsd")
  }
}
