import ArchiveFormat
import Testing

@Suite("XML property-list reader")
struct XMLReaderTests {
  private func read(_ text: String) throws -> PropertyListValue {
    try PropertyListReader().read(Array(text.utf8))
  }

  private func error(_ text: String, sourceLocation: SourceLocation = #_sourceLocation)
    -> PropertyListError?
  {
    do {
      let value = try PropertyListReader().read(Array(text.utf8))
      Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  private let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    """

  @Test("Reads every value type, with the CF$UID dictionary as a UID")
  func readsEveryType() throws {
    let value = try read(
      header + """
        <plist version="1.0"><dict>
          <key>s</key><string>a &amp; b &lt;c&gt; &#x1F389; <![CDATA[<raw>]]></string>
          <key>i</key><integer>-42</integer>
          <key>h</key><integer>0x10</integer>
          <key>big</key><integer>18446744073709551615</integer>
          <key>r</key><real>2.5</real>
          <key>t</key><true/><key>f</key><false/>
          <key>d</key><date>2001-01-01T00:00:10Z</date>
          <key>b</key><data>AAEC</data>
          <key>u</key><dict><key>CF$UID</key><integer>3</integer></dict>
          <key>a</key><array><string/><dict/></array>
        </dict></plist>
        """)
    #expect(
      value
        == .dictionary([
          "s": .string("a & b <c> 🎉 <raw>"), "i": .integer(-42), "h": .integer(16),
          "big": .unsignedInteger(UInt64.max), "r": .real(2.5), "t": .bool(true), "f": .bool(false),
          "d": .date(10), "b": .data([0, 1, 2]), "u": .uid(3),
          "a": .array([.string(""), .dictionary([:])]),
        ]))
  }

  @Test("Reports line and column of a syntax error")
  func reportsLineAndColumn() throws {
    let failure = error(
      "<plist version=\"1.0\">\n<dict>\n  <key>k</key>\n  <strin>v</strin>\n</dict></plist>")
    #expect(failure?.line == 4)
    #expect(failure?.column == 3)
  }

  @Test("Rejects an internal DTD subset, so no entity is ever declared")
  func rejectsInternalSubset() {
    let failure = error(
      "<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY a \"aaaa\">]><plist><string>&a;</string></plist>"
    )
    #expect(failure?.message.contains("internal DTD subset") == true)
  }

  @Test("Rejects an undeclared entity")
  func rejectsUnknownEntity() {
    #expect(
      error("<plist><string>&xxe;</string></plist>")?.message.contains("unknown entity") == true)
  }

  @Test("Rejects invalid UTF-8 in text")
  func rejectsInvalidUTF8() throws {
    var bytes = Array("<plist><string>".utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("</string></plist>".utf8)
    #expect(throws: PropertyListError.self) { try PropertyListReader().read(bytes) }
    do {
      _ = try PropertyListReader().read(bytes)
    } catch {
      #expect(error.code == .invalidString)
    }
  }

  @Test("Rejects 100,000-deep nesting without overflowing the stack")
  func rejectsDeepXMLNesting() {
    let text =
      "<plist>" + String(repeating: "<array>", count: 100_000)
      + String(repeating: "</array>", count: 100_000)
      + "</plist>"
    let failure = error(text)
    #expect(failure?.code == .limitExceeded)
  }

  @Test("Rejects a mismatched end tag")
  func rejectsMismatchedEndTag() {
    #expect(error("<plist><array></dict></plist>")?.code == .invalidXML)
  }

  @Test("Rejects a truncated document")
  func rejectsTruncatedDocument() {
    #expect(error("<plist><array><string>abc")?.code == .truncated)
  }

  @Test("Rejects a non-integer in an integer element")
  func rejectsBadInteger() {
    #expect(error("<plist><integer>12a</integer></plist>")?.code == .invalidNumber)
  }

  @Test("Rejects an integer beyond 64 bits")
  func rejectsHugeInteger() {
    #expect(
      error("<plist><integer>99999999999999999999999</integer></plist>")?.code == .invalidNumber)
  }

  @Test("Rejects a malformed date")
  func rejectsBadDate() {
    #expect(error("<plist><date>yesterday</date></plist>")?.code == .invalidNumber)
  }

  @Test("Rejects content after the property list")
  func rejectsTrailingContent() {
    #expect(error("<plist><true/></plist><plist/>")?.code == .invalidXML)
  }
}
