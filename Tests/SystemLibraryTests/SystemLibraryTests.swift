import CLibXML2
import CSQLite
import Testing

@Suite("System libraries")
struct SystemLibraryTests {
  @Test("libxml2 links and parses a document from memory")
  func libxml2ParsesADocument() throws {
    let text = "<manifest version=\"1\"><entry/></manifest>"
    let bytes = Array(text.utf8)
    let document = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters in
        xmlReadMemory(
          characters.baseAddress, Int32(characters.count), "memory.xml", nil,
          Int32(XML_PARSE_NONET.rawValue))
      }
    }
    let parsed = try #require(document as xmlDocPtr?)
    defer { xmlFreeDoc(parsed) }
    let root = try #require(xmlDocGetRootElement(parsed) as xmlNodePtr?)
    let name = String(cString: root.pointee.name)
    #expect(name == "manifest")
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
