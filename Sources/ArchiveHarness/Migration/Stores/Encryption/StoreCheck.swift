import ArchiveFormat
import CHarnessSQLCipher
import Foundation

extension SQLCipherKeys {
  /// Checks a whole encrypted store before a run reads or writes any of it: every page of the
  /// database file, and every frame of its `-wal`.
  ///
  /// SQLite reads a page only when a query needs it, and it drops a `-wal` frame that fails
  /// its checksum without a word (and with it every transaction after it), so a damaged page
  /// could otherwise be met halfway through a run, or never.
  ///
  /// - Parameter path: The database file.
  /// - Throws: `MigrationError` with code `MigrationError.Code.damagedPage` naming the
  ///   file and the first page that fails.
  func verifyStore(at path: String) throws(MigrationError) {
    let frames = try verifyWriteAheadLog(of: path)
    try verifyPages(of: path, walFrames: frames)
  }

  /// Checks every page of an encrypted database file: its HMAC, page 1's header, and that the
  /// file holds whole pages, as many as its header says.
  ///
  /// ```swift
  /// let keys = try StoreEncryption(key: key).open(path: "profiles.db")
  /// let pages = try keys.verifyPages(of: "profiles.db")
  /// ```
  ///
  /// - Parameter path: The database file (not its `-wal`).
  /// - Returns: The number of pages checked.
  /// - Throws: `MigrationError` with code `MigrationError.Code.damagedPage`
  ///   naming the first page that fails (a page cut short is the last page), or when the file
  ///   cannot be read.
  @discardableResult
  package func verifyPages(of path: String) throws(MigrationError) -> Int {
    try verifyPages(of: path, walFrames: 0)
  }

  /// Checks the pages; `walFrames` says whether a `-wal` may hold pages the file does not.
  @discardableResult
  private func verifyPages(of path: String, walFrames: Int) throws(MigrationError) -> Int {
    let pageSize = settings.pageSize
    let file = try ReadOnlyFile(path)
    let size = file.size
    let wholePages = size / pageSize
    let tail = size % pageSize
    var page = [UInt8](repeating: 0, count: pageSize)
    var plain = [UInt8](repeating: 0, count: pageSize)
    defer { clearBytes(&plain) }
    // The header's page count, when it is valid (SQLite's "version-valid-for" rule); pages
    // after it are not part of the database and SQLite never reads them.
    var declared: Int?
    var checked = 0
    for number in stride(from: 1, through: wholePages, by: 1) {
      if let declared, number > declared { break }
      try file.read(into: &page, at: (number - 1) * pageSize)
      let status = page.withUnsafeBufferPointer { input in
        plain.withUnsafeMutableBufferPointer { output in
          harness_cipher_decrypt_page(
            codec.pointer, UInt32(number), input.baseAddress, output.baseAddress)
        }
      }
      guard status == HARNESS_CIPHER_OK else {
        throw MigrationError(
          .damagedPage, place: Place(file: path, position: .page(number)),
          "page \(number) of \(max(wholePages, declared ?? 0)) fails its HMAC check: it was changed or damaged after SQLCipher wrote it"
        )
      }
      if number == 1 {
        let count = Self.bigEndian(plain, at: 28)
        if count > 0, plain[24..<28] == plain[92..<96] { declared = Int(count) }
      }
      checked += 1
    }
    if tail != 0 {
      throw MigrationError(
        .damagedPage, place: Place(file: path, position: .page(wholePages + 1)),
        "the file is \(size) bytes, not a whole number of \(pageSize)-byte pages: its last page, page \(wholePages + 1), holds \(tail) of its \(pageSize) bytes. SQLCipher writes whole pages, so the file was cut short or damaged"
      )
    }
    if let declared, declared > wholePages, walFrames == 0 {
      throw MigrationError(
        .damagedPage, place: Place(file: path, position: .page(wholePages + 1)),
        "the database's header says it has \(declared) pages, and the file holds \(wholePages): it was cut short, and page \(wholePages + 1) on are missing"
      )
    }
    return checked
  }

