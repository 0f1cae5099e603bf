import ArchiveFormat
import HarnessTestSupport
import Testing

/// Date edges: NaN, infinite and huge dates through the reader, the printers, JSON and the writers.
@Suite("Date edges")
struct DateEdgeTests {
  static let edges: [Double] = [
    .nan, -.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
    1e300, -1e300, .leastNonzeroMagnitude, -0.0,
    // The first second of year 10000 and the last of year 0, where ISO 8601 text ends.
    253_402_300_800 - 978_307_200, -62_135_596_800 - 978_307_200 - 1,
    Double(Int64.max), Double(Int64.min),
  ]

  @Test(
    "Binary dates at the edges read, print, serialise and write back bit for bit", arguments: edges)
  func binaryDates(seconds: Double) throws {
    let value = try PropertyListReader().read(HostileInput.binaryList([HostileInput.date(seconds)]))
    guard case .date(let read) = value else {
      Issue.record("read \(value.typeNameWithArticle)")
      return
    }
    #expect(read.bitPattern == seconds.bitPattern)
    _ = value.jsonValue.render()
    _ = XMLPropertyListWriter().write(value)
    _ = ArchiveTreePrinter().describe(.date(seconds))
    let written = BinaryPropertyListWriter().write(value)
    guard case .date(let reread) = try PropertyListReader().read(written) else {
      Issue.record("the written date did not read back as a date")
      return
    }
    #expect(reread.bitPattern == seconds.bitPattern)
  }

  @Test("NSDate instances at the edges go through the tree, JSON and re-encoding", arguments: edges)
  func archivedDates(seconds: Double) throws {
    var builder = ArchiveBuilder()
    let date = builder.object("NSDate", [("NS.time", .real(seconds))])
    let inline = builder.object("Holder", [("when", .date(seconds)), ("then", date)])
    builder.setRoot(inline)
    let archive = try KeyedArchive(bytes: builder.bytes())
    let leaves = try archive.evaluate(ArchiveKeyPath("then")).map { archive.leaf(of: $0.node) }
    guard case .date(let read)? = leaves.first else {
      Issue.record("NSDate did not read as a date: \(leaves)")
      return
    }
    #expect(read.bitPattern == seconds.bitPattern)
    try HostileInput.walkEverything(archive)
  }

  @Test(
    "Dates that are not finite, or beyond 10^15 seconds, have no ISO 8601 text and say so in JSON")
  func datesBeyondTheRange() throws {
    for seconds in [Double.nan, .infinity, 1e300] {
      #expect(ISO8601.formatExpanded(seconds, fractionalDigits: 3) == nil, "\(seconds)")
      let json = PropertyListValue.date(seconds).jsonValue.render(pretty: false)
      #expect(json.contains("invalid"), "\(seconds): \(json)")
    }
    // An XML property list's <date> knows years 1 to 9999 only.
    #expect(ISO8601.format(253_402_300_800 - 978_307_200) == nil)
    #expect(ISO8601.format(253_402_300_799 - 978_307_200) == "9999-12-31T23:59:59Z")
  }

  @Test("Year 0, years before it and years after 9999 print in ISO 8601's expanded form")
  func expandedYearsPrint() throws {
    // The year-0 date of a real Apple XML property list (issue 39).
    #expect(ISO8601.formatExpanded(-63_114_076_800) == "0000-12-30T00:00:00Z")
    let json = PropertyListValue.date(-63_114_076_800).jsonValue.render(pretty: false)
    #expect(json.contains("0000-12-30T00:00:00.000Z"), "\(json)")
    #expect(ISO8601.formatExpanded(253_402_300_800 - 978_307_200) == "+10000-01-01T00:00:00Z")
    #expect(
      ISO8601.formatExpanded(-62_135_596_800 - 978_307_200 - 86_400) == "0000-12-31T00:00:00Z")
    #expect(
      ISO8601.formatExpanded(-62_198_755_200 - 978_307_200) == "-0001-01-01T00:00:00Z")
  }

  @Test(
    "XML date text at the edges is read or refused, never trapped",
    arguments: [
      ("0001-01-01T00:00:00Z", true), ("9999-12-31T23:59:59Z", true),
      ("2001-01-01T00:00:00.123456789012345678Z", true),
      ("2001-01-01T00:00:00.1234567890123456789Z", false),
      ("2001-01-01T00:00:00.99999999999999999999999Z", false),
      ("0000-00-00T00:00:00Z", false), ("2001-13-01T00:00:00Z", false),
      ("2001-01-01T24:00:00Z", false), ("99999-01-01T00:00:00Z", false),
      ("2001-01-01T00:00:00.Z", false), ("2001-01-01T00:00:00+01:00", false),
      ("-001-01-01T00:00:00Z", false),
    ])
  func xmlDates(text: String, valid: Bool) throws {
    let document = Array("<plist version=\"1.0\"><date>\(text)</date></plist>".utf8)
    if valid {
      #expect(throws: Never.self) { try PropertyListReader().read(document) }
    } else {
      #expect(HostileInput.plistError(document)?.code == .invalidNumber)
    }
  }
}
