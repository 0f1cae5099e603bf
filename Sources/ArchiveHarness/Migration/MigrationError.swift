import ArchiveFormat
import Foundation

/// An error that stops a migration run, naming the store and the place in it (file, table/row).
///
/// Problems with single records are not errors: they are ``RecordRefusal`` values
/// in the plan. A `MigrationError` means the run as a whole could not go on: the
/// store cannot be opened, a write failed, the journal cannot be written.
package struct MigrationError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
  /// What kind of problem this is; new codes can be added without breaking clients.
  package struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as diagnostics print it.
    package let name: String

    init(_ name: String) {
      self.name = name
    }

    /// The code's name, such as `sqlite`.
    package var description: String { name }

    /// The store path names no folder, SQLite database or property list.
    package static let storeNotFound = Code("store-not-found")
    /// A file or folder could not be read.
    package static let unreadable = Code("unreadable")
    /// A file or folder could not be written, synced or renamed.
    package static let writeFailed = Code("write-failed")
    /// SQLite reported an error.
    package static let sqlite = Code("sqlite")
    /// A table or column named on the command line does not exist or cannot be used.
    package static let invalidIdentifier = Code("invalid-identifier")
    /// The backup could not be made.
    package static let backupFailed = Code("backup-failed")
    /// The journal is malformed or cannot be written.
    package static let journal = Code("journal")
    /// The options do not fit together (a backup folder inside the store, …).
    package static let invalidOptions = Code("invalid-options")
    /// A store key that cannot be read or used (empty, a malformed raw key, a missing salt).
    package static let invalidKey = Code("invalid-key")
    /// The key and settings do not open an encrypted store: a wrong key, other settings, or not SQLCipher.
    package static let wrongKey = Code("wrong-key")
    /// A key was given for a store that is not encrypted.
    package static let notEncrypted = Code("not-encrypted")
    /// A page of an encrypted store fails its HMAC check.
    package static let damagedPage = Code("damaged-page")
    /// Another `migrate` or `--rollback` holds the store's lock (`StoreLock`).
    package static let storeBusy = Code("store-busy")
    /// A rollback journal left by an interrupted write that this run cannot replay.
    package static let hotJournal = Code("hot-journal")
    /// The store path is a symbolic link where the store must be the file itself (a property list).
    package static let symbolicLink = Code("symbolic-link")
    /// A file is larger than the size a store reads.
    package static let limitExceeded = Code("limit-exceeded")
    /// A file that reads, but is not a store: a property list that is itself a keyed archive, or
    /// whose root is neither a dictionary nor an array.
    package static let notAStore = Code("not-a-store")
    /// A store of a kind this command does not read yet (a property-list file that is not a
    /// keyed archive, for `survey`).
    package static let notSupported = Code("not-supported")
    /// No decode worker could be had, or one misbehaved, where app code must run in one.
    package static let workerUnavailable = Code("worker-unavailable")
  }

  /// The kind of problem.
  package let code: Code
  /// Where it happened: a file, a line of a journal, a page or a table of a database.
  package let place: Place
  /// A lowercase description, without the place.
  package let message: String

  /// Creates an error at a place in a file.
  ///
  /// ```swift
  /// throw MigrationError(.damagedPage, place: Place(file: path, position: .page(7)), "…")
  /// ```
  package init(_ code: Code, place: Place, _ message: String) {
    self.code = code
    self.place = place
    self.message = message
  }

  /// Creates an error about a file (or a folder, an option, a variable) as a whole.
  ///
  /// ```swift
  /// throw MigrationError(.unreadable, file: "cache.sqlite", "permission denied")
  /// ```
  package init(_ code: Code, file: String, _ message: String) {
    self.init(code, place: Place(file: file), message)
  }

  /// The place, the code and the message, such as `cache.sqlite: [sqlite] …`.
  package var description: String { "\(place): [\(code)] \(message)" }

  /// The description, so that `localizedDescription` reads well on Linux.
  package var errorDescription: String? { description }

  /// The C library's text for the current `errno`.
  static func systemMessage(_ number: Int32 = errno) -> String {
    String(cString: strerror(number))
  }
}
