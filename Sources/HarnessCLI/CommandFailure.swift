import Foundation
import HarnessVocabulary

/// A failure that stops a command with exit status 2, printed as a diagnostic naming the place.
struct CommandFailure: Error {
  var place: String
  var category: String?
  var message: String
}

extension DiagnosticCategory {
  /// A failure of the harness itself rather than of its input.
  static let `internal` = DiagnosticCategory(rawValue: "internal")
}
