import ArchiveFormat

/// Why a JSON document is not a `verify --format json` report: the place in it and what is wrong.
package struct VerificationReportReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Where in the document: a ``Place/Position/keyPath(_:)`` such as
  /// `$.cases[3].paths.secure.outcome`, with no file; name it with ``Place/in(_:)``.
  package var place: Place
  /// What is wrong there.
  package var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - place: Where in the document.
  ///   - message: What is wrong there.
  package init(place: Place, message: String) {
    self.place = place
    self.message = message
  }

  /// An error at a JSON path of the document.
  init(path: String, message: String) {
    self.init(place: Place(.keyPath(path)), message: message)
  }

  /// The error as `PLACE: MESSAGE`.
  package var description: String { "\(place): \(message)" }
}
