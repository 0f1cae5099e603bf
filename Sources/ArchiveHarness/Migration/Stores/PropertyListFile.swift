import ArchiveFormat
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading, changing and rewriting one property-list file, for `PropertyListStore`, its writer and rollback.
///
/// A rewrite is the whole file: the tree, with some values replaced, written
/// in the file's own format, read back from disk and compared with the tree
/// it was made from before it is renamed over the file.
enum PropertyListFile {
  /// What identifies a file's contents on disk without reading them: a rename, a
  /// write in place or a change of size shows as a different identity.
  struct Identity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: (seconds: Int64, nanoseconds: Int64)
    var changed: (seconds: Int64, nanoseconds: Int64)

    init(_ status: stat) {
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
      size = Int64(status.st_size)
      #if canImport(Darwin)
        modified = (Int64(status.st_mtimespec.tv_sec), Int64(status.st_mtimespec.tv_nsec))
        changed = (Int64(status.st_ctimespec.tv_sec), Int64(status.st_ctimespec.tv_nsec))
      #else
        modified = (Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec))
        changed = (Int64(status.st_ctim.tv_sec), Int64(status.st_ctim.tv_nsec))
      #endif
    }

    static func == (lhs: Identity, rhs: Identity) -> Bool {
      lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
        && lhs.modified == rhs.modified && lhs.changed == rhs.changed
    }

  }

  /// A file as it was read: its bytes, their tree and format, and its identity then.
  struct Snapshot {
    var bytes: [UInt8]
    var value: PropertyListValue
    var format: PropertyListFormat
    var identity: Identity
  }

  /// The reader for stores: a repeated key is an error, since a rewrite would drop one of its values.
  static func reader(maximumFileSize: Int) -> PropertyListReader {
    var limits = PropertyListLimits.default
    limits.maximumInputSize = maximumFileSize
    return PropertyListReader(limits: limits, refusesRepeatedKeys: true)
  }

  /// Reads a regular file (never through a symbolic link) and its property list.
  ///
  /// - Throws: `MigrationError` naming the file, and the byte offset or
  ///   `LINE:COLUMN` of a property list that does not read.
  static func load(_ path: String, maximumFileSize: Int) throws(MigrationError) -> Snapshot {
    let (bytes, identity) = try readBytes(path, maximumFileSize: maximumFileSize)
    let read: (value: PropertyListValue, format: PropertyListFormat)
    do throws(PropertyListError) {
      read = try reader(maximumFileSize: maximumFileSize).readWithFormat(bytes)
    } catch {
      throw MigrationError(
        MigrationError.Code(error.code.name), place: error.place.in(path),
        "the property list does not read: \(error.message)")
    }
    return Snapshot(bytes: bytes, value: read.value, format: read.format, identity: identity)
  }

  /// A file's bytes and its identity, read through one descriptor that does not follow a link.
  private static func readBytes(_ path: String, maximumFileSize: Int) throws(MigrationError) -> (
    [UInt8], Identity
  ) {
    if let type = DurableFile.entryType(of: path), type != S_IFREG {
      throw notARegularFile(path, type: type)
    }
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT {
        throw MigrationError(.storeNotFound, file: path, "no such file or folder")
      }
      if errno == ELOOP { throw notARegularFile(path, type: S_IFLNK) }
      throw MigrationError(
        .unreadable, file: path, "cannot open: \(MigrationError.systemMessage())")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw MigrationError(
        .unreadable, file: path, "cannot stat: \(MigrationError.systemMessage())")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw notARegularFile(path, type: status.st_mode & S_IFMT)
    }
    let size = Int(status.st_size)
    guard size <= maximumFileSize else {
      throw MigrationError(
        .limitExceeded, file: path,
        "the file of \(size) bytes exceeds the limit of \(maximumFileSize) bytes")
    }
    var bytes = [UInt8](repeating: 0, count: size)
    let offset = try DurableFile.readFully(descriptor, into: &bytes, path: path)
    guard offset == size, identity(of: path) == Identity(status) else {
      throw MigrationError(
        .unreadable, file: path, "the file changed while it was read; run again when it is still")
    }
    return (bytes, Identity(status))
  }

  /// The error for a store path that is a link, a FIFO, a device or a socket.
  static func notARegularFile(_ path: String, type: mode_t) -> MigrationError {
    if type == S_IFLNK {
      return MigrationError(
        .symbolicLink, file: path,
        "\(DirectoryStore.linkRefusal(path).split(separator: ";").first ?? "a symbolic link"); "
          + "a property-list store is rewritten by replacing the file, which would replace the "
          + "link, so a link is never used as a store: pass the file it leads to")
    }
    return MigrationError(
      .unreadable, file: path,
      "not a regular file (\(DirectoryStore.kindName(type))); never opened")
  }

  /// The identity of what is at `path` now (a link itself, not followed), or `nil`.
  static func identity(of path: String) -> Identity? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return Identity(status)
  }

  /// The temporary file a rewrite of `path` writes beside it, which a later `migrate` removes.
  static func temporaryPath(for path: String) -> String {
    AtomicFile.temporaryPath(for: path)
  }

  /// The bytes of a tree in a format.
  static func encode(_ value: PropertyListValue, format: PropertyListFormat) -> [UInt8] {
    switch format {
    case .binary: BinaryPropertyListWriter().write(value)
    case .xml: Array(XMLPropertyListWriter().write(value).utf8)
    }
  }

  /// What a ``commit(_:format:over:expecting:maximumFileSize:)`` did.
  enum CommitOutcome: Equatable {
    /// The file now holds the tree.
    case written
    /// The file is as it was, for this reason.
    case notWritten(String)
  }

  /// Replaces a property-list file with a tree, by the one write rule, only if the new file reads back equal.
  ///
  /// The tree is written in `format` to a temporary file beside the target
  /// (with its permissions) and synced; that file is read back from disk and
  /// its tree compared with `value`, whole. Only then, and only while the
  /// target still has the identity it had when it was read, is the temporary
  /// file renamed over it (never over a link, a device or a FIFO), and the
  /// folder synced. At any moment the target is the old file or the verified
  /// new one.
  ///
  /// - Returns: `CommitOutcome.written`, or why the file was left as it is.
  /// - Throws: `MigrationError` when the file system fails.
  static func commit(
    _ value: PropertyListValue, format: PropertyListFormat, over path: String,
    expecting identity: Identity, maximumFileSize: Int
  ) throws(MigrationError) -> CommitOutcome {
    let bytes = encode(value, format: format)
    let temporary = try DurableFile.writeTemporary(for: path, bytes: bytes, sync: true)
    let reread: Snapshot
    do throws(MigrationError) {
      reread = try load(temporary, maximumFileSize: max(maximumFileSize, bytes.count))
    } catch {
      DurableFile.removeRegularFile(temporary)
      return .notWritten(
        "the rewritten file does not read back (\(error.description)); the file is left as it is")
    }
    guard reread.bytes == bytes, reread.format == format, reread.value == value else {
      DurableFile.removeRegularFile(temporary)
      let place = firstDifference(value, reread.value).map { " at '\($0)'" } ?? ""
      return .notWritten(
        "the rewritten \(format.rawValue) property list does not read back equal\(place); "
          + "the file is left as it is")
    }
    guard Self.identity(of: path) == identity else {
      DurableFile.removeRegularFile(temporary)
      return .notWritten(
        "the file changed while it was being rewritten; the newer file is kept")
    }
    try DurableFile.moveIntoPlace(temporary, path)
    try DurableFile.syncDirectory(DurableFile.directory(of: path))
    return .written
  }

  /// Every Data value in a tree, in document order, with its key path; Data values are not entered.
  static func dataValues(in value: PropertyListValue) -> [(PropertyListKeyPath, [UInt8])] {
    var found: [(PropertyListKeyPath, [UInt8])] = []
    var components: [PropertyListKeyPath.Component] = []
    func visit(_ value: PropertyListValue) {
      switch value {
      case .data(let bytes):
        found.append((PropertyListKeyPath(components), bytes))
      case .dictionary(let dictionary):
        for entry in dictionary.entries {
          components.append(.key(entry.key))
          visit(entry.value)
          components.removeLast()
        }
      case .array(let elements):
        for (index, element) in elements.enumerated() {
          components.append(.index(index))
          visit(element)
          components.removeLast()
        }
      default:
        break
      }
    }
    visit(value)
    return found
  }

  /// The first key path, in document order, where two trees differ; `nil` when they are equal.
  static func firstDifference(
    _ left: PropertyListValue, _ right: PropertyListValue,
    at path: PropertyListKeyPath = PropertyListKeyPath()
  ) -> PropertyListKeyPath? {
    switch (left, right) {
    case (.dictionary(let a), .dictionary(let b)):
      for (x, y) in zip(a.entries, b.entries) {
        guard x.key == y.key else { return path.appending(.key(x.key)) }
        if let found = firstDifference(x.value, y.value, at: path.appending(.key(x.key))) {
          return found
        }
      }
      return a.count == b.count ? nil : path
    case (.array(let a), .array(let b)):
      for (index, (x, y)) in zip(a, b).enumerated() {
        if let found = firstDifference(x, y, at: path.appending(.index(index))) { return found }
      }
      return a.count == b.count ? nil : path
    default:
      return left == right ? nil : path
    }
  }
}

