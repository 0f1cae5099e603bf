/// Whether a trap while decoding is contained: a worker process's crash, or the end of this process.
///
/// App code runs while decoding (`init?(coder:)`), and Foundation's unarchiver
/// traps on some archives. A `WorkerPathRunner` (HarnessContainment) decodes in a child process,
/// so a trap is a `crashed` outcome; an `InProcessPathRunner` (HarnessContainment) decodes in the
/// caller's process (on iOS, the test host), so a trap ends it. Reports say which:
/// the text report prints ``reportLine`` when containment is off, the JSON
/// report carries ``reportValue`` as `containment`.
///
/// ```swift
/// let report = verifier.verify(manifests, archivesDirectory: "LegacyArchives")
/// if report.containment == .inProcess {
///   print(Containment.inProcess.reportLine)
///   // containment: off (in process: a trap ends the test host)
/// }
/// ```
package enum Containment: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Every path decodes in a worker process: a trap there is that archive's `crashed` outcome.
  case workerProcess
  /// The paths decode in this process: a trap ends it, and the run with it.
  case inProcess

  /// Whether a trap while decoding is contained.
  package var isOn: Bool { self == .workerProcess }

  /// The value of the JSON report's `containment` member: `worker-process` or `off`.
  package var reportValue: String {
    switch self {
    case .workerProcess: "worker-process"
    case .inProcess: "off"
    }
  }

  /// The containment a JSON report's `containment` value names.
  ///
  /// - Parameter reportValue: `worker-process` or `off`.
  package init?(reportValue: String) {
    guard let known = Self.allCases.first(where: { $0.reportValue == reportValue }) else {
      return nil
    }
    self = known
  }

  /// The line a text report prints, such as `containment: off (in process: a trap ends the test host)`.
  package var reportLine: String {
    switch self {
    case .workerProcess:
      "containment: worker process (a trap is the archive's crashed outcome)"
    case .inProcess:
      "containment: off (in process: a trap ends the test host)"
    }
  }

  /// ``reportLine``.
  package var description: String { reportLine }
}
