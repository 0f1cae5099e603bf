import ArchiveCoder
import ArchiveFormat
import Foundation

/// A decode worker's answer to one request.
package struct WorkerResponse: Sendable, Hashable, Codable {
  /// The request's number.
  package var id: Int
  /// What the path made of the archive.
  package var outcome: DecodeOutcome
  /// Observations about the decode, such as a value returned with an error also set.
  package var notes: [String]
  /// What the secure path saw that Apple's platforms only log today; empty on other paths.
  package var strictnessFindings: [StrictnessFinding]

  /// Creates a response.
  package init(
    id: Int, outcome: DecodeOutcome, notes: [String] = [],
    strictnessFindings: [StrictnessFinding] = []
  ) {
    self.id = id
    self.outcome = outcome
    self.notes = notes
    self.strictnessFindings = strictnessFindings
  }
}