  /// Checks the frames of an encrypted database's `-wal`, if it has one.
  ///
  /// The frames SQLite would read are those after the 32-byte header that carry the header's
  /// salts; frames with other salts are left from before the `-wal` was last reset, and only
  /// ever follow the current ones. Each current frame must be whole and pass its page's HMAC.
  /// A frame left half-written by an app that stopped while writing it cannot be told from a
  /// damaged one, so both are refused, and the message says so.
  ///
  /// - Parameter path: The database file; its `-wal` is `PATH-wal`.
  /// - Returns: The number of current frames checked (0 without a `-wal`).
  /// - Throws: `MigrationError` with code `MigrationError.Code.damagedPage` naming the
  ///   `-wal` and the page of the first frame that fails.
  @discardableResult
  func verifyWriteAheadLog(of path: String) throws(MigrationError) -> Int {
    let walPath = path + "-wal"
    guard DurableFile.kind(of: walPath).exists else { return 0 }
    let file = try ReadOnlyFile(walPath)
    let size = file.size
    guard size > 0 else { return 0 }
    let pageSize = settings.pageSize
    let frameSize = 24 + pageSize
    var header = [UInt8](repeating: 0, count: min(size, 32))
    try file.read(into: &header, at: 0)
    if let problem = Self.walHeaderProblem(header, pageSize: pageSize) {
      // Without a whole frame, nothing was committed there to lose.
      guard size >= 32 + frameSize else { return 0 }
      throw MigrationError(
        .damagedPage, place: Place(file: walPath, position: .byteOffset(0)),
        "the -wal's header is damaged (\(problem)): SQLite would ignore every frame in it, and with them every transaction committed there since the last checkpoint"
      )
    }
    let salts = header[16..<24]
    var frame = [UInt8](repeating: 0, count: frameSize)
    var plain = [UInt8](repeating: 0, count: pageSize)
    defer { clearBytes(&plain) }
    let interrupted =
      "or the app stopped while writing it. SQLite would drop it, and every transaction from it on, without a word"
    var frames = 0
    var firstStale: Int?
    var number = 0
    var offset = 32
    while offset < size {
      number += 1
      let count = min(frameSize, size - offset)
      // Too short to carry its salts: SQLite ignores it, and nothing can follow it.
      guard count >= 16 else { break }
      if count < frameSize { frame = [UInt8](repeating: 0, count: count) }
      try file.read(into: &frame, at: offset)
      defer { offset += frameSize }
      guard frame[8..<16] == salts else {
        if firstStale == nil { firstStale = number }
        continue
      }
      if let firstStale {
        throw MigrationError(
          .damagedPage,
          place: Place(file: walPath, position: .byteOffset(32 + (firstStale - 1) * frameSize)),
          "frame \(firstStale) of the -wal does not carry the -wal's salts, but frame \(number) after it does: its header was damaged. SQLite would drop it, and every transaction from it on, without a word"
        )
      }
      let page = Int(Self.bigEndian(frame, at: 0))
      guard count == frameSize else {
        throw MigrationError(
          .damagedPage, place: Place(file: walPath, position: .page(page)),
          "the -wal ends inside frame \(number) (of page \(page)): it holds \(count) of the frame's \(frameSize) bytes. The -wal was cut short, \(interrupted)"
        )
      }
      guard page > 0 else {
        throw MigrationError(
          .damagedPage, place: Place(file: walPath, position: .byteOffset(offset)),
          "frame \(number) of the -wal names page 0: its header was damaged. SQLite would drop it, and every transaction from it on, without a word"
        )
      }
      let status = frame.withUnsafeBufferPointer { input in
        plain.withUnsafeMutableBufferPointer { output in
          harness_cipher_decrypt_page(
            codec.pointer, UInt32(page), input.baseAddress.map { $0 + 24 }, output.baseAddress)
        }
      }
      guard status == HARNESS_CIPHER_OK else {
        throw MigrationError(
          .damagedPage, place: Place(file: walPath, position: .page(page)),
          "frame \(number) of the -wal, which holds page \(page), fails its HMAC check: it was changed or damaged after SQLCipher wrote it, \(interrupted)"
        )
      }
      frames += 1
    }
    return frames
  }

  /// Why a `-wal` header is not one SQLite reads, or nil when it is.
  private static func walHeaderProblem(_ header: [UInt8], pageSize: Int) -> String? {
    guard header.count == 32 else {
      return "the file holds \(header.count) bytes, less than the 32 of a header"
    }
    let magic = bigEndian(header, at: 0)
    guard magic == 0x377f_0682 || magic == 0x377f_0683 else {
      return "it does not start with SQLite's magic number"
    }
    let version = bigEndian(header, at: 4)
    guard version == 3_007_000 else { return "its format version is \(version), not 3007000" }
    let size = bigEndian(header, at: 8)
    guard size == pageSize || (size == 1 && pageSize == 65536) else {
      return "its page size is \(size), not the database's \(pageSize)"
    }
    // SQLite's checksum: pairs of 32-bit words, in the byte order the magic number says.
    var first: UInt32 = 0
    var second: UInt32 = 0
    var index = 0
    while index < 24 {
      let words = (
        word(header, at: index, big: magic & 1 == 1),
        word(header, at: index + 4, big: magic & 1 == 1)
      )
      first = first &+ words.0 &+ second
      second = second &+ words.1 &+ first
      index += 8
    }
    guard first == bigEndian(header, at: 24), second == bigEndian(header, at: 28) else {
      return "its checksum does not match"
    }
    return nil
  }

  private static func word(_ bytes: [UInt8], at index: Int, big: Bool) -> UInt32 {
    let value = bigEndian(bytes, at: index)
    return big ? value : value.byteSwapped
  }

  private static func bigEndian(_ bytes: [UInt8], at index: Int) -> UInt32 {
    bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }
}

/// A file opened for reading at offsets, closed when released.
private final class ReadOnlyFile {
  let path: String
  let size: Int
  private let descriptor: Int32

  init(_ path: String) throws(MigrationError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MigrationError(
        .unreadable, file: path, "cannot open: \(MigrationError.systemMessage())")
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let message = MigrationError.systemMessage()
      close(descriptor)
      throw MigrationError(.unreadable, file: path, "cannot read its size: \(message)")
    }
    self.path = path
    self.descriptor = descriptor
    size = Int(status.st_size)
  }

  deinit {
    close(descriptor)
  }

  /// Fills `buffer` from `offset`; a file that ends first is an error (the size said otherwise).
  func read(into buffer: inout [UInt8], at offset: Int) throws(MigrationError) {
    var done = 0
    while done < buffer.count {
      let count = buffer.withUnsafeMutableBytes { raw in
        pread(descriptor, raw.baseAddress.map { $0 + done }, raw.count - done, off_t(offset + done))
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw MigrationError(
          .unreadable, file: path, "cannot read: \(MigrationError.systemMessage())")
      }
      guard count > 0 else {
        throw MigrationError(
          .unreadable, file: path, "the file became shorter while it was read")
      }
      done += count
    }
  }
}
