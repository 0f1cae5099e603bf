import Foundation
import HarnessCoder
import HarnessVocabulary

/// A decode worker's answer to one request.
public struct WorkerResponse: Sendable, Hashable, Codable {
  /// The request's number.
  public var id: Int
  /// What the path made of the archive.
  public var outcome: DecodeOutcome
  /// Observations about the decode, such as a value returned with an error also set.
  public var notes: [String]

  /// Creates a response.
  public init(id: Int, outcome: DecodeOutcome, notes: [String] = []) {
    self.id = id
    self.outcome = outcome
    self.notes = notes
  }
}
