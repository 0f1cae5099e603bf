import Foundation

/// Why a value given on the command line is not a value of its option's type.
struct ArgumentValueError: Error, Sendable {
  /// What was expected, such as `expected an integer`; lowercase, no period.
  var reason: String

  /// Creates an error with the reason shown after the invalid value.
  init(_ reason: String) {
    self.reason = reason
  }
}
