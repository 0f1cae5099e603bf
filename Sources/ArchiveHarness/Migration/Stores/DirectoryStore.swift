import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store of archive files in a folder and its subfolders, such as `LegacyArchives/` or a copied app container.
///
/// Files are visited in a stable order (each folder's entries sorted by name),
/// one folder listing in memory at a time. Hidden entries (names starting with
/// `.`) are not records; a file left by a crashed `migrate`
/// (`.NAME.archive-harness-tmp`) is hidden too, and ``removeStaleTemporaryFiles()``
/// removes it.
///
/// Symbolic links are never followed, whether they lead out of the store or
/// stay in it: a link to a file and a link to a folder are each one record,
/// refused with the reason (`StoreRecord.Content.refused(_:)`), so the dry
/// run and `migrate` both report them, and nothing they lead to is read or
/// replaced. A FIFO, a device or a socket is skipped, never opened. Only the
/// store path itself may be a link, as the user gave it.
package final class DirectoryStore: RecordStore {
  /// The folder, as given.
  package let path: String
  /// The largest file read as a record; a larger one is reported, not read.
  package let maximumFileSize: Int

  private var pending: [(folder: String, relative: String, names: [String], next: Int)] = []
  private var started = false

  /// Opens a folder as a store.
  ///
  /// - Throws: `MigrationError` when the path is not a readable folder.
  package init(path: String, maximumFileSize: Int = 64 << 20) throws(MigrationError) {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    guard DurableFile.kind(of: trimmed).isDirectory else {
      throw MigrationError(.storeNotFound, file: path, "not a folder")
    }
    self.path = trimmed
    self.maximumFileSize = maximumFileSize
  }

  /// The number of files the store holds.
  package func recordCount() throws(MigrationError) -> Int? {
    var count = 0
    var folders = [path]
    while let folder = folders.popLast() {
      for (name, kind) in try Self.list(folder, isStoreRoot: folder == path) {
        if kind == .directory {
          folders.append(folder + "/" + name)
        } else {
          count += 1
        }
      }
    }
    return count
  }

  /// The next files, in path order, at most `maximumCount` of them; empty at the end.
  package func nextBatch(maximumCount: Int) throws(MigrationError) -> [StoreRecord] {
    if !started {
      started = true
      pending = [(path, "", try Self.list(path, isStoreRoot: true).map(\.name), 0)]
    }
    var records: [StoreRecord] = []
    while records.count < maximumCount, var top = pending.popLast() {
      guard top.next < top.names.count else { continue }
      let name = top.names[top.next]
      top.next += 1
      pending.append(top)
      let full = top.folder + "/" + name
      let relative = top.relative.isEmpty ? name : top.relative + "/" + name
      var status = stat()
      guard lstat(full, &status) == 0 else { continue }
      let id = RecordID.file(path: full, relativePath: relative)
      switch status.st_mode & S_IFMT {
      case S_IFDIR:
        pending.append((full, relative, try Self.list(full).map(\.name), 0))
      case S_IFLNK:
        records.append(StoreRecord(id: id, content: .refused(Self.linkRefusal(full))))
      case S_IFREG:
        let read: (bytes: [UInt8]?, size: Int, identity: FileIdentity)
        do {
          read = try DurableFile.readFile(full, limit: maximumFileSize)
        } catch {
          // One unreadable file is reported and left alone; it does not stop the run.
          records.append(StoreRecord(id: id, content: .unsupported(error.message)))
          continue
        }
        if let bytes = read.bytes {
          records.append(StoreRecord(id: id, content: .bytes(bytes)))
        } else {
          records.append(
            StoreRecord(
              id: id,
              content: .unsupported(
                "the file of \(read.size) bytes exceeds the limit of \(maximumFileSize) bytes")))
        }
      default:
        let kind = Self.kindName(status.st_mode)
        records.append(
          StoreRecord(id: id, content: .unsupported("not a regular file (\(kind)); never opened")))
      }
    }
    return records
  }

  /// Whether the folder of a record, given relative to a store root, is still that folder of the
  /// store and not, through a folder replaced by a symbolic link, somewhere else.
  ///
  /// - Parameters:
  ///   - relative: The record's path relative to the store.
  ///   - root: The store's canonical (link-free) path.
  /// - Returns: `true` when the record's folder resolves to `root/FOLDER`.
  static func folderIsInside(_ relative: String, root: String) -> Bool {
    let folder = DurableFile.directory(of: relative)
    let expected = folder == "." ? root : root + "/" + folder
    return DurableFile.canonical(expected) == expected
  }

  /// Why a symbolic link in the store is refused, naming where it leads.
  static func linkRefusal(_ path: String) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    let target =
      count >= 0
      ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    var status = stat()
    let what: String
    if stat(path, &status) != 0 {
      what = "a symbolic link to '\(target)', which does not exist"
    } else if status.st_mode & S_IFMT == S_IFDIR {
      what = "a symbolic link to the folder '\(target)'"
    } else {
      what = "a symbolic link to '\(target)'"
    }
    return "\(what); links in a store are never followed or replaced, so nothing it leads to "
      + "is read or written"
  }

  /// A file type's name for messages, such as `a FIFO` or `a character device`.
  static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "not a file"
    }
  }

  /// Removes the temporary files a crashed `migrate` left in the store; returns their paths.
  package func removeStaleTemporaryFiles() throws(MigrationError) -> [String] {
    var removed: [String] = []
    var folders = [path]
    while let folder = folders.popLast() {
      for (name, kind) in try Self.list(folder, includeHidden: true, isStoreRoot: folder == path) {
        let full = folder + "/" + name
        if kind == .directory && !name.hasPrefix(".") {
          folders.append(full)
        } else if kind == .file && name.hasPrefix(".")
          && name.hasSuffix(DurableFile.temporarySuffix)
        {
          if unlink(full) == 0 { removed.append(full) }
        }
      }
    }
    return removed
  }

  /// Makes the writer that `migrate` uses.
  ///
  /// - Parameters:
  ///   - runDirectory: Where originals are copied and the journal goes; `nil` with `--no-backup`.
  ///   - journalPath: The journal file; by default `RUN/journal.jsonl`.
  /// - Returns: A writer that copies each original before replacing it.
  package func makeWriter(runDirectory: String?, journalPath: String?) -> any RecordWriter {
    DirectoryRecordWriter(store: self, runDirectory: runDirectory, journalPath: journalPath)
  }

  enum EntryKind {
    case file
    case directory
    case symbolicLink
    case other
  }

  /// A folder's entries, sorted by name, without `.`, `..` and (unless asked) hidden names.
  ///
  /// A folder below the store root is opened with `O_NOFOLLOW`, so one that was
  /// replaced by a symbolic link after it was seen is not entered.
  static func list(_ folder: String, includeHidden: Bool = false, isStoreRoot: Bool = false)
    throws(MigrationError) -> [(name: String, kind: EntryKind)]
  {
    let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (isStoreRoot ? 0 : O_NOFOLLOW)
    let descriptor = open(folder, flags)
    guard descriptor >= 0, let handle = fdopendir(descriptor) else {
      let message = MigrationError.systemMessage()
      if descriptor >= 0 { close(descriptor) }
      throw MigrationError(.unreadable, file: folder, "cannot list the folder: \(message)")
    }
    defer { closedir(handle) }
    var entries: [(name: String, kind: EntryKind)] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      if !includeHidden && name.hasPrefix(".") { continue }
      let kind: EntryKind
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_REG): kind = .file
      case Int32(DT_DIR): kind = .directory
      case Int32(DT_LNK): kind = .symbolicLink
      case Int32(DT_UNKNOWN):
        var status = stat()
        guard lstat(folder + "/" + name, &status) == 0 else { continue }
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
      default: kind = .other
      }
      entries.append((name, kind))
    }
    entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return entries
  }
}
