import ArchiveFormat

/// A store of keyed archives kept as `Data` values in a property list, such as an app's
/// `Library/Preferences/<bundle id>.plist` (UserDefaults), binary or XML.
///
/// Every `Data` value, at any depth of nested dictionaries and arrays, is a
/// record, named by its key path (`PropertyListKeyPath`):
/// `com.example.app.plist:profile.current`, `…:recent[2]`. A `Data` value
/// that is not a keyed archive is a record the plan reports as skipped, as
/// an SQLite blob that is not one is; strings, numbers and the other values
/// are not records and are never changed. A `Data` value is not looked into.
///
/// The whole file is read once, when the store is opened, so a dry run reads
/// nothing else and writes nothing. `migrate` rewrites the whole file once
/// per batch, by the project's one write rule: the same format, every other
/// value and the order of keys kept, written to a temporary file, synced, read
/// back and compared before it is renamed over the file.
///
/// The store path must be the file itself: a symbolic link is refused (a
/// rewrite renames a new file over the path, which would replace the link),
/// and so are a property list that is itself a keyed archive and one that
/// holds a dictionary key twice (a rewrite would drop one of its values).
///
/// ```swift
/// let store = try PropertyListStore(path: "Library/Preferences/com.example.app.plist")
/// while case let batch = try store.nextBatch(maximumCount: 512), !batch.isEmpty { … }
/// ```
package final class PropertyListStore: RecordStore {
  /// The file, as given.
  package let path: String
  /// The file's format, which a rewrite keeps.
  package let format: PropertyListFormat
  /// The largest file read; a larger one is an error.
  package let maximumFileSize: Int

  private var records: [StoreRecord]
  private var next = 0

  /// Opens a property-list file as a store.
  ///
  /// - Parameters:
  ///   - path: The file: a regular file, not a symbolic link.
  ///   - maximumFileSize: The largest file read (64 MiB by default).
  /// - Throws: `MigrationError` naming the file, with the byte offset (binary) or
  ///   `LINE:COLUMN` (XML) of a property list that does not read; `not-a-store` for a
  ///   property list that is itself a keyed archive, or whose root is no container.
  package init(path: String, maximumFileSize: Int = 64 << 20) throws(MigrationError) {
    let snapshot = try PropertyListFile.load(path, maximumFileSize: maximumFileSize)
    switch snapshot.value {
    case .dictionary(let top):
      if top["$archiver"] != nil || (top["$objects"] != nil && top["$top"] != nil) {
        throw MigrationError(
          .notAStore, file: path,
          "the property list is a keyed archive itself, not a store of archives: pass the "
            + "folder that holds it as the store, or read the file itself (inspect \(path))")
      }
    case .array:
      break
    default:
      throw MigrationError(
        .notAStore, file: path,
        "the property list's root is \(snapshot.value.typeNameWithArticle); a property-list "
          + "store holds a dictionary (as a preferences file does) or an array")
    }
    self.path = path
    self.format = snapshot.format
    self.maximumFileSize = maximumFileSize
    records = PropertyListFile.dataValues(in: snapshot.value).map { keyPath, bytes in
      StoreRecord(id: .propertyListValue(file: path, keyPath: keyPath), content: .bytes(bytes))
    }
  }

  /// Whether a file starts like a property list (`bplist`, or XML after an optional BOM and
  /// white space), so that a command can tell a property-list store from an SQLite one.
  ///
  /// ```swift
  /// if PropertyListStore.looksLikePropertyList(atPath: path) { … }
  /// ```
  ///
  /// - Parameter path: The file; a link is followed, as the user named it.
  /// - Returns: `false` for a folder, a file that cannot be read, or other contents.
  package static func looksLikePropertyList(atPath path: String) -> Bool {
    guard let prefix = try? DurableFile.readPrefix(path, count: 4096) else { return false }
    return NestedArchive.looksLikePropertyList(prefix)
  }

  /// The number of `Data` values the file holds.
  package func recordCount() -> Int? { records.count }

  /// Keeps only the records at key paths these patterns name (a manifest's `<store>` names
  /// them, `[*]` standing for every element of an array); every other value stays as it is,
  /// unread by the run.
  ///
  /// ```swift
  /// store.restrict(to: ["profile.current", "recent[*]"].compactMap(PropertyListKeyPathPattern.init))
  /// ```
  package func restrict(to patterns: [PropertyListKeyPathPattern]) {
    records = records.filter { record in
      guard case .propertyListValue(let keyPath) = record.id.kind else { return false }
      return patterns.contains { $0.matches(keyPath) }
    }
  }

  /// The next `Data` values, in document order, at most `maximumCount` of them; empty at the end.
  package func nextBatch(maximumCount: Int) -> [StoreRecord] {
    let end = min(records.count, next + maximumCount)
    defer { next = end }
    return Array(records[next..<end])
  }

  /// Removes the temporary file an interrupted `migrate` left beside the file; returns its path.
  package func removeStaleTemporaryFiles() -> [String] {
    let temporary = PropertyListFile.temporaryPath(for: path)
    guard DurableFile.entryType(of: temporary) != nil else { return [] }
    DurableFile.removeRegularFile(temporary)
    return DurableFile.entryType(of: temporary) == nil ? [temporary] : []
  }

  /// Makes the writer that `migrate` uses.
  ///
  /// - Parameters:
  ///   - runDirectory: Where the copy of the original file and the journal go; `nil` with `--no-backup`.
  ///   - journalPath: The journal file; by default `RUN/journal.jsonl`.
  /// - Returns: A writer that copies the file before its first change and rewrites it per batch.
  package func makeWriter(runDirectory: String?, journalPath: String?) -> any RecordWriter {
    PropertyListRecordWriter(store: self, runDirectory: runDirectory, journalPath: journalPath)
  }
}
