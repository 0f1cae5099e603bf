import HarnessFileOutput
import HarnessMigration
import HarnessVocabulary

/// A failure that stops a command with exit status 2, printed as a diagnostic naming the place.
struct CommandFailure: Error {
  var place: String
  var category: DiagnosticCategory?
  var message: String

  /// A migration error, at its place, under its code's name.
  init(_ error: MigrationError) {
    self.init(
      place: error.place, category: DiagnosticCategory(rawValue: error.code.name),
      message: error.message)
  }

  init(place: String, category: DiagnosticCategory?, message: String) {
    self.place = place
    self.category = category
    self.message = message
  }
}

extension CommandFailure {
  /// A failure to write an output, as `PATH: error: [unwritable] message`.
  init(_ error: FileOutputError) {
    self.init(place: error.path, category: .unwritable, message: error.message)
  }
}
