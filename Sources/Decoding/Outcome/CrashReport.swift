#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a decoding process died: the signal and what it printed before dying.
public struct CrashReport: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Why the process died: killed after a timeout, or a signal.
  ///
  /// ```swift
  /// CrashReport(signal: SIGILL).cause                  // .signal(4), printed SIGILL
  /// CrashReport(signal: SIGKILL, timedOut: true).cause  // .timeout, printed timeout
  /// ```
  public enum Cause: Sendable, Hashable, CustomStringConvertible {
    /// The supervisor killed the process because the archive took too long.
    case timeout
    /// The process died from this signal, such as `SIGILL` (4).
    case signal(Int32)

    /// The cause as reports name it: `timeout`, or the signal's name such as `SIGILL`.
    public var description: String {
      switch self {
      case .timeout: "timeout"
      case .signal(let number): CrashReport.name(ofSignal: number)
      }
    }
  }

  /// The signal number, such as `SIGILL` (4) or `SIGSEGV` (11).
  public let signal: Int32
  /// Whether the supervisor killed the process because the archive took too long.
  public let timedOut: Bool
  /// The last lines the process wrote to standard error, such as Swift's `Fatal error:` line.
  public let detail: String

  /// Creates a crash report.
  public init(signal: Int32, timedOut: Bool = false, detail: String = "") {
    self.signal = signal
    self.timedOut = timedOut
    self.detail = detail
  }

  /// Why the process died: ``Cause/timeout`` when it was killed after a timeout, else its signal.
  public var cause: Cause { timedOut ? .timeout : .signal(signal) }

  /// The signal's name, such as `SIGILL`, or `signal 42` for an unnamed one.
  public var signalName: String { CrashReport.name(ofSignal: signal) }

  /// A phrase such as `SIGILL` or `SIGKILL (timed out)`.
  public var description: String {
    timedOut ? "\(signalName) (timed out)" : signalName
  }

  /// Names a signal number.
  ///
  /// - Parameter signal: A signal number.
  /// - Returns: Its conventional name, such as `SIGSEGV`.
  public static func name(ofSignal signal: Int32) -> String {
    switch signal {
    case SIGILL: "SIGILL"
    case SIGTRAP: "SIGTRAP"
    case SIGABRT: "SIGABRT"
    case SIGBUS: "SIGBUS"
    case SIGFPE: "SIGFPE"
    case SIGKILL: "SIGKILL"
    case SIGSEGV: "SIGSEGV"
    case SIGPIPE: "SIGPIPE"
    case SIGTERM: "SIGTERM"
    default: "signal \(signal)"
    }
  }
}
