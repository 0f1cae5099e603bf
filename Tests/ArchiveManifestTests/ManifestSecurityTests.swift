import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

@Suite("Manifest parser security")
struct ManifestSecurityTests {
  /// Loads `text` and checks it was refused within a second with one DOCTYPE diagnostic.
  private func expectRefused(
    _ text: String, at position: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var result: ManifestLoadResult?
    let elapsed = try MonotonicInstant.measure { result = try ManifestTestSupport.load(text) }
    let loaded = try #require(result, sourceLocation: sourceLocation)
    #expect(loaded.manifest == nil, sourceLocation: sourceLocation)
    #expect(
      ManifestTestSupport.lines(loaded) == [
        "\(position): document type declarations are not allowed; manifests may not declare "
          + "entities or load DTDs"
      ], sourceLocation: sourceLocation)
    #expect(elapsed < .seconds(1), sourceLocation: sourceLocation)
  }

  @Test("A billion-laughs entity bomb is refused fast")
  func billionLaughsIsRefused() throws {
    var declarations = "  <!ENTITY lol0 \"lol\">\n"
    for level in 1...9 {
      let previous = String(repeating: "&lol\(level - 1);", count: 10)
      declarations += "  <!ENTITY lol\(level) \"\(previous)\">\n"
    }
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE manifest [
      \(declarations)]>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">&lol9;</manifest>
      """
    try expectRefused(text, at: "2:1")
  }

  @Test("An external entity reading a local file is refused")
  func externalEntityIsRefused() throws {
    let text = """
      <?xml version="1.0"?>
        <!DOCTYPE manifest [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">&xxe;</manifest>
      """
    try expectRefused(text, at: "2:3")
  }

  @Test("An external DTD on the network is refused")
  func externalDTDIsRefused() throws {
    let text = """
      <!DOCTYPE manifest SYSTEM "http://attacker.invalid/manifest.dtd">
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1"/>
      """
    try expectRefused(text, at: "1:1")
  }

  @Test("A parameter entity pulling an external subset is refused")
  func parameterEntityIsRefused() throws {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE manifest [ <!ENTITY % remote SYSTEM "http://attacker.invalid/x.dtd"> %remote; ]>
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1"/>
      """
    try expectRefused(text, at: "2:1")
  }

  @Test("An undeclared entity reference is an XML error")
  func undeclaredEntityIsAnError() throws {
    let result = try ManifestTestSupport.load(
      "<manifest xmlns=\"urn:archive-harness:manifest:1\" schemaVersion=\"1\">&xxe;</manifest>")
    #expect(result.manifest == nil)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.category == .xml)
    #expect(diagnostic.message.contains("xxe"))
  }

  @Test("A flood of XML errors stops after a hundred, fast")
  func errorFloodIsCapped() throws {
    let text = "<manifest>" + String(repeating: "<a></b>", count: 200_000) + "</manifest>"
    var result: ManifestLoadResult?
    let elapsed = try MonotonicInstant.measure { result = try ManifestTestSupport.load(text) }
    let diagnostics = try #require(result?.diagnostics)
    #expect(diagnostics.count == 101)
    #expect(diagnostics.last?.message == "stopped after 100 errors; fix these and run again")
    #expect(elapsed < .seconds(2))
  }

  @Test("Deep nesting stops at libxml2's depth limit instead of the stack")
  func deepNestingIsAnError() throws {
    let depth = 100_000
    let text =
      "<manifest xmlns=\"urn:archive-harness:manifest:1\" schemaVersion=\"1\">"
      + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
      + "</manifest>"
    let result = try ManifestTestSupport.load(text)
    #expect(result.manifest == nil)
    #expect(result.diagnostics.containsErrors)
    // In our own words: libxml2's advice names an option no user can set.
    #expect(!result.diagnostics.contains { $0.message.contains("XML_PARSE_HUGE") })
    #expect(
      result.diagnostics.contains { $0.message.hasPrefix("elements nest deeper than 256 levels") },
      "\(result.diagnostics)")
  }
}
