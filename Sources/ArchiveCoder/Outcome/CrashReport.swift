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
  /// The runtime's own message from the process's standard error.
  ///
  /// Swift's `File.swift:12: Fatal error: …` line, a failed cast, or Foundation's
  /// uncaught-exception reason; empty when the process printed nothing. At most
  /// ``maximumDetailBytes`` UTF-8 bytes.
  public let detail: String

  /// The most UTF-8 bytes a ``detail`` holds; a longer message is cut on a character boundary
  /// and ends with `…`.
  public static let maximumDetailBytes = 1024

  /// Creates a crash report.
  ///
  /// ```swift
  /// let crash = CrashReport(signal: SIGILL, detail: "main.swift:3: Fatal error: boom")
  /// crash.summary  // "SIGILL: main.swift:3: Fatal error: boom"
  /// ```
  ///
  /// - Parameters:
  ///   - signal: The signal that ended the process.
  ///   - timedOut: Whether the supervisor killed it after a timeout.
  ///   - detail: The runtime's message; cut to ``maximumDetailBytes``.
  public init(signal: Int32, timedOut: Bool = false, detail: String = "") {
    self.signal = signal
    self.timedOut = timedOut
    self.detail = Self.bounded(detail)
  }

  private enum CodingKeys: String, CodingKey {
    case signal, timedOut, detail
  }

  /// Decodes a crash report, bounding its detail as ``init(signal:timedOut:detail:)`` does.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      signal: try container.decode(Int32.self, forKey: .signal),
      timedOut: try container.decode(Bool.self, forKey: .timedOut),
      detail: try container.decode(String.self, forKey: .detail))
  }

  /// The crash as one report message: the cause, then the runtime's message when there is one.
  ///
  /// ```swift
  /// CrashReport(signal: SIGABRT, detail: "Could not cast value …").summary
  /// // "SIGABRT: Could not cast value …"
  /// CrashReport(signal: SIGSEGV).summary  // "SIGSEGV"
  /// ```
  public var summary: String {
    detail.isEmpty ? description : "\(description): \(detail)"
  }

  /// What the runtimes print before they trap: Swift's `Fatal error` line, its failed-cast
  /// message, and Foundation's uncaught-exception lines.
  static let runtimeMarkers = [
    "Fatal error", "Could not cast value of type", "Terminating app due to uncaught exception",
    "uncaught exception", "NSInvalidArgumentException", "NSRangeException",
    "NSInternalInconsistencyException", "NSGenericException",
  ]

  /// Picks the runtime's own message from what a process wrote to standard error before it
  /// died: the last line that carries a runtime's marker (Swift's `Fatal error:` line, with its
  /// file and line, a failed `as!` cast, Foundation's uncaught exception and its reason), else
  /// the last three lines; cut to ``maximumDetailBytes``.
  ///
  /// ```swift
  /// CrashReport.lastWords(fromStandardError: "log line\nMemo.swift:9: Fatal error: boom\n")
  /// // "Memo.swift:9: Fatal error: boom"
  /// ```
  ///
  /// - Parameter text: The end of the process's standard error.
  /// - Returns: The message, or an empty string when the process wrote nothing.
  public static func lastWords(fromStandardError text: String) -> String {
    let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
      .filter { !$0.allSatisfy(\.isWhitespace) }
    if let marked = lines.lastIndex(where: { line in
      runtimeMarkers.contains { line.contains($0) }
    }) {
      var message = lines[marked]
      // Foundation's exception names its reason on the next line on some platforms.
      let next = marked + 1
      if !message.contains("reason:"), next < lines.count, lines[next].contains("reason:") {
        message += "\n" + lines[next]
      }
      return bounded(message)
    }
    return bounded(lines.suffix(3).joined(separator: "\n"))
  }

  /// Cuts text to at most `maximumBytes` UTF-8 bytes on a character boundary, ending it with `…`
  /// when it was cut.
  ///
  /// ```swift
  /// CrashReport.bounded("abcdef", maximumBytes: 5)  // "ab…" (… is three bytes)
  /// ```
  ///
  /// - Parameters:
  ///   - text: Any text.
  ///   - maximumBytes: The most UTF-8 bytes of the result.
  /// - Returns: The text, or its longest prefix of whole characters that fits with `…`.
  public static func bounded(_ text: String, maximumBytes: Int = maximumDetailBytes) -> String {
    guard text.utf8.count > maximumBytes else { return text }
    let ellipsis = "…"
    let budget = maximumBytes - ellipsis.utf8.count
    guard budget > 0 else { return "" }
    var result = ""
    var used = 0
    for character in text {
      let size = character.utf8.count
      guard used + size <= budget else { break }
      result.append(character)
      used += size
    }
    return result + ellipsis
  }

  /// Why the process died: `Cause.timeout` when it was killed after a timeout, else its signal.
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
