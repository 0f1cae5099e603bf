import ArchiveFormat

/// What a record writer keeps across the batches of one `migrate` run: its journal and its count.
///
/// Both writers open the journal the same way (at the requested path, else
/// `RUN/journal.jsonl`, and only once something is about to change), open each
/// change line with the record and the digests of its old and new bytes, and close
/// the journal with the same `end` line.
final class JournalSession {
  /// Where originals and the journal go; `nil` with `--no-backup`.
  let runDirectory: String?
  private let requestedJournalPath: String?
  private var journal: MigrationJournal?
  /// Whether the run has begun: the writer's first batch has started its backup and journal.
  var started = false
  /// How many records were replaced.
  var rewritten = 0

  init(runDirectory: String?, journalPath: String?) {
    self.runDirectory = runDirectory
    self.requestedJournalPath = journalPath
  }

  /// The journal's path, once it was opened.
  var journalPath: String? { journal?.path }

  /// Creates the journal with `header`, when the run has one.
  func openJournal(header: [(String, JSONValue)]) throws(MigrationError) {
    if let path = requestedJournalPath ?? runDirectory.map({ $0 + "/journal.jsonl" }) {
      journal = try MigrationJournal(creatingAt: path, header: header)
    }
  }

  /// Appends a batch's lines, synced, before any of its records change.
  func append(_ lines: [JSONValue]) throws(MigrationError) {
    try journal?.append(lines)
  }

  /// The members a change line opens with: the operation, the record, and SHA-256 of old and new.
  static func changeMembers(
    _ operation: String, record: (String, JSONValue), _ rewrite: PendingRewrite
  ) -> [(String, JSONValue)] {
    let checksums = rewrite.journalChecksums
    return [
      ("op", .string(operation)), record,
      ("old", .string(checksums.original)),
      ("new", .string(checksums.replacement)),
    ]
  }

  /// Closes the journal with the run's `end` line.
  func finish(interrupted: Bool) throws(MigrationError) {
    try journal?.end(members: [
      ("rewritten", .integer(Int64(rewritten))), ("interrupted", .bool(interrupted)),
    ])
  }
}
