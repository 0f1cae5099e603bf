import ArchiveFormat
import ArchiveHarness
import _ArchiveHarnessSystem

/// A failure that stops a command with exit status 2, printed as a diagnostic naming the place.
struct CommandFailure: Error {
  var place: Place
  var category: DiagnosticCategory?
  var message: String
  /// Notes printed after the error, about the same file: what to do instead.
  var notes: [String] = []

  /// A migration error, at its place, under its code's name.
  init(_ error: MigrationError) {
    self.init(
      place: error.place, category: DiagnosticCategory(rawValue: error.code.name),
      message: error.message)
  }

  init(place: Place, category: DiagnosticCategory?, message: String) {
    self.place = place
    self.category = category
    self.message = message
  }

  /// A failure about a file (or an option, a folder) as a whole.
  init(file: String, category: DiagnosticCategory?, message: String) {
    self.init(place: Place(file: file), category: category, message: message)
  }
}

extension CommandFailure {
  /// A failure to write an output, as `PATH: error: [unwritable] message`.
  init(_ error: FileOutputError) {
    self.init(file: error.path, category: .unwritable, message: error.message)
  }
}
