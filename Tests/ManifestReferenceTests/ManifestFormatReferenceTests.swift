import ArchiveManifest
import Foundation
import Testing

@testable import manifest_reference

/// The reference of the manifest format (`docs/ManifestFormat.md`) and the XSD annotations it is built from.
@Suite("Manifest format reference")
struct ManifestFormatReferenceTests {
  /// The reference of the XSD in this checkout.
  private static func checkoutReference() -> ManifestFormatReference {
    ManifestFormatReference(path: ReferenceTestSupport.schemaPath)
  }

  @Test("Every element, attribute and named type the XSD declares has xs:documentation")
  func everyDeclarationIsDocumented() {
    let reference = Self.checkoutReference()
    #expect(reference.problems.isEmpty, "\(reference.problems)")
    #expect(
      reference.undocumented.isEmpty,
      """
      \(reference.undocumented.count) declarations in \(ManifestSchema.relativePath) have no \
      xs:documentation; add an xs:annotation/xs:documentation to each, then run \
      scripts/embed-schema and scripts/manifest-reference:
      \(reference.undocumented.map(\.description).joined(separator: "\n"))
      """)
  }

  @Test("docs/ManifestFormat.md is what the generator writes for the current XSD")
  func committedReferenceIsCurrent() throws {
    let path = ReferenceTestSupport.packageRoot + "/" + ManifestFormatReference.relativePath
    let committed = try #require(
      FileManager.default.contents(atPath: path),
      "\(ManifestFormatReference.relativePath) is missing; run scripts/manifest-reference")
    let generated = Self.checkoutReference().markdown
    #expect(!generated.isEmpty)
    let firstDifference = zip(
      String(decoding: committed, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false),
      generated.split(separator: "\n", omittingEmptySubsequences: false)
    ).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
      Array(committed) == Array(generated.utf8),
      """
      \(ManifestFormatReference.relativePath) is out of date with \(ManifestSchema.relativePath) \
      (first difference at line \(firstDifference.map { "\($0.offset + 1)" } ?? "the end")); \
      run scripts/manifest-reference and commit the result
      """)
  }

  @Test("The built-in schema gives the same reference as the file")
  func builtInAgrees() {
    #expect(ManifestFormatReference.builtIn.markdown == Self.checkoutReference().markdown)
  }

  @Test("The reference lists elements, parents, requirements, allowed values and examples")
  func referenceContent() {
    let markdown = Self.checkoutReference().markdown
    #expect(markdown.contains("### `<foundation>`"))
    #expect(markdown.contains("- **Appears in:** [`<archive>`](#archive) (optional, at most once)"))
    #expect(markdown.contains("| `outcome` | required | [`OutcomeKind`](#type-outcomekind): "))
    #expect(markdown.contains("| `crashed` | The process decoding the archive died"))
    #expect(
      markdown.contains(
        "| `tolerance` | optional | [`NonNegativeDouble`](#type-nonnegativedouble): `xs:double`, at least 0 | `0.001` |"
      ))
    #expect(
      markdown.contains(
        "```xml\n<foundation outcome=\"rejected\" category=\"missing-field\"/>\n```"))
    // `class` is two elements: an allowed class, and an expectation.
    #expect(markdown.contains("### `<class>` in `<allowedClasses>`\n"))
    #expect(markdown.contains("### `<class>` in `<archive>`\n"))
    #expect(!markdown.contains("20" + "26-"), "the reference carries no date")
  }

  @Test(
    "An undocumented element, attribute and type in a small XSD are each named, with their line")
  func undocumentedDeclarationsAreReported() throws {
    let directory = try ReferenceTestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/small.xsd"
    let xsd = """
      <?xml version="1.0" encoding="UTF-8"?>
      <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:test"
                 targetNamespace="urn:test" elementFormDefault="qualified">
        <xs:element name="root">
          <xs:annotation><xs:documentation>The root.</xs:documentation></xs:annotation>
          <xs:complexType>
            <xs:sequence>
              <xs:element name="child" type="t:Child" minOccurs="0"/>
            </xs:sequence>
          </xs:complexType>
        </xs:element>
        <xs:complexType name="Child">
          <xs:annotation><xs:documentation>A child.</xs:documentation></xs:annotation>
          <xs:attribute name="size" type="t:Size"/>
        </xs:complexType>
        <xs:simpleType name="Size">
          <xs:restriction base="xs:integer"/>
        </xs:simpleType>
      </xs:schema>
      """
    try xsd.write(toFile: path, atomically: false, encoding: .utf8)

    let reference = ManifestFormatReference(path: path)
    #expect(reference.problems.isEmpty)
    #expect(!reference.isComplete)
    #expect(
      reference.undocumented.map(\.description) == [
        "\(path):8:9: warning: [schema-file] element 'child' in element 'root' has no "
          + "xs:documentation",
        "\(path):14:5: warning: [schema-file] attribute 'size' in complexType 'Child' has no "
          + "xs:documentation",
        "\(path):16:3: warning: [schema-file] simpleType 'Size' has no xs:documentation",
      ])
    // The reference is still written, with the undocumented element in it.
    #expect(reference.markdown.contains("### `<child>`"))
    #expect(
      reference.markdown.contains("- **Appears in:** [`<root>`](#root) (optional, at most once)"))
  }

  @Test("A file that is not an XSD is a problem, not a reference")
  func notAnXSD() throws {
    let reference = ManifestFormatReference(
      xsd: Array("<manifest xmlns=\"urn:archive-harness:manifest:1\"/>".utf8), file: "x.xml")
    #expect(reference.markdown.isEmpty)
    #expect(reference.problems.first?.message.hasPrefix("expected an XML Schema") == true)
  }
}

/// Where the tests find the XSD and the committed reference, and their scratch folders.
enum ReferenceTestSupport {
  /// The package root, found from this file's path.
  static let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// The manifest XSD in this checkout.
  static let schemaPath = packageRoot + "/" + ManifestSchema.relativePath

  /// A new empty folder under the temporary directory.
  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "manifest-reference-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}
