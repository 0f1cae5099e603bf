import CSQLCipher

/// The rollback journal an interrupted write left beside an encrypted store, and whether this run may let SQLite replay it.
///
/// SQLite checksums a journal's page images as its pager holds them: SQLCipher
/// the encrypted ones, SQLite under this VFS the decrypted ones. So the first
/// record's checksum tells who wrote a journal. One that an interrupted
/// `migrate` left is replayed by the next read-write open; one that SQLCipher
/// left cannot be replayed correctly through a VFS, and is refused.
enum HotJournal {
  private static let magic: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]

  /// Throws when `DATABASE-journal` is a hot journal this run must not replay.
  static func check(database: String, keys: SQLCipherKeys, readOnly: Bool) throws(MigrationError) {
    let path = database + "-journal"
    guard DurableFile.kind(of: path).exists else { return }
    let pageSize = keys.settings.pageSize
    guard let header = try DurableFile.readPrefix(path, count: 28), header.count == 28,
      Array(header[0..<8]) == magic
    else { return }
    func word(_ at: Int, in bytes: [UInt8]) -> UInt32 {
      bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
    let nonce = word(12, in: header)
    let sector = Int(word(20, in: header))
    let journalPageSize = Int(word(24, in: header))
    var writer = "an unknown writer"
    if journalPageSize == pageSize, sector >= 28, sector <= 65536,
      let bytes = try DurableFile.readPrefix(path, count: sector + 4 + pageSize + 4),
      bytes.count == sector + 4 + pageSize + 4
    {
      let number = word(sector, in: bytes)
      var page = Array(bytes[(sector + 4)..<(sector + 4 + pageSize)])
      let stored = word(sector + 4 + pageSize, in: bytes)
      func checksum(_ data: [UInt8]) -> UInt32 {
        var sum = nonce
        var index = pageSize - 200
        while index > 0 {
          sum &+= UInt32(data[index])
          index -= 200
        }
        return sum
      }
      if checksum(page) == stored {
        writer = "SQLCipher"
      } else if number > 0 {
        var plain = [UInt8](repeating: 0, count: pageSize)
        defer {
          clearBytes(&plain)
          clearBytes(&page)
        }
        let status = page.withUnsafeBufferPointer { input in
          plain.withUnsafeMutableBufferPointer { output in
            harness_cipher_decrypt_page(
              keys.codec.pointer, number, input.baseAddress, output.baseAddress)
          }
        }
        if status == HARNESS_CIPHER_OK, checksum(plain) == stored {
          guard readOnly else { return }
          throw MigrationError(
            .hotJournal, place: path,
            "an interrupted migrate left this rollback journal; run migrate again (it rolls the journal back first) before a dry run"
          )
        }
      }
    } else if journalPageSize != pageSize {
      writer = "a writer with page size \(journalPageSize)"
    }
    throw MigrationError(
      .hotJournal, place: path,
      "a hot rollback journal, left by an interrupted write of \(writer), is beside the store; it cannot be replayed safely here (SQLCipher checksums its journal's encrypted pages). Open the store once in the app or with SQLCipher, which rolls it back, then run again. Nothing was written"
    )
  }
}
