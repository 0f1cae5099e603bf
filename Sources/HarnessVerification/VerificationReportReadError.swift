/// Why a JSON document is not a `verify --format json` report: the place in it and what is wrong.
public struct VerificationReportReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Where in the document, as a JSON path such as `cases[3].paths.secure.outcome`.
  public var place: String
  /// What is wrong there.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - place: Where in the document.
  ///   - message: What is wrong there.
  public init(place: String, message: String) {
    self.place = place
    self.message = message
  }

  /// The error as `PLACE: MESSAGE`.
  public var description: String { "\(place): \(message)" }
}