extension PropertyListValue {
  /// The value at a key path, or `nil` when the path leads nowhere.
  func value(at path: PropertyListKeyPath) -> PropertyListValue? {
    var current = self
    for component in path.components {
      switch (current, component) {
      case (.dictionary(let dictionary), .key(let key)):
        guard let next = dictionary[key] else { return nil }
        current = next
      case (.array(let elements), .index(let index)):
        guard elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// Replaces the value at a key path, keeping every other value and the order of keys.
  ///
  /// - Returns: `false`, changing nothing, when the path leads nowhere.
  mutating func replace(at path: PropertyListKeyPath, with newValue: PropertyListValue) -> Bool {
    replace(at: path.components[...], with: newValue)
  }

  private mutating func replace(
    at components: ArraySlice<PropertyListKeyPath.Component>, with newValue: PropertyListValue
  ) -> Bool {
    guard let first = components.first else {
      self = newValue
      return true
    }
    let rest = components.dropFirst()
    switch (self, first) {
    case (.dictionary(var dictionary), .key(let key)):
      guard var child = dictionary[key] else { return false }
      // Dropping the other references first lets the containers change in place.
      self = .bool(false)
      dictionary[key] = .bool(false)
      let replaced = child.replace(at: rest, with: newValue)
      dictionary[key] = child
      self = .dictionary(dictionary)
      return replaced
    case (.array(var elements), .index(let index)):
      guard elements.indices.contains(index) else { return false }
      self = .bool(false)
      var child = elements[index]
      elements[index] = .bool(false)
      let replaced = child.replace(at: rest, with: newValue)
      elements[index] = child
      self = .array(elements)
      return replaced
    default:
      return false
    }
  }
}
