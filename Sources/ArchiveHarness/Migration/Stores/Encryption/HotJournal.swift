import CHarnessSQLCipher

/// The rollback journal an interrupted write left beside an encrypted store, and whether this run may let SQLite roll it back.
///
/// SQLite checksums each page image of a journal. SQLCipher sums the encrypted
/// image; this VFS writes its journals the same way (it translates SQLite's sum
/// over the plaintext as the checksum is written and read), so a journal that
/// an interrupted `migrate` left and one that the app's SQLCipher left are the
/// same format: either SQLCipher or the next `migrate` rolls it back correctly.
/// A read-only dry run cannot roll a journal back, so it refuses one; a journal
/// whose first record checks in neither way is refused by every run.
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
      let page = Array(bytes[(sector + 4)..<(sector + 4 + pageSize)])
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
      if checksum(page) == stored, number > 0 {
        guard readOnly else { return }
        throw MigrationError(
          .hotJournal, file: path,
          "a rollback journal left by an interrupted write (of the app or of migrate) is beside the store; a dry run cannot roll it back. Run migrate, or open the store once in the app, which rolls it back; then run the dry run again. Nothing was written"
        )
      }
    } else if journalPageSize == pageSize, !readOnly {
      // No whole record: the write stopped before any page image; nothing to roll back.
      return
    } else if journalPageSize != pageSize {
      writer = "a writer with page size \(journalPageSize)"
    }
    throw MigrationError(
      .hotJournal, file: path,
      "a hot rollback journal, left by an interrupted write of \(writer), is beside the store, and its first record does not check as SQLCipher's do; it is not rolled back here. Open the store once in the app, which rolls it back, then run again. Nothing was written"
    )
  }
}
