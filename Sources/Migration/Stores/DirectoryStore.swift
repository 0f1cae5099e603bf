#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store of archive files in a folder and its subfolders, such as `LegacyArchives/` or a copied app container.
///
/// Files are visited in a stable order (each folder's entries sorted by name),
/// one folder listing in memory at a time. Hidden entries (names starting with
/// `.`) and symbolic links are not records; a file left by a crashed `migrate`
/// (`.NAME.archive-harness-tmp`) is hidden too, and ``removeStaleTemporaryFiles()``
/// removes it.
public final class DirectoryStore: RecordStore {
  /// The folder, as given.
  public let path: String
  /// The largest file read as a record; a larger one is reported, not read.
  public let maximumFileSize: Int

  private var pending: [(folder: String, relative: String, names: [String], next: Int)] = []
  private var started = false

  /// Opens a folder as a store.
  ///
  /// - Throws: ``MigrationError`` when the path is not a readable folder.
  public init(path: String, maximumFileSize: Int = 64 << 20) throws(MigrationError) {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    guard DurableFile.kind(of: trimmed).isDirectory else {
      throw MigrationError(.storeNotFound, place: path, "not a folder")
    }
    self.path = trimmed
    self.maximumFileSize = maximumFileSize
  }

  /// The number of files the store holds.
  public func recordCount() throws(MigrationError) -> Int? {
    var count = 0
    var folders = [path]
    while let folder = folders.popLast() {
      for (name, kind) in try Self.list(folder) {
        switch kind {
        case .directory: folders.append(folder + "/" + name)
        case .file: count += 1
        case .other: break
        }
      }
    }
    return count
  }

  /// The next files, in path order, at most `maximumCount` of them; empty at the end.
  public func nextBatch(maximumCount: Int) throws(MigrationError) -> [StoreRecord] {
    if !started {
      started = true
      pending = [(path, "", try Self.list(path).map(\.name), 0)]
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
      switch status.st_mode & S_IFMT {
      case S_IFDIR:
        pending.append((full, relative, try Self.list(full).map(\.name), 0))
      case S_IFREG:
        let id = RecordID.file(path: full, relativePath: relative)
        let read: (bytes: [UInt8]?, size: Int)
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
        continue
      }
    }
    return records
  }

  /// Removes the temporary files a crashed `migrate` left in the store; returns their paths.
  public func removeStaleTemporaryFiles() throws(MigrationError) -> [String] {
    var removed: [String] = []
    var folders = [path]
    while let folder = folders.popLast() {
      for (name, kind) in try Self.list(folder, includeHidden: true) {
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
  public func makeWriter(runDirectory: String?, journalPath: String?) -> any RecordWriter {
    DirectoryRecordWriter(store: self, runDirectory: runDirectory, journalPath: journalPath)
  }

  enum EntryKind {
    case file
    case directory
    case other
  }

  /// A folder's entries, sorted by name, without `.`, `..` and (unless asked) hidden names.
  static func list(_ folder: String, includeHidden: Bool = false) throws(MigrationError)
    -> [(name: String, kind: EntryKind)]
  {
    guard let handle = opendir(folder) else {
      throw MigrationError(
        .unreadable, place: folder, "cannot list the folder: \(MigrationError.systemMessage())")
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
      case Int32(DT_UNKNOWN):
        var status = stat()
        guard lstat(folder + "/" + name, &status) == 0 else { continue }
        let format = status.st_mode & S_IFMT
        kind = format == S_IFREG ? .file : format == S_IFDIR ? .directory : .other
      default: kind = .other
      }
      entries.append((name, kind))
    }
    entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return entries
  }
}
