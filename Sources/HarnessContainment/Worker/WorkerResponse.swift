import Foundation
import HarnessCoder
import HarnessVocabulary

/// A decode worker's answer to one request.
package struct WorkerResponse: Sendable, Hashable, Codable {
  /// The request's number.
  package var id: Int
  /// What the path made of the archive.
  package var outcome: DecodeOutcome
  /// Observations about the decode, such as a value returned with an error also set.
  package var notes: [String]

  /// Creates a response.
  package init(id: Int, outcome: DecodeOutcome, notes: [String] = []) {
    self.id = id
    self.outcome = outcome
    self.notes = notes
  }
}
