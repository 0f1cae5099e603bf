import ArchiveFormat

/// The expected outcome of one decode path of an archive entry.
///
/// ```swift
/// let expectation = OutcomeExpectation(
///   path: .secure, outcome: .rejected(.classNotAllowed), location: location)
/// print(expectation.outcome)  // rejected(class-not-allowed)
/// ```
package struct OutcomeExpectation: Sendable, Hashable {
  /// The values of a path element's `outcome` attribute: the schema's `OutcomeKind`.
  package enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The archive decodes.
    case decodes
    /// The archive is rejected.
    case rejected
  }

  /// What the path must do.
  package enum Outcome: Sendable, Hashable, CustomStringConvertible {
    /// The archive decodes.
    case decodes
    /// The archive is rejected, for this reason.
    case rejected(RejectionCategory)

    /// Whether the path must decode or must reject.
    package var kind: Kind {
      switch self {
      case .decodes: .decodes
      case .rejected: .rejected
      }
    }

    /// The category a rejection must have, or `nil` for `decodes`.
    package var category: RejectionCategory? {
      if case .rejected(let category) = self { return category }
      return nil
    }

    /// The outcome as reports print it: `decodes` or `rejected(class-not-allowed)`.
    package var description: String {
      switch self {
      case .decodes: kind.rawValue
      case .rejected(let category): "\(kind.rawValue)(\(category))"
      }
    }
  }

  /// The decode path.
  package var path: DecodePath
  /// What it must do.
  package var outcome: Outcome
  /// Where the expectation was written.
  package var location: Place

  /// Creates an outcome expectation.
  package init(path: DecodePath, outcome: Outcome, location: Place) {
    self.path = path
    self.outcome = outcome
    self.location = location
  }
}
