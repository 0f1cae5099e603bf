import ArchiveFormat
import HarnessTestSupport
import Testing

@Suite("inspect shows an archive inside a Data value as a nested archive")
struct NestedArchiveDisplayTests {
  private func inner() -> [UInt8] {
    var builder = ArchiveBuilder()
    let color = builder.object("NSColor", [("NSRGB", builder.add(.data(Array("0 0 1".utf8))))])
    builder.setRoot(color)
    return builder.bytes()
  }

  private func outer(_ nested: [UInt8]) throws -> KeyedArchive {
    var builder = ArchiveBuilder()
    let root = builder.object(
      "Terminal.Profile",
      [("BackgroundColor", builder.add(.data(nested))), ("Name", builder.string("Pro"))])
    builder.setRoot(root)
    return try KeyedArchive(bytes: builder.bytes())
  }

  @Test("The tree names the nested archive's classes and prints its tree, indented")
  func treeShowsNested() throws {
    let text = ArchiveTreePrinter().render(try outer(inner()))
    #expect(text.contains("nested archive (NSColor; root NSColor)"))
    #expect(text.contains("  | root = NSColor"))
  }

  @Test("JSON marks the nested archive with its classes, root class and graph")
  func jsonMarksNested() throws {
    let text = ArchiveJSON.text(for: try outer(inner()))
    #expect(text.contains("\"nestedArchive\""))
    #expect(
      text.contains("\"rootClass\" : \"NSColor\"") || text.contains("\"rootClass\": \"NSColor\""))
    #expect(text.contains("\"graph\""))
  }

  @Test("Archives nested deeper than the limit are shown as data, not followed")
  func nestingIsBounded() throws {
    var bytes = inner()
    for _ in 0..<(NestedArchive.maximumDepth + 2) {
      bytes = BinaryPropertyListWriter().write(try outer(bytes).propertyList)
    }
    let text = ArchiveTreePrinter().render(try KeyedArchive(bytes: bytes))
    // Each level prints its tree with one more "| "; the deepest levels stay data.
    let deepest = text.split(separator: "\n").map { $0.components(separatedBy: "| ").count - 1 }
      .max()
    #expect(deepest == NestedArchive.maximumDepth)
  }
}
