/// A command line that does not fit its command, reported as `Error: …` with the usage; exit status 2.
struct UsageError: Error, Sendable {
  /// The message, without the `Error: ` prefix.
  var message: String
}
