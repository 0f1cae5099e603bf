/// The categories the command line's own diagnostics name, such as `[unreadable]`.
extension DiagnosticCategory {
  /// A failure of the harness itself rather than of its input.
  package static let `internal` = DiagnosticCategory(rawValue: "internal")
  /// A file or folder that cannot be read or scanned.
  package static let unreadable = DiagnosticCategory(rawValue: "unreadable")
  /// A file or folder that cannot be written.
  package static let unwritable = DiagnosticCategory(rawValue: "unwritable")
  /// Arguments that do not fit together.
  package static let usage = DiagnosticCategory(rawValue: "usage")
  /// Options whose values cannot be used together or with the input.
  package static let invalidOptions = DiagnosticCategory(rawValue: "invalid-options")
  /// A manifest that did not load.
  package static let invalidManifest = DiagnosticCategory(rawValue: "invalid-manifest")
  /// Input that was read but is not usable.
  package static let invalid = DiagnosticCategory(rawValue: "invalid")
  /// A store path that names nothing.
  package static let storeNotFound = DiagnosticCategory(rawValue: "store-not-found")
  /// A file larger than the command reads.
  package static let limitExceeded = DiagnosticCategory(rawValue: "limit-exceeded")
  /// Reports that cannot be merged into one.
  package static let unmergeable = DiagnosticCategory(rawValue: "unmergeable")
  /// No decode worker could be started.
  package static let workerUnavailable = DiagnosticCategory(rawValue: "worker-unavailable")
  /// Values the anonymizer could not keep apart.
  package static let collision = DiagnosticCategory(rawValue: "collision")
  /// Personal data, or a value that looks like it.
  package static let privacy = DiagnosticCategory(rawValue: "privacy")
  /// A manifest update after anonymizing.
  package static let updateManifest = DiagnosticCategory(rawValue: "update-manifest")
  /// A manifest review that covers no finding.
  package static let staleReview = DiagnosticCategory(rawValue: "stale-review")
  /// A migrate journal whose lines are torn, missing, changed or uncounted.
  package static let journal = DiagnosticCategory(rawValue: "journal")
}
