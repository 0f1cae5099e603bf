import CHarnessSQLite
import CHarnessXMLBridge
import Foundation
import Testing

@Suite("System libraries")
struct SystemLibraryTests {
  @Test("libxml2 links through the bridge and parses a document from memory")
  func libxml2ParsesADocument() throws {
    let bytes = Array("<manifest version=\"1\"><entry/></manifest>".utf8)
    var report = ahx_parse_report()
    let document = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters in
        ahx_parse_untrusted(
          characters.baseAddress, Int32(characters.count), 10, nil, nil, &report)
      }
    }
    let parsed = try #require(document)
    defer { ahx_document_free(parsed) }
    let root = try #require(ahx_document_root(parsed))
    #expect(String(cString: ahx_element_name(root)) == "manifest")
    let child = try #require(ahx_element_first_child(root))
    #expect(String(cString: ahx_element_name(child)) == "entry")
    #expect(report.error_count == 0)
  }

  @Test("The bridge refuses a document type declaration and says where it starts")
  func bridgeRefusesDoctype() throws {
    let bytes = Array("<?xml version=\"1.0\"?>\n<!DOCTYPE m [<!ENTITY a \"b\">]>\n<m>&a;</m>".utf8)
    var report = ahx_parse_report()
    let document = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters in
        ahx_parse_untrusted(
          characters.baseAddress, Int32(characters.count), 10, nil, nil, &report)
      }
    }
    #expect(document == nil)
    #expect(report.refused_doctype == 1)
    #expect(report.refused_line == 2)
    #expect(report.refused_column == 1)
  }

  @Test("The bridge's public header includes no libxml2 or ICU header")
  func bridgeHeaderIsNarrow() throws {
    let header = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/CHarnessXMLBridge/include/xml_bridge.h")
    let includes = try String(contentsOf: header, encoding: .utf8)
      .split(separator: "\n").filter { $0.hasPrefix("#include") }
    #expect(includes == ["#include <stddef.h>"])
  }

  @Test("SQLite links and runs a query in memory")
  func sqliteRunsAQuery() throws {
    var database: OpaquePointer?
    #expect(sqlite3_open(":memory:", &database) == SQLITE_OK)
    defer { sqlite3_close(database) }
    var statement: OpaquePointer?
    #expect(sqlite3_prepare_v2(database, "SELECT 6 * 7", -1, &statement, nil) == SQLITE_OK)
    defer { sqlite3_finalize(statement) }
    #expect(sqlite3_step(statement) == SQLITE_ROW)
    #expect(sqlite3_column_int(statement, 0) == 42)
  }
}
